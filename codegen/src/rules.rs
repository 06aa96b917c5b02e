//! The registry of rules: every check a diagnostic can name, defined once, with what it means,
//! how it is treated, which inputs it applies to and an input that breaks it.
//!
//! A [`Diagnostic`](crate::diagnostic::Diagnostic) carries a `&'static Rule`, and a `Rule` can only
//! be made here (its `sealed` field is private), so no code can report a rule the registry does
//! not hold. `armreg-codegen explain <rule>` prints an entry, and the README's table of rules is
//! rendered from [`ALL`] ([`text`]). Every rule has a golden case in `codegen/tests/ui/`.
pub mod text;

use std::fmt;

/// How a broken rule is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSeverity {
    /// Always an error: nothing is generated.
    Error,
    /// A defect with one safe local repair: in lenient mode (vendor files) it is repaired with a
    /// warning saying what was done; in strict mode (native descriptions, `--strict`) it is an
    /// error. A case of it that has no safe repair is an error in both.
    Defect,
}

impl RuleSeverity {
    /// The word the README table and `explain` use.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleSeverity::Error => "error",
            RuleSeverity::Defect => "defect",
        }
    }
}

/// An input a rule reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    Native,
    Svd,
    TiXml,
    LinuxSysreg,
    PerfJson,
    ArmPmuData,
    Manifest,
    /// A patch file (`--patch`, a manifest entry's `patches`).
    Patch,
    /// Arm's machine-readable architecture specification (`Registers.json`).
    Aarchmrs,
}

impl InputFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            InputFormat::Native => "native TOML",
            InputFormat::Svd => "CMSIS-SVD",
            InputFormat::TiXml => "TI XML",
            InputFormat::LinuxSysreg => "Linux sysreg",
            InputFormat::PerfJson => "perf JSON",
            InputFormat::ArmPmuData => "Arm PMU data",
            InputFormat::Manifest => "manifest",
            InputFormat::Patch => "patch file",
            InputFormat::Aarchmrs => "AARCHMRS",
        }
    }
}

/// A field no code outside this module can fill in, so that only the registry makes a [`Rule`].
#[derive(Debug, PartialEq, Eq)]
struct Sealed;

/// One rule.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// The name diagnostics show (`error[name]`) and manifests `allow`.
    pub name: &'static str,
    pub severity: RuleSeverity,
    /// What holds when the rule is kept, in one line.
    pub summary: &'static str,
    /// The inputs it applies to.
    pub formats: &'static [InputFormat],
    /// A short input that breaks it.
    pub example: &'static str,
    sealed: Sealed,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

use InputFormat::{
    Aarchmrs, ArmPmuData, LinuxSysreg, Manifest, Native, Patch, PerfJson, Svd, TiXml,
};
use RuleSeverity::{Defect, Error};

/// Every input: the descriptions and the manifest.
const EVERY_INPUT: &[InputFormat] = &[
    Aarchmrs,
    Native,
    Svd,
    TiXml,
    LinuxSysreg,
    PerfJson,
    ArmPmuData,
    Manifest,
    Patch,
];
/// Every description format.
const DESCRIPTIONS: &[InputFormat] = &[
    Native,
    Svd,
    TiXml,
    LinuxSysreg,
    PerfJson,
    ArmPmuData,
    Aarchmrs,
];
/// The formats that describe registers (layouts with fields).
const REGISTERS: &[InputFormat] = &[Native, Svd, TiXml, LinuxSysreg, Aarchmrs];
/// The formats that describe memory-mapped blocks.
const BLOCKS: &[InputFormat] = &[Native, Svd, TiXml];
/// The formats that describe system registers.
const SYSREGS: &[InputFormat] = &[Native, LinuxSysreg, Aarchmrs];

// ----- reading the inputs

