//! The intermediate representation every frontend produces and every backend reads.
//!
//! Plain data, serde-serializable, in a canonical order (layouts, system registers and blocks by
//! name, fields by bit position, block registers by offset) so that a dump diffs cleanly and
//! generation is deterministic. Register layouts are separate from access paths: one layout is
//! bound to any number of system registers and block registers. Every element keeps the position
//! it came from so that any pass can point at the input. Elements are kept in vectors rather than
//! maps so that a duplicate name survives parsing and is reported by its own pass.
use serde::{Deserialize, Serialize};

/// A position in an input file (1-based line and column).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// Byte range in the file, for rendering snippets; not part of the IR's identity.
    #[serde(skip)]
    pub span: (usize, usize),
}

impl Pos {
    /// The start of `file`: where a diagnostic about the whole file points.
    pub fn file_start(file: &str) -> Self {
        Pos {
            file: file.to_string(),
            line: 1,
            col: 1,
            span: (0, 0),
        }
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A reference to another element by name, with the position of the reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameRef {
    pub name: String,
    pub pos: Pos,
}

/// One description: the unit a crate is generated from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Device {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The licence the inputs state, as an SPDX expression (`Apache-2.0`, `BSD-3-Clause`): the
    /// generated crate's `license`, since a crate made from an input is under its terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// Attribution the inputs' licences ask a derived work to carry (Apache-2.0's NOTICE, a
    /// vendor's copyright and licence statement): the generated crate's `NOTICE` file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    pub pos: Pos,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layouts: Vec<Layout>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sysregs: Vec<SysReg>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<Block>,
    /// Blocks placed at addresses (SVD peripherals, TI instances).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<Instance>,
    /// PMU events (perf pmu-events JSON, or events declared with a device).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
    /// The PMU the events are for, which bounds their codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_pmu: Option<EventPmu>,
    /// The Rust path of the event-type register value the events convert into
    /// (`crate::Pmevtyper`, `arm_pmuv3::Pmevtyper`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    /// The CPU cores the input names: the one whose events these are (a core's PMU data), or a
    /// list of cores (Arm's `cpus.json`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cores: Vec<Core>,
    /// The processor the description is for (SVD `<cpu>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Cpu>,
    /// Statements about blocks that another input of the crate defines (a native overlay on a
    /// vendor file); `passes::amendments_apply` folds them into the blocks and empties this.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub amendments: Vec<Amendment>,
    /// Reviewed differences between a native description and the architecture's data it is laid
    /// over (`passes::overlay`), each with its reason; the overlay pass consumes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<KnownDifference>,
}

/// A difference between a native description and Arm's data that was reviewed and is kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownDifference {
    /// The register, as the native description names it.
    pub register: String,
    /// What differs (`width`, `reserved`, ...: `passes::overlay::Kind`).
    pub kind: String,
    /// The field (or bits) it is about, for the field kinds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub reason: String,
    pub pos: Pos,
}

/// The processor of a microcontroller, as its SVD file's `<cpu>` describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cpu {
    /// The core (`CM4`, `CM33`).
    pub name: String,
    /// Its revision (`r0p1`).
    pub revision: String,
    /// `little`, `big`, `selectable` or `other`.
    pub endian: String,
    pub mpu_present: bool,
    pub fpu_present: bool,
    /// The bits of interrupt priority the NVIC implements.
    pub nvic_prio_bits: u32,
    /// Whether the vendor provides its own SysTick configuration.
    pub vendor_systick_config: bool,
    /// What the description says of the processor's optional parts, where it says it
    /// (`fpuDP`, `dspPresent`, `icachePresent`, `dcachePresent`, `itcmPresent`, `dtcmPresent`,
    /// `vtorPresent`), by their SVD names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<(String, bool)>,
    /// The number of interrupts the NVIC has (`deviceNumInterrupts`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupts: Option<u32>,
    /// The number of regions of the security attribution unit (`sauNumRegions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sau_regions: Option<u32>,
    pub pos: Pos,
}

/// What one input says about a block another input defines: what the other input's format
/// cannot state (TI XML has no set/clear views of a shared state and no software lock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Amendment {
    pub block: NameRef,
    /// The block's software lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<Lock>,
    /// New register accesses (`set`/`clear` views of a shared state), by register name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registers: Vec<RegisterAmendment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

