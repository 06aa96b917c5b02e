//! The C backend: headers for C and assembly-adjacent code, one per system-register group
//! (`aarch64.h`, `aarch32.h`) and one per memory-mapped block, with the layouts they share in
//! `layouts.h`. They hold offsets, field shifts, widths and masks, enumerated values, reserved
//! masks and resets, and `static inline` accessors: `mrs`/`msr`, `mrc`/`mcr`/`mrrc`/`mcrr` under
//! the architecture's predefined macro, volatile loads and stores for blocks.
//!
//! The headers are written into the generated crate directory (`include/<crate>/`), so they are
//! committed, reviewed and checked for drift exactly like the Rust code made from the same
//! description. Every number and statement comes from `model`; `text` arranges them.
mod model;
mod names;
mod text;

use crate::backend::{File, Input};
use crate::ir::{Device, SysRegPath};
use model::CAccessor;

pub use model::c_type;

/// The header files names the backend uses itself; a block with one of these names gets `_block`.
const OWN_FILES: &[&str] = &["layouts", "aarch64", "aarch32"];

/// The directory of the crate's headers, relative to the crate: `include/<crate_snake>/`, so C
/// code says `#include <arm_pmuv3/aarch64.h>` with `-I generated/arm-pmuv3/include`.
pub fn include_dir(crate_name: &str) -> String {
    format!("include/{}", names::lower(crate_name))
}

/// The C backend's entry in `backend::BACKENDS`: the headers, when the crate asks for them.
pub fn emit(input: &Input<'_>) -> Result<Vec<File>, String> {
    if !input.outputs.c_headers {
        return Ok(Vec::new());
    }
    let files = generate(input.device, input.inputs);
    match clashing_macro(&files) {
        None => Ok(files),
        Some((name, first, second)) => Err(format!(
            "two C macros are named `{name}` ({first} and {second}): a layout's name followed by \
             `_WIDTH` (or a field's macros) spells another's; rename one of them in the description"
        )),
    }
}

/// The first macro two `#define`s of the headers give: C names join a layout's and a field's
/// with `_` (`TTBCR` + `EAE_WIDTH`, `TTBCR_EAE` + `WIDTH`), which Rust's paths keep apart. A
/// compiler would only warn about the redefinition, and take the later value.
fn clashing_macro(files: &[File]) -> Option<(String, String, String)> {
    let mut seen: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    for file in files {
        for (n, line) in file.content.lines().enumerate() {
            let Some(name) = line
                .strip_prefix("#define ")
                .and_then(|rest| rest.split([' ', '(']).next())
            else {
                continue;
            };
            let here = format!("{}:{}", file.path, n + 1);
            if let Some(first) = seen.insert(name, here.clone()) {
                return Some((name.to_string(), first, here));
            }
        }
    }
    None
}