pub const INPUT_READABLE: &Rule = &Rule {
    name: "input_readable",
    severity: Error,
    summary: "every input (and every module file a TI device file names) can be read: it exists, is UTF-8 text and is at most 32 MiB",
    formats: EVERY_INPUT,
    example: r#"<instance id="UART0" href="Modules/no_such_module.xml" baseaddr="0x1000"/>"#,
    sealed: Sealed,
};

pub const INPUT_FORMAT: &Rule = &Rule {
    name: "input_format",
    severity: Error,
    summary: "the format of every input is known: given with --format, or told by the file's name or content",
    formats: DESCRIPTIONS,
    example: "regs.txt, holding `CTRL 0x00 rw` (no format reads it: give --format)",
    sealed: Sealed,
};

pub const MANIFEST_SYNTAX: &Rule = &Rule {
    name: "manifest_syntax",
    severity: Error,
    summary: "the manifest is TOML with the keys it defines, names each crate once with a Cargo name, lists inputs that exist, depends on crates listed before, and allows known rules",
    formats: &[Manifest],
    example: r#"[[crate]]
name = "soc-regs"
inputs = ["soc.svd"]
allow = ["keyword_are_known"]   # no such rule"#,
    sealed: Sealed,
};

// ----- the syntax and content of each format

pub const TOML_SYNTAX: &Rule = &Rule {
    name: "toml_syntax",
    severity: Error,
    summary: "a native description is TOML with only the keys and value types the format defines",
    formats: &[Native],
    example: r#"fields = [ { name = "EN", bits = "0", acess = "rw" } ]   # `access`"#,
    sealed: Sealed,
};

pub const DESCRIPTION_SYNTAX: &Rule = &Rule {
    name: "description_syntax",
    severity: Defect,
    summary: "the values a description gives are well formed (bit ranges msb first, numbers, widths, encodings, access names) and required attributes are there",
    formats: &[Native, TiXml],
    example: r#"fields = [ { name = "MODE", bits = "0:3" } ]   # msb first: "3:0""#,
    sealed: Sealed,
};

pub const XML_SYNTAX: &Rule = &Rule {
    name: "xml_syntax",
    severity: Error,
    summary: "a TI XML file is well-formed XML",
    formats: &[TiXml],
    example: r#"<module id="M"><register id="CTRL"></module>"#,
    sealed: Sealed,
};

pub const SYSREG_SYNTAX: &Rule = &Rule {
    name: "sysreg_syntax",
    severity: Error,
    summary: "a Linux sysreg file has known directives, each with the words it takes and numbers in range, and closes every block",
    formats: &[LinuxSysreg],
    example: "Sysreg\tCTRL_EL1\t3\t0\t1\t0\t0\nFeild\t63:0\tVALUE   # `Field`\nEndSysreg",
    sealed: Sealed,
};

pub const BITS_COVERED_ONCE: &Rule = &Rule {
    name: "bits_covered_once",
    severity: Error,
    summary: "a Linux sysreg block describes every bit 63..0 exactly once, from bit 63 down",
    formats: &[LinuxSysreg],
    example: "Sysreg\tCTRL_EL1\t3\t0\t1\t0\t0\nField\t63:8\tHI\nField\t3:0\tLO   # bits 7:4 are missing\nEndSysreg",
    sealed: Sealed,
};

pub const PERF_JSON_SYNTAX: &Rule = &Rule {
    name: "perf_json_syntax",
    severity: Error,
    summary: "a perf pmu-events file is a JSON array of events, each with a name and an `EventCode` of at most 16 bits",
    formats: &[PerfJson],
    example: r#"[ { "EventName": "CYCLES", "EventCode": "0xZZ" } ]"#,
    sealed: Sealed,
};

pub const ARCH_STD_EVENTS_RESOLVE: &Rule = &Rule {
    name: "arch_std_events_resolve",
    severity: Error,
    summary: "every `ArchStdEvent` names an event of the architectural tables found above the file (as Linux's jevents finds them)",
    formats: &[PerfJson],
    example: r#"[ { "ArchStdEvent": "INST_RETIRD" } ]   # INST_RETIRED"#,
    sealed: Sealed,
};