/// A register's access, restated by an amendment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterAmendment {
    pub name: NameRef,
    pub access: RegAccess,
}

/// A software lock on a block (CoreSight's lock access and lock status registers, PMLAR and
/// PMLSR in the external PMU view): while locked, writes to every register of the block but the
/// lock access register are ignored. Writing `key` to the lock access register unlocks, any
/// other value locks; the status register's `locked` bit reads 1 while locked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    /// The lock access register (PMLAR).
    pub access: NameRef,
    /// The lock status register (PMLSR).
    pub status: NameRef,
    /// The 1-bit field of the status register that reads 1 while locked (SLK).
    pub locked: NameRef,
    pub key: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

/// A CPU core, as MIDR identifies it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Core {
    /// The product name (`Cortex-A53`).
    pub name: String,
    /// MIDR.Implementer (0x41: Arm).
    pub implementer: u8,
    /// MIDR.PartNum.
    pub part_number: u16,
    /// The architecture (`armv8-a`).
    pub architecture: String,
    /// The number of PMU event counters, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters: Option<u8>,
    pub pos: Pos,
}

/// Which PMU's event field the events are numbers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventPmu {
    /// The ARM11 performance monitor: 8-bit event numbers, no PMCEID.
    Arm11,
    /// The Armv7 PMU (PMUv2): 8-bit event numbers.
    Pmuv2,
    /// PMUv3: 10-bit event numbers.
    Pmuv3,
    /// PMUv3p1 and later: 16-bit event numbers.
    Pmuv3p1,
    /// The DynamIQ Shared Unit's cluster PMU.
    Dsu,
}

impl From<pmu_events::Pmu> for EventPmu {
    fn from(pmu: pmu_events::Pmu) -> Self {
        match pmu {
            pmu_events::Pmu::Arm11 => EventPmu::Arm11,
            pmu_events::Pmu::PmuV2 => EventPmu::Pmuv2,
            pmu_events::Pmu::PmuV3 => EventPmu::Pmuv3,
            pmu_events::Pmu::PmuV3p1 => EventPmu::Pmuv3p1,
            pmu_events::Pmu::Dsu => EventPmu::Dsu,
        }
    }
}

impl EventPmu {
    /// The keyword `pmu_macros::event_set!` takes.
    pub fn keyword(self) -> &'static str {
        match self {
            EventPmu::Arm11 => "arm11",
            EventPmu::Pmuv2 => "pmuv2",
            EventPmu::Pmuv3 => "pmuv3",
            EventPmu::Pmuv3p1 => "pmuv3p1",
            EventPmu::Dsu => "dsu",
        }
    }
}

/// A block placed at a base address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    pub name: String,
    pub block: NameRef,
    pub base: u64,
    /// Another instance this one shares its address range with, on purpose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<NameRef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interrupts: Vec<Interrupt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

/// An interrupt line of an instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interrupt {
    pub name: String,
    pub value: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    pub pos: Pos,
}

/// A PMU event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub code: u16,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

/// A register's fields, independent of where the register lives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub name: String,
    /// Width in bits: 8, 16, 32 or 64.
    pub width: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Whole-register reset value, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset: Option<u64>,
    /// The bits of `reset` that are defined (SVD `resetMask`); all when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset_mask: Option<u64>,
    pub pos: Pos,
    pub fields: Vec<Field>,
    /// Fields that are elements of one array (SVD `dim` on a field, `PIN%s`): each is also a
    /// field of `fields`, which every reader but the Rust layout sees; that gives them one
    /// constant (`Layout::PIN.at::<3>()`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub field_arrays: Vec<FieldArray>,
    /// Set while the layout still has to be derived from another one (see `passes::derived_layouts_resolve`);
    /// after that pass it names the base, for documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derive: Option<Derive>,
}

/// Fields of a layout that are one array: element `n` is the field named `members[n]`, at
/// `lsb + n * stride`, all of one width, access and set of values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldArray {
    /// The name, `<n>` where the index goes (`PIN<n>`).
    pub name: String,
    /// The fields that are its elements, in index order.
    pub members: Vec<String>,
    /// Bits between two elements.
    pub stride: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    pub pos: Pos,
}

