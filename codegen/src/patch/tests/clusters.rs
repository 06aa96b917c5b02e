//! `[[cluster]]`, the `cluster` level of selectors, and clusters as targets.
use super::{block, device, errors, patched, register, svd};
use crate::frontend::Format;
use crate::patch::parse;
use crate::rules::{PATCHES_DO_NOT_CONFLICT, PATCH_OPERATIONS_APPLY, PATCH_SELECTORS_MATCH};

#[test]
fn cluster_folds_groups_of_registers_into_a_block() {
    let mut d = svd();
    let log = patched(
        &mut d,
        r#"
[[cluster]]
block = "UDMA"
register = "CH<n>_*"
name = "CH<n>"
members = ["SRC", "DST", "CTRL*"]

[[cluster]]
block = "UDMA"
register = "CFG_*"
name = "CFG"
block_name = "UDMA_CONFIG"
"#,
    );
    let udma = block(&d, "UDMA");
    assert!(udma.registers.is_empty(), "{:?}", udma.registers);
    let ch = &udma.clusters[0];
    assert_eq!(
        (ch.name.as_str(), ch.block.name.as_str(), ch.offset),
        ("CH<n>", "UDMA_CH", 0)
    );
    assert_eq!(
        ch.array,
        Some(crate::ir::BlockArray {
            count: 3,
            stride: 0x10
        })
    );
    let cfg = &udma.clusters[1];
    assert_eq!(
        (cfg.name.as_str(), cfg.offset, cfg.array),
        ("CFG", 0x40, None)
    );
    let channel = block(&d, "UDMA_CH");
    let members: Vec<(&str, u64)> = channel
        .registers
        .iter()
        .map(|r| (r.name.as_str(), r.offset))
        .collect();
    assert_eq!(
        members,
        [("SRC", 0), ("DST", 4), ("CTRL", 8), ("CTRL_TRIG", 8)]
    );
    assert_eq!(channel.size, 0xc);
    // The alias follows its target's new name; layouts are named after the members.
    let trig = register(&d, "UDMA_CH", "CTRL_TRIG");
    assert_eq!(
        trig.alias_of.as_ref().map(|a| a.name.as_str()),
        Some("CTRL")
    );
    assert_eq!(trig.layout.name, "UDMA_CH_CTRL_TRIG");
    assert!(d.layout("UDMA_CH1_CTRL").is_none() && d.layout("UDMA_CH0_CTRL").is_none());
    let config = block(&d, "UDMA_CONFIG");
    assert_eq!((config.registers.len(), config.size), (2, 8));
    // The device is one the passes accept: every block placed once, nothing overlapping.
    let parents = d.block_parents();
    let placed = |name: &str| parents[d.blocks.iter().position(|b| b.name == name).unwrap()];
    assert!(placed("UDMA_CH").is_some() && placed("UDMA_CONFIG").is_some());
    assert!(
        log.iter().any(|l| l.contains(
            "UDMA: 3 groups (CH0_SRC .. CH2_SRC) of `CH<n>_*` → cluster UDMA.CH<n> of block UDMA_CH (4 members: SRC, DST, CTRL, CTRL_TRIG), count 3, stride 0x10"
        )),
        "{log:?}"
    );
}