pub const ARM_PMU_DATA_SYNTAX: &Rule = &Rule {
    name: "arm_pmu_data_syntax",
    severity: Error,
    summary: "an Arm PMU data file (or `cpus.json`) has the keys of the data's schema and names a PMU architecture the generator knows",
    formats: &[ArmPmuData],
    example: r#""pmu_architecture": "pmuv4"   # pmuv2 or pmuv3"#,
    sealed: Sealed,
};

pub const AARCHMRS_SYNTAX: &Rule = &Rule {
    name: "aarchmrs_syntax",
    severity: Error,
    summary: "Arm's `Registers.json` follows the AARCHMRS schema: every entry has its kind, name and state, and every encoding operand is a bit string or a slice of the array's index",
    formats: &[Aarchmrs],
    example: r#"{"_type": "Register", "name": "X", "state": "AArch64", "fieldsets": "none"}"#,
    sealed: Sealed,
};

pub const AARCHMRS_SUPPORTED: &Rule = &Rule {
    name: "aarchmrs_supported",
    severity: Defect,
    summary: "every register of Arm's data can be generated (a 128-bit `MRRS`/`MSRR` accessor, an AArch32 register reached by `VMRS` or a banked `MRS`, is left out)",
    formats: &[Aarchmrs],
    example: r#""name": "A32.VMRS"   # FPSCR: no coprocessor accessor"#,
    sealed: Sealed,
};

pub const OVERLAY_AGREES: &Rule = &Rule {
    name: "overlay_agrees",
    severity: Error,
    summary: "a native description laid over Arm's data agrees with it (encoding, access, width, each field's bits, RES1 bits), or lists the difference with its reason; a listed difference that is not found is an error too",
    formats: &[Native, Aarchmrs],
    example: r#"{ name = "EL2", bits = "63", access = "rw" }   # bit 63 is RES0 in Arm's data"#,
    sealed: Sealed,
};

pub const EVENTS_COMPLETE: &Rule = &Rule {
    name: "events_complete",
    severity: Defect,
    summary: "every event of Arm's PMU data has a name and a code (one without a name is named after its code, one without a code is left out)",
    formats: &[ArmPmuData],
    example: r#"{ "code": 192, "impdef": true, "description": "External memory request" }   # no "name""#,
    sealed: Sealed,
};

// ----- CMSIS-SVD

pub const XML_WELL_FORMED: &Rule = &Rule {
    name: "xml_well_formed",
    severity: Error,
    summary: "an SVD file is well-formed XML: one root, tags that match, quoted attributes, known entities, no control characters, not cut off",
    formats: &[Svd],
    example: "<field><name>EN</name><bitRange>[0:0]</bitRange></fields>",
    sealed: Sealed,
};

pub const SVD_ELEMENTS_VALID: &Rule = &Rule {
    name: "svd_elements_valid",
    severity: Error,
    summary: "an SVD file has the elements CMSIS-SVD requires where it requires them (a `<device>` root, an `<addressOffset>` in every register, a bit range in every field, ...)",
    formats: &[Svd],
    example: "<register><name>CONFIG</name><size>32</size></register>   # no <addressOffset>",
    sealed: Sealed,
};

pub const NUMBERS_PARSE: &Rule = &Rule {
    name: "numbers_parse",
    severity: Error,
    summary: "every SVD number parses (decimal, `0x` hexadecimal, `#` or `0b` binary) and fits its element; bit positions stay below 65536",
    formats: &[Svd],
    example: "<addressOffset>0x5G8</addressOffset>",
    sealed: Sealed,
};

pub const BIT_RANGES_ORDERED: &Rule = &Rule {
    name: "bit_ranges_ordered",
    severity: Error,
    summary:
        "an SVD bit range gives its most significant bit first, and a field has at least one bit",
    formats: &[Svd],
    example: "<bitRange>[1:3]</bitRange>   # [3:1]",
    sealed: Sealed,
};