impl Layout {
    /// Everything about the layout its type's API is made from: not its name, prose, sources
    /// or positions. Two layouts with one key are one Rust type (the backend), and alike enough
    /// to be one array's elements (the patch layer).
    pub fn structure_key(&self) -> String {
        let fields: Vec<_> = self
            .fields
            .iter()
            .map(|f| {
                let enums: Vec<_> = f
                    .enums
                    .iter()
                    .map(|e| (&e.name, e.value, e.mask, e.usage))
                    .collect();
                (
                    (&f.name, f.lsb, f.width, f.access, f.reset),
                    (enums, &f.enum_default, &f.enum_name),
                    (f.read_action, f.write_constraint),
                )
            })
            .collect();
        let arrays: Vec<_> = self
            .intact_field_arrays()
            .iter()
            .map(|(a, _)| (&a.name, &a.members, a.stride))
            .collect();
        format!(
            "{:?}",
            (self.width, self.reset, self.reset_mask, fields, arrays)
        )
    }

    /// The field arrays whose members are still the layout's fields as the array says, with
    /// those fields: the ones [`Layout::field_array_break`] finds nothing wrong with. After the
    /// passes that is all of them (`field_arrays_uniform` reads a broken one as its fields).
    pub fn intact_field_arrays(&self) -> Vec<(&FieldArray, Vec<&Field>)> {
        self.field_arrays
            .iter()
            .filter(|array| self.field_array_break(array).is_none())
            .filter_map(|array| {
                let members = array
                    .members
                    .iter()
                    .map(|name| self.fields.iter().find(|f| f.name == *name))
                    .collect::<Option<Vec<_>>>()?;
                Some((array, members))
            })
            .collect()
    }

    /// What makes `array` no longer one array of this layout's fields, if anything, and the
    /// field at fault when one is (its index in `fields`): fewer than two members, a member that
    /// is not a field, a stride narrower than the members, a member not `stride` bits after the
    /// one before, or one unlike the first (width, access, values, write constraint, read
    /// action). The `field_arrays_uniform` pass and the patch layer's `[[field_array]]` ask it.
    pub fn field_array_break(&self, array: &FieldArray) -> Option<(Option<usize>, String)> {
        if array.members.len() < 2 {
            return Some((
                None,
                format!(
                    "it has {} member(s), and an array needs 2",
                    array.members.len()
                ),
            ));
        }
        let mut members: Vec<(usize, &Field)> = Vec::new();
        for name in &array.members {
            match self.fields.iter().position(|f| f.name == *name) {
                Some(at) => members.push((at, &self.fields[at])),
                None => {
                    return Some((
                        None,
                        format!("member `{name}` is no longer a field of the layout"),
                    ))
                }
            }
        }
        let first = members[0].1;
        if array.stride < first.width {
            return Some((
                Some(members[1].0),
                format!(
                    "its stride of {} bit(s) is narrower than its members' {} bit(s)",
                    array.stride, first.width
                ),
            ));
        }
        for (n, &(at, field)) in members.iter().enumerate().skip(1) {
            let lsb = u64::from(first.lsb) + n as u64 * u64::from(array.stride);
            if u64::from(field.lsb) != lsb {
                return Some((
                    Some(at),
                    format!("member `{}` is at bit {}, not {lsb}", field.name, field.lsb),
                ));
            }
            let differs = [
                (field.width != first.width, "width"),
                (field.access != first.access, "access"),
                (
                    field.enums != first.enums
                        || field.enum_default != first.enum_default
                        || field.enum_name != first.enum_name,
                    "enumerated values",
                ),
                (
                    field.write_constraint != first.write_constraint,
                    "write constraint",
                ),
                (field.read_action != first.read_action, "read action"),
            ];
            if let Some((_, what)) = differs.iter().find(|(d, _)| *d) {
                return Some((
                    Some(at),
                    format!(
                        "member `{}` differs from `{}` in its {what}",
                        field.name, first.name
                    ),
                ));
            }
        }
        None
    }
}

/// How a layout is derived from a base layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Derive {
    pub base: NameRef,
    /// True once the fields have been copied from the base.
    #[serde(default)]
    pub resolved: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<NameRef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raz_wi: Vec<NameRef>,
}