#[test]
fn cluster_needs_alike_evenly_spaced_groups() {
    let apply_error = |patch: &str| {
        let mut d = svd();
        let e = errors(&mut d, patch);
        assert_eq!(e.len(), 1, "{e:?}");
        e.into_iter().next().unwrap()
    };
    let cluster = "[[cluster]]\nblock = \"UDMA\"\nregister = \"CH<n>_*\"\nname = \"CH<n>\"\n";
    // A member's layout differs in group 2.
    let e = apply_error(&format!(
        "[[modify]]\nblock = \"UDMA\"\nregister = \"CH2_CTRL\"\nfield = \"SIZE\"\nset = {{ access = \"ro\" }}\n\n{cluster}"
    ));
    assert_eq!(e.rule, PATCH_OPERATIONS_APPLY);
    assert!(
        e.message
            .contains("CH2_CTRL differs from CH0_CTRL: field `SIZE` differs in its access"),
        "{}",
        e.message
    );
    // A member missing from group 1.
    let e = apply_error(&format!(
        "[[delete]]\nblock = \"UDMA\"\nregister = \"CH1_DST\"\n\n{cluster}"
    ));
    assert_eq!(e.rule, PATCHES_DO_NOT_CONFLICT, "{}", e.message);
    // A member elsewhere in its group.
    let e = apply_error(&format!(
        "[[modify]]\nblock = \"UDMA\"\nregister = \"CH1_DST\"\nset = {{ offset = 0x1c }}\n\n{cluster}"
    ));
    assert!(
        e.message
            .contains("CH1_DST is at 0xc in its group, CH0_DST at 0x4 in group 0"),
        "{}",
        e.message
    );
    // An alias whose target stays behind.
    let e = apply_error(
        "[[cluster]]\nblock = \"UDMA\"\nregister = \"CH<n>_*\"\nname = \"CH<n>\"\nmembers = [\"SRC\", \"DST\", \"CTRL_TRIG\"]\n",
    );
    assert!(
        e.message
            .contains("CH0_CTRL_TRIG (member `CTRL_TRIG`) is an alias of CH0_CTRL, which is not in the cluster"),
        "{}",
        e.message
    );
    // A register of the parent inside a group's span.
    let e = apply_error(
        "[[cluster]]\nblock = \"UDMA\"\nregister = \"CH<n>_*\"\nname = \"CH<n>\"\nmembers = [\"SRC\", \"CTRL\", \"CTRL_TRIG\"]\n",
    );
    assert!(
        e.message.contains(
            "CH0_DST (offset 0x4) lies inside the cluster's span but is not one of its members"
        ),
        "{}",
        e.message
    );
    // One register in two clusters.
    let e = apply_error(&format!(
        "{cluster}\n[[cluster]]\nblock = \"UDMA\"\nregister = \"CH0_*\"\nname = \"FIRST\"\n"
    ));
    assert_eq!(e.rule, PATCHES_DO_NOT_CONFLICT);
    assert!(
        e.message.contains("is made part of two clusters"),
        "{}",
        e.message
    );
    // The new block's name is taken.
    let e = apply_error(&format!("{cluster}block_name = \"TIMER0\"\n"));
    assert_eq!(e.rule, PATCHES_DO_NOT_CONFLICT);
    assert_eq!((e.pos.line, e.pos.col), (5, 14));
    // Syntax: the cluster's name and its selector agree on `<n>`.
    let e = parse(
        "p.toml",
        "[[cluster]]\nblock = \"UDMA\"\nregister = \"CH<n>_*\"\nname = \"CH\"\n",
    )
    .unwrap_err();
    assert!(
        e[0].message.contains("holds `<n>` once"),
        "{}",
        e[0].message
    );
    let e = parse(
        "p.toml",
        "[[cluster]]\nblock = \"UDMA\"\nregister = \"CH0_*\"\nname = \"CH<n>\"\n",
    )
    .unwrap_err();
    assert!(e[0].message.contains("not an array"), "{}", e[0].message);
}

#[test]
fn the_cluster_level_reaches_the_registers_of_a_clusters_block() {
    let text = include_str!("../../../tests/svd/nested_clusters.svd");
    let mut d = device(Format::Svd, "nested_clusters.svd", text);
    patched(
        &mut d,
        r#"
[[modify]]
block = "P"
cluster = "CH<n>"
register = "CR"
set = { doc = "Channel control" }

[[rename]]
block = "Channel"
cluster = "SLOT*"
register = "DST"
to = "DEST"
"#,
    );
    assert_eq!(
        register(&d, "Channel", "CR").doc.as_deref(),
        Some("Channel control")
    );
    register(&d, "Channel_SLOT", "DEST");
    // A cluster the block does not have is an error at its glob, as any level's.
    let e = errors(
        &mut d,
        "[[delete]]\nblock = \"P\"\ncluster = \"DMA*\"\nregister = \"CR\"\n",
    );
    assert_eq!(e[0].rule.name, PATCH_SELECTORS_MATCH.name);
    assert!(
        e[0].message.contains("matches no cluster of block `P`"),
        "{}",
        e[0].message
    );
}

fn nested() -> crate::ir::Device {
    device(
        Format::Svd,
        "nested_clusters.svd",
        include_str!("../../../tests/svd/nested_clusters.svd"),
    )
}

/// The passes find nothing wrong with `d`.
fn valid(d: &mut crate::ir::Device) {
    let found = crate::passes::run(d, crate::passes::Mode::Strict);
    assert!(found.iter().all(|x| !x.is_error()), "{found:?}");
}

#[test]
fn a_cluster_is_renamed_named_and_deleted() {
    let mut d = nested();
    let log = patched(
        &mut d,
        r#"
[[rename]]
block = "P"
cluster = "CH<n>"
to = "CHANNEL<n>"

[[modify]]
block = "Channel"
cluster = "SLOT*"
set = { index_names = ["A", "B", "C", "D"], doc = "Slots" }
"#,
    );
    let ch = &block(&d, "P").clusters[0];
    assert_eq!(
        (ch.name.as_str(), ch.block.name.as_str()),
        ("CHANNEL<n>", "Channel")
    );
    let slot = &block(&d, "Channel").clusters[0];
    let names: Vec<(&str, u32)> = slot
        .index_names
        .iter()
        .map(|n| (n.name.as_str(), n.index))
        .collect();
    assert_eq!(names, [("A", 0), ("B", 1), ("C", 2), ("D", 3)]);
    assert_eq!(slot.doc.as_deref(), Some("Slots"));
    assert!(
        log.iter()
            .any(|l| l.ends_with("cluster P.CH<n> → CHANNEL<n>")),
        "{log:?}"
    );
    valid(&mut d);
    // Deleted, the cluster takes the blocks it places, at any depth, and their layouts.
    let log = patched(
        &mut d,
        "[[delete]]\nblock = \"P\"\ncluster = \"CHANNEL<n>\"\n",
    );
    assert!(block(&d, "P").clusters.is_empty());
    assert_eq!(d.blocks.len(), 1, "{:?}", d.blocks);
    assert!(d.layouts.is_empty(), "{:?}", d.layouts);
    assert!(
        log.iter()
            .any(|l| l.ends_with("block Channel, placed by nothing else, deleted")),
        "{log:?}"
    );
}