pub const DIM_INDEX_MATCHES_DIM: &Rule = &Rule {
    name: "dim_index_matches_dim",
    severity: Error,
    summary: "an SVD array has `dimIncrement` beside `dim`, a `%s` in its name, and a `dimIndex` (if any) that gives `dim` indexes",
    formats: &[Svd],
    example: "<dim>4</dim><dimIncrement>4</dimIncrement><dimIndex>0-5</dimIndex>",
    sealed: Sealed,
};

pub const KEYWORDS_ARE_KNOWN: &Rule = &Rule {
    name: "keywords_are_known",
    severity: Defect,
    summary: "SVD keywords (`access`, `usage`, `modifiedWriteValues`, ...) are the schema's; one with a single reading (a case slip, `write` for `write-only`) is read so",
    formats: &[Svd],
    example: "<access>read-writeonce</access>   # read-writeOnce",
    sealed: Sealed,
};

pub const DERIVED_FROM_RESOLVES: &Rule = &Rule {
    name: "derived_from_resolves",
    severity: Error,
    summary:
        "every SVD `derivedFrom` names an element of its kind, and no element derives from itself",
    formats: &[Svd],
    example: r#"<peripheral derivedFrom="UART9"><name>UART1</name> ...   # no UART9"#,
    sealed: Sealed,
};

pub const REGISTER_SIZES_SUPPORTED: &Rule = &Rule {
    name: "register_sizes_supported",
    severity: Defect,
    summary: "every SVD register is 8, 16, 32 or 64 bits wide (vendor files: one of 1 to 63 bits is read at the next of these widths; 0 or more than 64 bits is an error)",
    formats: &[Svd],
    example:
        "<register><name>CTRL</name><addressOffset>0</addressOffset><size>96</size></register>",
    sealed: Sealed,
};

pub const ENUM_VALUES_HAVE_VALUES: &Rule = &Rule {
    name: "enum_values_have_values",
    severity: Defect,
    summary:
        "every SVD `enumeratedValue` has a `<value>` or `<isDefault>` (one with neither is dropped)",
    formats: &[Svd],
    example: "<enumeratedValue><name>Lost</name></enumeratedValue>",
    sealed: Sealed,
};

pub const ALTERNATES_RESOLVE: &Rule = &Rule {
    name: "alternates_resolve",
    severity: Defect,
    summary: "every SVD `alternatePeripheral` and `alternateRegister` names one element beside it (one that does not is ignored)",
    formats: &[Svd],
    example: "<alternateRegister>CONFIGX</alternateRegister>   # no CONFIGX beside it",
    sealed: Sealed,
};

pub const REGISTERS_ALIGNED: &Rule = &Rule {
    name: "registers_aligned",
    severity: Defect,
    summary: "every SVD register's offset (and array stride) is a multiple of its size (one that is not is read at the width its offset allows)",
    formats: &[Svd],
    example: "<addressOffset>0x2</addressOffset><size>32</size>",
    sealed: Sealed,
};

pub const REGISTER_ACCESS_FITS_FIELDS: &Rule = &Rule {
    name: "register_access_fits_fields",
    severity: Defect,
    summary: "an SVD register's access lets its fields be used (a read-only register with write-only fields is read as read-write, as its fields say it is written)",
    formats: &[Svd],
    example: "<access>read-only</access> ... <field><name>GO</name><access>write-only</access>",
    sealed: Sealed,
};

// ----- patch files, applied to the IR before the passes run

pub const PATCH_SYNTAX: &Rule = &Rule {
    name: "patch_syntax",
    severity: Error,
    summary: "a patch file is TOML whose operations have the keys their kind takes, a selector whose levels nest (`register` under `block`, `value` under `field`), attributes of the level selected and well-formed values",
    formats: &[Patch],
    example: r#"[[modify]]
block = "PWM"
register = "CH0_CSR"
set = { bits = "3:7" }   # msb first: "7:3""#,
    sealed: Sealed,
};