/// A bit field of a layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
    pub access: FieldAccess,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enums: Vec<EnumValue>,
    /// The name of the values not listed in `enums` (SVD `isDefault`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_default: Option<String>,
    /// The name of the type of the field's values, where one is given (a patch's
    /// `[[merge_enums]] name`); the field's own name otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_name: Option<String>,
    /// A side effect of reading the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_action: Option<ReadAction>,
    /// Which values software may write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_constraint: Option<WriteConstraint>,
    /// When the field exists, where the architecture's data says (`FEAT_PAN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
}

/// A side effect of a read (SVD `readAction`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReadAction {
    /// Reading clears the field.
    Clear,
    /// Reading sets the field.
    Set,
    /// Reading modifies the field in another way.
    Modify,
    /// Reading has an effect outside the field.
    ModifyExternal,
}

/// The values software may write (SVD `writeConstraint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum WriteConstraint {
    /// Only the field's enumerated values.
    Enumerated,
    /// Only values from `min` to `max`.
    Range { min: u64, max: u64 },
    /// Only the value last read.
    LastRead,
}

impl Field {
    /// The field's most significant bit.
    pub fn msb(&self) -> u32 {
        self.lsb + self.width.saturating_sub(1)
    }

    /// The field's bits as a mask of a 64-bit register (bits past 63 are dropped).
    pub fn mask(&self) -> u64 {
        bit_range_mask(self.lsb, self.width)
    }

    /// Whether the field is a reserved range rather than a named field.
    pub fn is_reserved(&self) -> bool {
        matches!(self.access, FieldAccess::Res0 | FieldAccess::Res1)
    }
}

/// A mask of `width` bits starting at `lsb`, saturating at bit 63.
pub fn bit_range_mask(lsb: u32, width: u32) -> u64 {
    if lsb >= 64 || width == 0 {
        return 0;
    }
    let ones = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ones << lsb
}

/// How software may access a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldAccess {
    /// Read and write.
    Rw,
    /// Read only; writes ignored.
    Ro,
    /// Write only; reads UNKNOWN.
    Wo,
    /// Writing 1 sets the bit, writing 0 has no effect.
    W1s,
    /// Writing 1 clears the bit, writing 0 has no effect.
    W1c,
    /// Writing 1 toggles the bit, writing 0 has no effect.
    W1t,
    /// Writing 0 clears the bit, writing 1 has no effect.
    W0c,
    /// Writing 0 sets the bit, writing 1 has no effect.
    W0s,
    /// Writing 0 toggles the bit, writing 1 has no effect.
    W0t,
    /// Any write clears the field.
    WClr,
    /// Any write sets the field.
    WSet,
    /// Writable once after reset, readable.
    RwOnce,
    /// Writable once after reset, not readable.
    WoOnce,
    /// Writing 1 triggers an action; the bit reads as 0.
    W1Action,
    /// Reads as zero, writes ignored.
    RazWi,
    /// Reserved, should be zero.
    Res0,
    /// Reserved, should be one.
    Res1,
}

impl FieldAccess {
    /// Whether reading the field gives information.
    pub fn readable(self) -> bool {
        matches!(
            self,
            Self::Rw
                | Self::Ro
                | Self::W1s
                | Self::W1c
                | Self::W1t
                | Self::W0c
                | Self::W0s
                | Self::W0t
                | Self::WClr
                | Self::WSet
                | Self::RwOnce
        )
    }

    /// Whether software may set the field's value in a register value.
    pub fn writable(self) -> bool {
        !matches!(self, Self::Ro | Self::RazWi | Self::Res0 | Self::Res1)
    }

    /// How the access is spelt in descriptions and documentation.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rw => "rw",
            Self::Ro => "ro",
            Self::Wo => "wo",
            Self::W1s => "w1s",
            Self::W1c => "w1c",
            Self::W1t => "w1t",
            Self::W0c => "w0c",
            Self::W0s => "w0s",
            Self::W0t => "w0t",
            Self::WClr => "wclr",
            Self::WSet => "wset",
            Self::RwOnce => "rw-once",
            Self::WoOnce => "wo-once",
            Self::W1Action => "w1-action",
            Self::RazWi => "raz-wi",
            Self::Res0 => "res0",
            Self::Res1 => "res1",
        }
    }

    /// The access spelt `text`, or the message saying which spellings there are.
    pub fn parse(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|a| a.as_str() == text)
            .ok_or_else(|| {
                let all: Vec<_> = Self::ALL.iter().map(|a| a.as_str()).collect();
                format!(
                    "unknown field access `{text}`; expected one of: {}",
                    all.join(", ")
                )
            })
    }

    /// Every access kind, for parsing and documentation.
    pub const ALL: [FieldAccess; 17] = [
        Self::Rw,
        Self::Ro,
        Self::Wo,
        Self::W1s,
        Self::W1c,
        Self::W1t,
        Self::W0c,
        Self::W0s,
        Self::W0t,
        Self::WClr,
        Self::WSet,
        Self::RwOnce,
        Self::WoOnce,
        Self::W1Action,
        Self::RazWi,
        Self::Res0,
        Self::Res1,
    ];
}