/// The headers of `device` (none for a device without layouts, such as an event set).
pub fn generate(device: &Device, inputs: &[String]) -> Vec<File> {
    if device.layouts.is_empty() {
        return Vec::new();
    }
    // A C header describes each peripheral as one flat map: clusters are flattened into it.
    let flat = device.flattened();
    let device = &*flat;
    let prefix = names::prefix(&device.name);
    let dir = include_dir(&device.name);
    let banner = super::banner(inputs);
    let file = |name: &str, content: String| File {
        path: format!("{dir}/{name}"),
        content,
    };
    let guard = |file: &str| format!("{prefix}_{}_H", names::upper(file));

    let layouts: Vec<_> = device
        .layouts
        .iter()
        .map(|l| model::layout(&prefix, l))
        .collect();
    let mut files = vec![file(
        "layouts.h",
        text::layouts_h(&banner, &device.name, &guard("layouts"), &layouts),
    )];

    for (name, what, arch, a64) in [
        (
            "aarch64",
            "AArch64 system registers (MRS/MSR)",
            "defined(__aarch64__)",
            true,
        ),
        (
            "aarch32",
            "AArch32 system registers (MRC/MCR, MRRC/MCRR)",
            "defined(__arm__)",
            false,
        ),
    ] {
        let registers: Vec<CAccessor> = device
            .sysregs
            .iter()
            .filter(|r| matches!(r.path, SysRegPath::A64 { .. }) == a64)
            .filter_map(|r| {
                device
                    .layout(&r.layout.name)
                    .map(|l| model::sysreg(&prefix, r, l))
            })
            .collect();
        if registers.is_empty() {
            continue;
        }
        files.push(file(
            &format!("{name}.h"),
            text::sysregs_h(&banner, &device.name, &guard(name), what, arch, &registers),
        ));
    }

    for block in &device.blocks {
        let mut name = names::lower(&block.name);
        if OWN_FILES.contains(&name.as_str()) {
            name.push_str("_block");
        }
        let model = model::block(&prefix, device, block);
        files.push(file(
            &format!("{name}.h"),
            text::block_h(&banner, &guard(&name), &model),
        ));
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, BlockRegister, Field, FieldAccess, Layout, NameRef, Pos, RegAccess};

    fn device() -> Device {
        let field = Field {
            name: "EN".to_string(),
            lsb: 3,
            width: 1,
            access: FieldAccess::Rw,
            reset: None,
            doc: Some("ends */ a comment".to_string()),
            source: None,
            pos: Pos::default(),
            enums: Vec::new(),
            enum_default: None,
            enum_name: None,
            read_action: None,
            write_constraint: None,
            condition: None,
        };
        let layout = Layout {
            name: "CTRL".to_string(),
            width: 64,
            doc: None,
            source: None,
            reset: None,
            reset_mask: None,
            pos: Pos::default(),
            fields: vec![field],
            field_arrays: Vec::new(),
            derive: None,
        };
        let reg = BlockRegister {
            protection: None,
            index_names: Vec::new(),
            name: "CTRL".to_string(),
            layout: NameRef {
                name: "CTRL".to_string(),
                pos: Pos::default(),
            },
            offset: 0x10,
            access: RegAccess::Rw,
            array: None,
            alias_of: None,
            read_action: None,
            doc: None,
            source: None,
            pos: Pos::default(),
        };
        Device {
            name: "my-dev".to_string(),
            doc: None,
            source: None,
            license: None,
            notice: None,
            pos: Pos::default(),
            layouts: vec![layout],
            sysregs: Vec::new(),
            blocks: vec![Block {
                name: "LAYOUTS".to_string(),
                size: 0x100,
                access_width: 32,
                doc: None,
                source: None,
                pos: Pos::default(),
                registers: vec![reg],
                clusters: Vec::new(),
                lock: None,
            }],
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

    #[test]
    fn headers_per_group_with_prefixed_names() {
        let files = generate(&device(), &["d.toml".to_string()]);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        // A block named like the layouts header gets a file of its own name.
        assert_eq!(
            paths,
            ["include/my_dev/layouts.h", "include/my_dev/layouts_block.h"]
        );
        let layouts = &files[0].content;
        assert!(layouts.contains("#define MY_DEV_CTRL_EN_MASK UINT64_C(0x8)"));
        assert!(layouts.contains("#define MY_DEV_CTRL_EN_SHIFT 3u"));
        assert!(layouts.contains("ends * / a comment"));
        let block = &files[1].content;
        assert!(block.contains("#define MY_DEV_LAYOUTS_CTRL_OFFSET 0x10u"));
        // A 64-bit register on a 32-bit bus: two accesses, low word first.
        assert!(block.contains(
            "uint32_t hi = *(const volatile uint32_t *)(base + MY_DEV_LAYOUTS_CTRL_OFFSET + 4u);"
        ));
    }

    #[test]
    fn headers_are_tidy() {
        // `text` writes every line whole: nothing trails a line, no blank line follows another,
        // and none starts a file (an empty description still gives an empty comment, not a gap).
        let mut d = device();
        d.layouts[0].fields[0].doc = None;
        for f in generate(&d, &["d.toml".to_string()]) {
            let text = &f.content;
            assert!(
                !text.starts_with('\n') && text.ends_with("*/\n"),
                "{}",
                f.path
            );
            assert!(!text.contains("\n\n\n"), "{}", f.path);
            for line in text.lines() {
                assert_eq!(line, line.trim_end(), "{}", f.path);
            }
        }
    }

    #[test]
    fn no_headers_without_layouts() {
        let mut d = device();
        d.layouts.clear();
        d.blocks.clear();
        assert!(generate(&d, &[]).is_empty());
    }

    #[test]
    fn macros_that_two_names_spell_alike_are_refused() {
        let mut device = device();
        // `CTRL_EN` + `_WIDTH` (the layout's) is `CTRL` + `EN_WIDTH` (its field's).
        let mut other = device.layouts[0].clone();
        other.name = "CTRL_EN".to_string();
        other.fields.clear();
        device.layouts.push(other);
        let files = generate(&device, &[]);
        let (name, first, second) = clashing_macro(&files).expect("the clash is found");
        assert_eq!(
            name,
            "BAD_CTRL_EN_WIDTH".replace("BAD", &names::prefix(&device.name))
        );
        assert_ne!(first, second);
        assert_eq!(
            clashing_macro(&generate(&super::tests::device(), &[])),
            None
        );
    }
}