pub const PATCH_SELECTORS_MATCH: &Rule = &Rule {
    name: "patch_selectors_match",
    severity: Error,
    summary: "every level of every patch selector matches an element (a patch that no longer matches after a vendor update is an error, never silently skipped), and names a patch refers to exist",
    formats: &[Patch],
    example: r#"[[delete]]
block = "PWM"
register = "CH9_*"   # PWM has CH0..CH7"#,
    sealed: Sealed,
};

pub const PATCHES_DO_NOT_CONFLICT: &Rule = &Rule {
    name: "patches_do_not_conflict",
    severity: Error,
    summary: "no two patch operations set one attribute of an element to different values, change an element another deletes, give one element two names or two elements one name, put a register into two arrays or clusters (or one of each), or name a cluster, its block or the copy of a block a cluster places as something that is there",
    formats: &[Patch],
    example: r#"[[modify]]
block = "PWM"
register = "CH0_CSR"
set = { access = "ro" }

[[modify]]
block = "PWM"
register = "CH?_CSR"
set = { access = "rw" }   # CH0_CSR: ro or rw?"#,
    sealed: Sealed,
};

pub const PATCH_OPERATIONS_APPLY: &Rule = &Rule {
    name: "patch_operations_apply",
    severity: Error,
    summary: "each patch operation can do what it says: an array's registers, a cluster's groups of registers and a field array's fields are numbered from 0 without gaps, evenly spaced and alike; merged enums have fields with the same values; element names name each element of an array",
    formats: &[Patch],
    example: r#"[[array]]
block = "PWM"
register = "CH<n>_CTR"   # CH0_CTR has field CH0_CTR, CH1_CTR has CH1_CTR: rename them first"#,
    sealed: Sealed,
};

// ----- the passes over the IR, in the order they run

pub const AMENDMENTS_APPLY: &Rule = &Rule {
    name: "amendments_apply",
    severity: Error,
    summary: "every `[[amend]]` names a block, and registers of that block",
    formats: &[Native],
    example: r#"[[amend]]
block = "FRAME"

[[amend.register]]
name = "ENCLR"   # FRAME has no register ENCLR
access = "clear"
state = "EN""#,
    sealed: Sealed,
};

pub const DERIVED_LAYOUTS_RESOLVE: &Rule = &Rule {
    name: "derived_layouts_resolve",
    severity: Error,
    summary: "a derived layout's `base` exists, its `remove` and `raz_wi` name fields of the base, and no layout derives from itself",
    formats: &[Native],
    example: r#"[[layout]]
name = "CTRL_EXT"
base = "CTRL"
raz_wi = ["ENABLE"]   # CTRL has no field ENABLE"#,
    sealed: Sealed,
};

pub const NO_DUPLICATE_NAMES: &Rule = &Rule {
    name: "no_duplicate_names",
    severity: Defect,
    summary: "no two layouts, registers, blocks, instances, events, fields of a layout or values of a field share a name (vendor files: later ones get a `_<k>` suffix)",
    formats: DESCRIPTIONS,
    example: r#"fields = [ { name = "EN", bits = "0" }, { name = "EN", bits = "1" } ]"#,
    sealed: Sealed,
};

pub const NAMES_ARE_IDENTIFIERS: &Rule = &Rule {
    name: "names_are_identifiers",
    severity: Defect,
    summary: "every name is a Rust identifier after sanitising, and no two names of one scope become the same one (vendor files: characters no identifier holds become `_`, and a collision is renamed with a `_<k>` suffix)",
    formats: DESCRIPTIONS,
    example: r#"fields = [ { name = "MODE$", bits = "1:0" } ]"#,
    sealed: Sealed,
};