/// A named value of a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnumValue {
    pub name: String,
    pub value: u64,
    /// The bits a read is matched on, where the description leaves others "don't care" (SVD
    /// `0b01xx`: value 0b0100, mask 0b1100); every bit when absent. A value with a mask names
    /// several values, so it is only read: a write needs one value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<u64>,
    /// Whether the value is one read, written, or both.
    #[serde(default, skip_serializing_if = "EnumUsage::is_read_write")]
    pub usage: EnumUsage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

impl EnumValue {
    /// A value with don't-care bits as binary digits over `width` bits, the don't-cares as `x`
    /// (`0b01xx`); `None` for a value without a mask.
    pub fn pattern(&self, width: u32) -> Option<String> {
        let mask = self.mask?;
        let digits: String = (0..width.min(64))
            .rev()
            .map(|bit| match (mask >> bit & 1, self.value >> bit & 1) {
                (0, _) => 'x',
                (_, 1) => '1',
                _ => '0',
            })
            .collect();
        Some(format!("0b{digits}"))
    }
}

/// Which direction an enumerated value applies to (SVD `usage`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EnumUsage {
    #[default]
    ReadWrite,
    Read,
    Write,
}

impl EnumUsage {
    pub fn is_read_write(&self) -> bool {
        *self == EnumUsage::ReadWrite
    }
}

/// How software may access a whole register.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum RegAccess {
    Rw,
    Ro,
    Wo,
    /// The write-1-to-set view of the shared state `state`; reads give the state.
    Set {
        state: String,
    },
    /// The write-1-to-clear view of the shared state `state`; reads give the state.
    Clear {
        state: String,
    },
}

/// A system register: a layout bound to one instruction encoding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SysReg {
    /// The architectural name; an array's name holds `<n>`.
    pub name: String,
    pub layout: NameRef,
    pub path: SysRegPath,
    pub access: RegAccess,
    /// For an array: the number of elements; index n adds n to the CRm:op2 (or CRm) part of the
    /// encoding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// A second view of another register's encoding, with the layout that applies under a
    /// condition (`when`): TCR_EL2 with HCR_EL2.E2H set has TCR_EL1's fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View>,
    /// When the register exists, where the architecture's data says (`FEAT_PMUv3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

/// When an element exists: the architecture's condition on features and exception levels, as
/// Arm's machine-readable specification states it (`IsFeatureImplemented(FEAT_X)`,
/// `HaveEL(EL3)`). A test this generator does not model is kept as its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Condition {
    /// The feature is implemented (`FEAT_PMUv3`).
    Feature {
        name: String,
    },
    /// The exception level is implemented (1 to 3).
    HaveEl {
        level: u8,
    },
    /// AArch32 is implemented at some exception level.
    HaveAArch32,
    /// AArch64 is implemented at some exception level.
    HaveAArch64,
    Not {
        of: Box<Condition>,
    },
    All {
        of: Vec<Condition>,
    },
    Any {
        of: Vec<Condition>,
    },
    /// Anything else, in the data's own notation (a test of another register's field).
    Other {
        text: String,
    },
}