#[test]
fn cluster_targets_are_checked() {
    let first_error = |patch: &str| {
        let e = errors(&mut nested(), patch);
        assert_eq!(e.len(), 1, "{e:?}");
        e.into_iter().next().unwrap()
    };
    // An array's name holds `<n>`.
    let e = first_error("[[rename]]\nblock = \"P\"\ncluster = \"CH<n>\"\nto = \"CHANNEL\"\n");
    assert_eq!(e.rule, PATCH_OPERATIONS_APPLY);
    assert!(
        e.message.contains("is an array: its name holds `<n>` once"),
        "{}",
        e.message
    );
    // One name per element, of an array only.
    let e = first_error(
        "[[modify]]\nblock = \"Channel\"\ncluster = \"SLOT<n>\"\nset = { index_names = [\"A\"] }\n",
    );
    assert!(
        e.message
            .contains("has 4 elements and `index_names` names 1"),
        "{}",
        e.message
    );
    let e = first_error(
        "[[modify]]\nblock = \"Channel\"\nregister = \"CR\"\nset = { index_names = [\"A\"] }\n",
    );
    assert!(
        e.message.contains("`Channel.CR` is no array"),
        "{}",
        e.message
    );
    // Names that are names, once each.
    for (names, says) in [
        ("[\"1A\"]", "is no name for an element"),
        ("[\"A\", \"A\"]", "names two elements"),
        ("[]", "names no element"),
    ] {
        let text = format!("[[modify]]\nblock = \"Channel\"\ncluster = \"SLOT<n>\"\nset = {{ index_names = {names} }}\n");
        let e = parse("p.toml", &text).unwrap_err();
        assert!(e[0].message.contains(says), "{}", e[0].message);
    }
    // A cluster is a block's: `cluster` needs `block`.
    let e = parse("p.toml", "[[delete]]\ncluster = \"CH<n>\"\n").unwrap_err();
    assert!(
        e[0].message.contains("`cluster` needs `block`"),
        "{}",
        e[0].message
    );
    // A block's registers and clusters are one namespace.
    let e = first_error("[[rename]]\nblock = \"Channel\"\nregister = \"CR\"\nto = \"SLOT<n>\"\n");
    assert_eq!(e.rule, PATCHES_DO_NOT_CONFLICT);
    // What a deleted cluster places goes with it: nothing may change it.
    let e = first_error("[[delete]]\nblock = \"P\"\ncluster = \"CH<n>\"\n\n[[modify]]\nblock = \"Channel_SLOT\"\nregister = \"SRC\"\nset = { doc = \"x\" }\n");
    assert!(
        e.message
            .contains("`Channel_SLOT` is deleted by one operation"),
        "{}",
        e.message
    );
}

#[test]
fn a_block_with_clusters_is_copied_with_the_blocks_they_place() {
    let mut d = nested();
    let log = patched(
        &mut d,
        "[[copy]]\nblock = \"P\"\nto = \"Q\"\nbase = 0x50000000\n",
    );
    // Each copy places the copy of what the original places; the registers share layouts.
    let q = block(&d, "Q");
    assert_eq!(q.clusters[0].block.name, "Q_Channel");
    assert_eq!(
        block(&d, "Q_Channel").clusters[0].block.name,
        "Q_Channel_SLOT"
    );
    assert_eq!(
        block(&d, "Q_Channel_SLOT").registers,
        block(&d, "Channel_SLOT").registers
    );
    let parents = d.block_parents();
    let parent = |name: &str| {
        parents[d.blocks.iter().position(|b| b.name == name).unwrap()]
            .map(|p| d.blocks[p].name.as_str())
    };
    assert_eq!(
        (parent("Q_Channel"), parent("Channel")),
        (Some("Q"), Some("P"))
    );
    assert!(d
        .instances
        .iter()
        .any(|i| i.name == "Q" && i.base == 0x5000_0000));
    assert!(
        log.iter().any(|l| l.ends_with(
            "block Channel_SLOT copied as Q_Channel_SLOT, placed by the copy's clusters"
        )),
        "{log:?}"
    );
    valid(&mut d);
    // A copy's name that is taken is an error naming both.
    let mut d = nested();
    patched(
        &mut d,
        "[[add]]\nnew_block = { name = \"Q_Channel\", size = 4 }\n",
    );
    let e = errors(&mut d, "[[copy]]\nblock = \"P\"\nto = \"Q\"\n");
    assert_eq!(e[0].rule, PATCHES_DO_NOT_CONFLICT, "{e:?}");
    assert!(
        e[0].message
            .contains("would be `Q_Channel`, the name of a block there is"),
        "{}",
        e[0].message
    );
}