pub const REFERENCES_RESOLVE: &Rule = &Rule {
    name: "references_resolve",
    severity: Error,
    summary: "every `layout` a register names, every `alias_of` and every instance's block exists; every cluster places an existing block that nothing else places (not itself, not an instance)",
    formats: REGISTERS,
    example: r#"[[sysreg]]
name = "CTRL_EL1"
layout = "CTRLR"   # no layout CTRLR
a64 = "S3_0_C1_C0_0""#,
    sealed: Sealed,
};

pub const FIELDS_WITHIN_WIDTH: &Rule = &Rule {
    name: "fields_within_width",
    severity: Defect,
    summary:
        "every field lies inside its layout's width (vendor files: one that does not is dropped)",
    formats: REGISTERS,
    example: r#"width = 32
fields = [ { name = "HI", bits = "35:32" } ]"#,
    sealed: Sealed,
};

pub const NO_OVERLAPPING_FIELDS: &Rule = &Rule {
    name: "no_overlapping_fields",
    severity: Defect,
    summary: "no bit belongs to two fields of a layout (vendor files: both are kept)",
    formats: REGISTERS,
    example: r#"fields = [ { name = "MODE", bits = "3:0" }, { name = "EN", bits = "2" } ]"#,
    sealed: Sealed,
};

pub const RESET_VALUES_FIT: &Rule = &Rule {
    name: "reset_values_fit",
    severity: Defect,
    summary: "field and layout resets fit their widths, and agree (vendor files: a reset too wide is masked)",
    formats: BLOCKS,
    example: r#"fields = [ { name = "MODE", bits = "2:0", reset = 9 } ]   # 9 needs 4 bits"#,
    sealed: Sealed,
};

pub const ENUM_VALUES_FIT: &Rule = &Rule {
    name: "enum_values_fit",
    severity: Defect,
    summary: "every enumerated value fits its field, and no two share a value (vendor files: such a value is dropped)",
    formats: REGISTERS,
    example: r#"{ name = "MODE", bits = "1:0", enum = [ { name = "TURBO", value = 4 } ] }"#,
    sealed: Sealed,
};

pub const FIELD_ARRAYS_UNIFORM: &Rule = &Rule {
    name: "field_arrays_uniform",
    severity: Defect,
    summary: "a field array's members are fields of its layout, `stride` bits apart, with one width, access, set of values and write rules, once the repairs before it are done (vendor files: a broken array is read as its separate fields)",
    formats: &[Svd, Patch],
    example: r#"<register><name>CTRL</name><size>32</size>
  <fields><field><dim>5</dim><dimIncrement>8</dimIncrement>
    <name>PIN%s</name><bitOffset>0</bitOffset><bitWidth>8</bitWidth>
  </field></fields>   <!-- PIN4 lies beyond the register, and is dropped -->
</register>"#,
    sealed: Sealed,
};

pub const LAYOUTS_FIT_PATHS: &Rule = &Rule {
    name: "layouts_fit_paths",
    severity: Error,
    summary: "a layout is no wider than its access transfers (32 bits for MRC/MCR, 64 for MRS/MSR and MRRC/MCRR), and a block register's is a whole number of bus accesses",
    formats: REGISTERS,
    example: r#"[[sysreg]]
name = "COUNT32"
layout = "COUNT"   # 64 bits wide
a32 = "p15, 0, c9, c13, 0""#,
    sealed: Sealed,
};

pub const ARRAYS_IN_RANGE: &Rule = &Rule {
    name: "arrays_in_range",
    severity: Error,
    summary: "an array's name holds `<n>` exactly when it has a count; it has 1 to 65536 elements, a block at most 2^20 registers with elements counted (and at most 65536 once its clusters are flattened), no element's encoding carries out of CRm and none lies outside its block",
    formats: &[Native, Svd],
    example: r#"[[sysreg]]
name = "CNT<n>_EL0"
layout = "CNT"
a64 = "S3_3_C14_C12_0"
count = 40   # element 32 carries out of CRm"#,
    sealed: Sealed,
};