impl Condition {
    /// The features named anywhere in the condition.
    pub fn features(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |c| {
            if let Condition::Feature { name } = c {
                out.push(name.as_str());
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Condition)) {
        f(self);
        match self {
            Condition::Not { of } => of.walk(f),
            Condition::All { of } | Condition::Any { of } => of.iter().for_each(|c| c.walk(f)),
            _ => {}
        }
    }
}

impl std::fmt::Display for Condition {
    /// The condition in the Arm ARM's pseudocode notation.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let join = |f: &mut std::fmt::Formatter<'_>, of: &[Condition], op: &str| {
            for (i, c) in of.iter().enumerate() {
                if i > 0 {
                    write!(f, " {op} ")?;
                }
                match c {
                    Condition::All { .. } | Condition::Any { .. } => write!(f, "({c})")?,
                    _ => write!(f, "{c}")?,
                }
            }
            Ok(())
        };
        match self {
            Condition::Feature { name } => f.write_str(name),
            Condition::HaveEl { level } => write!(f, "HaveEL(EL{level})"),
            Condition::HaveAArch32 => f.write_str("HaveAArch32()"),
            Condition::HaveAArch64 => f.write_str("HaveAArch64()"),
            Condition::Not { of } => match of.as_ref() {
                Condition::All { .. } | Condition::Any { .. } => write!(f, "!({of})"),
                _ => write!(f, "!{of}"),
            },
            Condition::All { of } => join(f, of, "&&"),
            Condition::Any { of } => join(f, of, "||"),
            Condition::Other { text } => f.write_str(text),
        }
    }
}

/// What a conditional view of a system register is a view of, and when its layout applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The register whose encoding this one shares.
    pub of: NameRef,
    /// When this layout, not the other's, describes the register (prose: `HCR_EL2.E2H == 1`).
    pub when: String,
}

/// The operands of the instruction that reaches a system register: the runtime's own type, so
/// the generator and the generated code cannot disagree on it.
pub use armreg_rt::SysRegPath;

/// What the generator needs to know about an access path.
pub trait PathExt: Sized {
    /// Bits the instruction transfers.
    fn width(self) -> u32;
    /// The path of array element `n`, or `None` if the encoding leaves its fields' ranges.
    fn element(self, n: u32) -> Option<Self>;
}

impl PathExt for SysRegPath {
    fn width(self) -> u32 {
        match self {
            Self::A64 { .. } | Self::A32Wide { .. } => 64,
            Self::A32 { .. } => 32,
        }
    }

    /// For `A64`/`A32` the index steps the 7-bit CRm:op2 value, which gives the Arm ARM's
    /// `CRm = base + (n >> 3), op2 = n & 7` for arrays such as `PMEVCNTR<n>`; for `A32Wide` it
    /// steps CRm.
    fn element(self, n: u32) -> Option<Self> {
        let split = |crm: u8, op2: u8| -> Option<(u8, u8)> {
            let key = (u32::from(crm) << 3 | u32::from(op2)).checked_add(n)?;
            (key < 128).then_some(((key >> 3) as u8, (key & 7) as u8))
        };
        match self {
            Self::A64 {
                op0,
                op1,
                crn,
                crm,
                op2,
            } => split(crm, op2).map(|(crm, op2)| Self::A64 {
                op0,
                op1,
                crn,
                crm,
                op2,
            }),
            Self::A32 {
                coproc,
                opc1,
                crn,
                crm,
                opc2,
            } => split(crm, opc2).map(|(crm, opc2)| Self::A32 {
                coproc,
                opc1,
                crn,
                crm,
                opc2,
            }),
            Self::A32Wide { coproc, opc1, crm } => {
                let crm = u32::from(crm).checked_add(n)?;
                (crm < 16).then_some(Self::A32Wide {
                    coproc,
                    opc1,
                    crm: crm as u8,
                })
            }
        }
    }
}

/// A memory-mapped block of registers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub name: String,
    /// Size in bytes; every register lies inside.
    pub size: u64,
    /// Width in bits of one bus access; wider registers are accessed in parts.
    pub access_width: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
    pub registers: Vec<BlockRegister>,
    /// Groups of registers placed in this block, each a block of its own (SVD clusters).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<Cluster>,
    /// The block's software lock, where the description states one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<Lock>,
}

/// The most registers a flattened block holds: expanding cluster arrays multiplies them, and
/// `passes::arrays_in_range` refuses a block that flattens to more.
pub const FLAT_LIMIT: usize = 1 << 16;

/// A block placed inside another at an offset, once or as an array (an SVD cluster): its
/// registers are the other block's, reached through it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    /// The name; an array's name holds `<n>`.
    pub name: String,
    /// The block placed.
    pub block: NameRef,
    pub offset: u64,
    /// For an array: the number of elements and the bytes between them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<BlockArray>,
    /// Names of an array's elements (SVD `dimArrayIndex`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub index_names: Vec<IndexName>,
    /// Another cluster of the block this one describes the storage of another way (SVD
    /// `alternateCluster`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<NameRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    pub pos: Pos,
}

/// A register of a block: a layout bound to an offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockRegister {
    /// The name; an array's name holds `<n>`.
    pub name: String,
    pub layout: NameRef,
    pub offset: u64,
    pub access: RegAccess,
    /// For an array: the number of elements and the bytes between them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<BlockArray>,
    /// A register this one may overlap (the same storage under another name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<NameRef>,
    /// A side effect of reading the register.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_action: Option<ReadAction>,
    /// Names of an array's elements (SVD `dimArrayIndex`): `RED` is element 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub index_names: Vec<IndexName>,
    /// Which bus accesses the register answers (SVD `protection`), where the description says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection: Option<Protection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub pos: Pos,
}

/// The name of one element of an array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexName {
    pub name: String,
    pub index: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// The bus accesses a register answers (CMSIS-SVD `protection`, from the Armv8-M security and
/// privilege attributes of the access).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protection {
    /// Secure accesses only.
    Secure,
    /// Secure and non-secure accesses.
    NonSecure,
    /// Privileged accesses only.
    Privileged,
}

impl Protection {
    /// The sentence documentation gives.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Secure => "Answers secure accesses only.",
            Self::NonSecure => "Answers secure and non-secure accesses.",
            Self::Privileged => "Answers privileged accesses only.",
        }
    }
}

/// The shape of a register array in a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockArray {
    pub count: u32,
    pub stride: u64,
}

impl Device {
    /// A device with nothing in it yet.
    pub fn new(name: impl Into<String>, pos: Pos) -> Self {
        Device {
            name: name.into(),
            doc: None,
            source: None,
            license: None,
            notice: None,
            pos,
            layouts: Vec::new(),
            sysregs: Vec::new(),
            blocks: Vec::new(),
            instances: Vec::new(),
            events: Vec::new(),
            event_pmu: None,
            event_type: None,
            cores: Vec::new(),
            cpu: None,
            amendments: Vec::new(),
            differences: Vec::new(),
        }
    }

    /// The layout called `name`.
    pub fn layout(&self, name: &str) -> Option<&Layout> {
        // Layouts are in name order once `canonicalize` ran: a binary search, with a scan for
        // a device not (or no longer) in that order.
        match self.layouts.binary_search_by(|l| l.name.as_str().cmp(name)) {
            Ok(i) => Some(&self.layouts[i]),
            Err(_) => self.layouts.iter().find(|l| l.name == name),
        }
    }