pub const NO_DUPLICATE_ENCODINGS: &Rule = &Rule {
    name: "no_duplicate_encodings",
    severity: Error,
    summary: "no two system registers, array elements included, share an encoding, unless one is a `view_of` the other (which must have its encoding)",
    formats: SYSREGS,
    example: r#"[[sysreg]]
name = "PMEVTYPER<n>_EL0"
a64 = "S3_3_C14_C12_0"
count = 31   # element 30 is S3_3_C14_C15_6

[[sysreg]]
name = "PMCCFILTR_EL0"
a64 = "S3_3_C14_C15_6""#,
    sealed: Sealed,
};

pub const REGISTERS_WITHIN_BLOCK: &Rule = &Rule {
    name: "registers_within_block",
    severity: Error,
    summary: "every block register lies inside its block, at an offset aligned to its size, and every element of a cluster inside the block that places it",
    formats: BLOCKS,
    example: r#"[[block]]
name = "REGS"
size = 0x1000

[[block.register]]
name = "LAST"
layout = "WORD"   # 32 bits
offset = 0xFFE"#,
    sealed: Sealed,
};

pub const NO_OVERLAPPING_REGISTERS: &Rule = &Rule {
    name: "no_overlapping_registers",
    severity: Defect,
    summary: "no byte of a block belongs to two registers unless one is `alias_of` the other (vendor files: the later is kept as an alias)",
    formats: BLOCKS,
    example: r#"[[block.register]]
name = "COUNTER"   # 64 bits at 0xF8
offset = 0xF8

[[block.register]]
name = "STATUS"
offset = 0xFC"#,
    sealed: Sealed,
};

pub const SHARED_STATES_AGREE: &Rule = &Rule {
    name: "shared_states_agree",
    severity: Error,
    summary: "the set and clear views of one shared state use one layout, or layouts with the same fields at the same bits",
    formats: &[Native, TiXml],
    example: r#"[[sysreg]]
name = "ENSET_EL0"
layout = "MASK"
access = "set"
state = "EN"

[[sysreg]]
name = "ENCLR_EL0"
layout = "OTHER_MASK"   # other bits than MASK
access = "clear"
state = "EN""#,
    sealed: Sealed,
};

pub const LOCKS_RESOLVE: &Rule = &Rule {
    name: "locks_resolve",
    severity: Error,
    summary: "a block's `lock` names a writable access register the key fits, a readable status register, and a 1-bit `locked` field of it",
    formats: &[Native, TiXml],
    example: r#"lock = { access = "LAR", status = "LSR", locked = "SLK", key = 0xC5ACCE55 }
# LSR's SLK is bits 2:1"#,
    sealed: Sealed,
};