    /// For each block (by index), the block whose cluster places it, if one does: a block no
    /// cluster places is reached from an instance (a top-level block).
    pub fn block_parents(&self) -> Vec<Option<usize>> {
        let index: std::collections::HashMap<&str, usize> = self
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.as_str(), i))
            .collect();
        let mut parents = vec![None; self.blocks.len()];
        for (p, block) in self.blocks.iter().enumerate() {
            for cluster in &block.clusters {
                if let Some(&child) = index.get(cluster.block.name.as_str()) {
                    if child != p {
                        parents[child].get_or_insert(p);
                    }
                }
            }
        }
        parents
    }

    /// For each block, the top-level block it is reached from (itself, for a top-level one).
    /// A cycle of clusters (refused by validation) ends at the block where it closes.
    pub fn block_tops(&self) -> Vec<usize> {
        let parents = self.block_parents();
        (0..self.blocks.len())
            .map(|b| {
                let mut at = b;
                for _ in 0..parents.len() {
                    match parents[at] {
                        Some(p) if p != b => at = p,
                        _ => break,
                    }
                }
                at
            })
            .collect()
    }

    /// The registers of block `b` and of every block its clusters place, as one list: names
    /// joined with `_` (`CH<n>_CR`), offsets from the block's base. A cluster array becomes
    /// register arrays when its block holds no array and no cluster of its own; otherwise it is
    /// expanded element by element (`CH0_SLOT<n>_SRC`). For what reads a block as a flat map (C
    /// headers, behavioural models, the register site); at most `limit` registers are made.
    pub fn flat_registers(&self, b: usize, limit: usize) -> Vec<BlockRegister> {
        let mut out = Vec::new();
        self.flatten_into(b, "", 0, None, &mut out, limit, 0);
        out
    }

    /// This device with every cluster flattened: each top-level block holds its
    /// [`flat_registers`](Self::flat_registers) and no cluster, and the blocks clusters place
    /// are gone. For what reads blocks as flat maps; borrowed when there is no cluster.
    pub fn flattened(&self) -> std::borrow::Cow<'_, Device> {
        if self.blocks.iter().all(|b| b.clusters.is_empty()) {
            return std::borrow::Cow::Borrowed(self);
        }
        let parents = self.block_parents();
        let blocks = (0..self.blocks.len())
            .filter(|&b| parents[b].is_none())
            .map(|b| Block {
                registers: self.flat_registers(b, FLAT_LIMIT),
                clusters: Vec::new(),
                ..self.blocks[b].clone()
            })
            .collect();
        std::borrow::Cow::Owned(Device {
            blocks,
            ..self.clone()
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn flatten_into(
        &self,
        b: usize,
        prefix: &str,
        offset: u64,
        array: Option<BlockArray>,
        out: &mut Vec<BlockRegister>,
        limit: usize,
        depth: usize,
    ) {
        let Some(block) = self.blocks.get(b) else {
            return;
        };
        let joined = |name: &str| {
            if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}_{name}")
            }
        };
        for reg in &block.registers {
            if out.len() >= limit {
                return;
            }
            out.push(BlockRegister {
                name: joined(&reg.name),
                offset: offset.saturating_add(reg.offset),
                array: reg.array.or(array),
                alias_of: reg.alias_of.as_ref().map(|a| NameRef {
                    name: joined(&a.name),
                    pos: a.pos.clone(),
                }),
                ..reg.clone()
            });
        }
        // Deeper than any XML the frontends read (a cycle, which validation refuses).
        if depth > 256 {
            return;
        }
        for cluster in &block.clusters {
            let Some(child) = self
                .blocks
                .iter()
                .position(|c| c.name == cluster.block.name)
            else {
                continue;
            };
            let inner = &self.blocks[child];
            let plain = inner.clusters.is_empty()
                && inner.registers.iter().all(|r| r.array.is_none())
                && array.is_none();
            let at = offset.saturating_add(cluster.offset);
            match cluster.array {
                Some(a) if plain => {
                    self.flatten_into(
                        child,
                        &joined(&cluster.name),
                        at,
                        Some(a),
                        out,
                        limit,
                        depth + 1,
                    );
                }
                Some(a) => {
                    for n in 0..a.count {
                        if out.len() >= limit {
                            return;
                        }
                        let name = joined(&cluster.name.replace("<n>", &n.to_string()));
                        let element = at.saturating_add(a.stride.saturating_mul(u64::from(n)));
                        self.flatten_into(child, &name, element, array, out, limit, depth + 1);
                    }
                }
                None => {
                    self.flatten_into(
                        child,
                        &joined(&cluster.name),
                        at,
                        array,
                        out,
                        limit,
                        depth + 1,
                    );
                }
            }
        }
    }

    /// Puts every list into its canonical order (stable, so duplicates keep their input order).
    pub fn canonicalize(&mut self) {
        self.layouts.sort_by(|a, b| a.name.cmp(&b.name));
        for layout in &mut self.layouts {
            layout
                .fields
                .sort_by(|a, b| (a.lsb, &a.name).cmp(&(b.lsb, &b.name)));
        }
        self.sysregs.sort_by(|a, b| a.name.cmp(&b.name));
        self.blocks.sort_by(|a, b| a.name.cmp(&b.name));
        self.instances
            .sort_by(|a, b| (a.base, &a.name).cmp(&(b.base, &b.name)));
        self.events
            .sort_by(|a, b| (a.code, &a.name).cmp(&(b.code, &b.name)));
        self.cores.sort_by(|a, b| {
            (a.implementer, a.part_number, &a.name).cmp(&(b.implementer, b.part_number, &b.name))
        });
        for block in &mut self.blocks {
            block
                .registers
                .sort_by(|a, b| (a.offset, &a.name).cmp(&(b.offset, &b.name)));
            block
                .clusters
                .sort_by(|a, b| (a.offset, &a.name).cmp(&(b.offset, &b.name)));
        }
        self.amendments
            .sort_by(|a, b| (&a.block.name, &a.pos).cmp(&(&b.block.name, &b.pos)));
    }
}