/// Every rule, in the order inputs meet them: reading, each format's own rules, then the passes.
pub const ALL: &[&Rule] = &[
    INPUT_READABLE,
    INPUT_FORMAT,
    MANIFEST_SYNTAX,
    TOML_SYNTAX,
    DESCRIPTION_SYNTAX,
    XML_SYNTAX,
    SYSREG_SYNTAX,
    BITS_COVERED_ONCE,
    PERF_JSON_SYNTAX,
    ARCH_STD_EVENTS_RESOLVE,
    ARM_PMU_DATA_SYNTAX,
    EVENTS_COMPLETE,
    AARCHMRS_SYNTAX,
    AARCHMRS_SUPPORTED,
    OVERLAY_AGREES,
    XML_WELL_FORMED,
    SVD_ELEMENTS_VALID,
    NUMBERS_PARSE,
    BIT_RANGES_ORDERED,
    DIM_INDEX_MATCHES_DIM,
    KEYWORDS_ARE_KNOWN,
    DERIVED_FROM_RESOLVES,
    REGISTER_SIZES_SUPPORTED,
    ENUM_VALUES_HAVE_VALUES,
    ALTERNATES_RESOLVE,
    REGISTERS_ALIGNED,
    REGISTER_ACCESS_FITS_FIELDS,
    PATCH_SYNTAX,
    PATCH_SELECTORS_MATCH,
    PATCHES_DO_NOT_CONFLICT,
    PATCH_OPERATIONS_APPLY,
    AMENDMENTS_APPLY,
    DERIVED_LAYOUTS_RESOLVE,
    NO_DUPLICATE_NAMES,
    NAMES_ARE_IDENTIFIERS,
    REFERENCES_RESOLVE,
    FIELDS_WITHIN_WIDTH,
    NO_OVERLAPPING_FIELDS,
    RESET_VALUES_FIT,
    ENUM_VALUES_FIT,
    FIELD_ARRAYS_UNIFORM,
    LAYOUTS_FIT_PATHS,
    ARRAYS_IN_RANGE,
    NO_DUPLICATE_ENCODINGS,
    REGISTERS_WITHIN_BLOCK,
    NO_OVERLAPPING_REGISTERS,
    SHARED_STATES_AGREE,
    LOCKS_RESOLVE,
];

/// The rule called `name`.
pub fn find(name: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|rule| rule.name == name)
}

/// The rules whose names are close to `name`, closest first: what to suggest for a name that is
/// no rule's. A name is close when it is a few typos from the rule's, or a part of it, or when
/// each of its words is a typo from one of the rule's (`overlaping`, `derive_layouts`).
pub fn similar(name: &str) -> Vec<&'static Rule> {
    let wanted = name.to_ascii_lowercase();
    let mut close: Vec<(usize, &'static Rule)> = ALL
        .iter()
        .copied()
        .filter_map(|rule| {
            let distance = edit_distance(&wanted, rule.name);
            let near = distance <= (rule.name.len() / 3).max(2);
            let part = wanted.len() >= 3 && rule.name.contains(wanted.as_str());
            let word = wanted.split('_').all(|part| {
                part.len() >= 4
                    && rule
                        .name
                        .split('_')
                        .any(|word| edit_distance(part, word) <= (word.len() / 4).max(1))
            });
            (near || part || word).then_some((distance, rule))
        })
        .collect();
    close.sort_by_key(|&(distance, rule)| (distance, rule.name));
    close.into_iter().map(|(_, rule)| rule).collect()
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_listed_once_under_its_own_name() {
        // Every `pub const` of this file is a rule of `ALL`, and no name is given twice.
        let source = include_str!("rules.rs");
        let defined: Vec<&str> = source
            .lines()
            .filter_map(|line| {
                line.strip_prefix("pub const ")?
                    .strip_suffix(": &Rule = &Rule {")
            })
            .collect();
        assert_eq!(defined.len(), ALL.len(), "a rule is missing from ALL");
        for (i, rule) in ALL.iter().enumerate() {
            assert!(
                ALL[..i].iter().all(|earlier| earlier.name != rule.name),
                "{rule} is listed twice"
            );
            assert!(defined.contains(&rule.name.to_ascii_uppercase().as_str()));
            assert!(rule
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_'));
            assert!(
                !rule.summary.is_empty() && !rule.example.is_empty() && !rule.formats.is_empty()
            );
        }
    }

    #[test]
    fn similar_names_are_suggested() {
        let names = |name: &str| similar(name).iter().map(|r| r.name).collect::<Vec<_>>();
        assert_eq!(names("events_compete")[0], "events_complete");
        assert_eq!(names("keyword_are_known")[0], "keywords_are_known");
        assert!(names("overlapping").contains(&"no_overlapping_fields"));
        assert!(names("overlaping").contains(&"no_overlapping_registers"));
        assert_eq!(names("derive_layouts"), ["derived_layouts_resolve"]);
        assert!(names("zzzz").is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
