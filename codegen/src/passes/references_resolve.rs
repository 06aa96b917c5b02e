//! Every `layout` a register names is defined, every `alias_of` names a register (or cluster) of
//! the same block, every instance is of a block that exists, and every cluster places an existing
//! block that nothing else places.
use super::contract::Property;
use crate::diagnostic::{backticked, Diagnostic};
use crate::ir::{Device, NameRef};
use crate::rules::REFERENCES_RESOLVE;

/// A name designates one layout or register only when names are unique.
pub const ASSUMES: &[Property] = &[Property::NamesUnique];
pub const ESTABLISHES: &[Property] = &[Property::ReferencesResolve];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let layout_refs = device.sysregs.iter().map(|r| &r.layout).chain(
        device
            .blocks
            .iter()
            .flat_map(|b| b.registers.iter().map(|r| &r.layout)),
    );
    for r in layout_refs {
        if device.layout(&r.name).is_none() {
            out.push(unknown("layout", r).suggesting(
                &r.name,
                device.layouts.iter().map(|l| l.name.as_str()),
                backticked,
            ));
        }
    }
    for block in &device.blocks {
        for reg in &block.registers {
            if let Some(alias) = &reg.alias_of {
                if !block
                    .registers
                    .iter()
                    .any(|r| r.name == alias.name && r.name != reg.name)
                {
                    out.push(
                        unknown(&format!("register of block `{}`", block.name), alias).suggesting(
                            &alias.name,
                            block
                                .registers
                                .iter()
                                .filter(|r| r.name != reg.name)
                                .map(|r| r.name.as_str()),
                            backticked,
                        ),
                    );
                }
            }
        }
    }
    for instance in &device.instances {
        if !device.blocks.iter().any(|b| b.name == instance.block.name) {
            out.push(unknown("block", &instance.block).suggesting(
                &instance.block.name,
                device.blocks.iter().map(|b| b.name.as_str()),
                backticked,
            ));
        }
    }
    out.extend(clusters_resolve(device));
    out
}

/// Every cluster places a block that exists, and a block is placed by one parent block only,
/// never by itself or a block it places, and is no instance's: each block's registers are
/// reached one way, which is what gives them one feature and one address.
fn clusters_resolve(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut placed_by: std::collections::BTreeMap<&str, &str> = std::collections::BTreeMap::new();
    for block in &device.blocks {
        for cluster in &block.clusters {
            let target = cluster.block.name.as_str();
            if !device.blocks.iter().any(|b| b.name == target) {
                out.push(unknown("block", &cluster.block).suggesting(
                    target,
                    device.blocks.iter().map(|b| b.name.as_str()),
                    backticked,
                ));
                continue;
            }
            match placed_by.insert(target, &block.name) {
                Some(other) if other != block.name => out.push(Diagnostic::error(
                    REFERENCES_RESOLVE,
                    &cluster.block.pos,
                    format!("block `{target}` is placed by clusters of both `{other}` and `{}`; a block is placed by one block", block.name),
                )),
                _ => {}
            }
            if device.instances.iter().any(|i| i.block.name == target) {
                out.push(Diagnostic::error(
                    REFERENCES_RESOLVE,
                    &cluster.block.pos,
                    format!("block `{target}` is placed by cluster `{}` and by an instance; a block is reached one way", cluster.name),
                ));
            }
            if let Some(alias) = &cluster.alias_of {
                if !block
                    .clusters
                    .iter()
                    .any(|c| c.name == alias.name && c.name != cluster.name)
                {
                    out.push(
                        unknown(&format!("cluster of block `{}`", block.name), alias).suggesting(
                            &alias.name,
                            block
                                .clusters
                                .iter()
                                .filter(|c| c.name != cluster.name)
                                .map(|c| c.name.as_str()),
                            backticked,
                        ),
                    );
                }
            }
        }
    }
    // A block among its own ancestors: follow the parents from each block.
    for (b, block) in device.blocks.iter().enumerate() {
        let mut at = block.name.as_str();
        for _ in 0..device.blocks.len() {
            match placed_by.get(at) {
                Some(&parent) if parent == block.name => {
                    out.push(Diagnostic::error(
                        REFERENCES_RESOLVE,
                        &device.blocks[b].pos,
                        format!("block `{}` places itself through its clusters", block.name),
                    ));
                    break;
                }
                Some(&parent) => at = parent,
                None => break,
            }
        }
    }
    out
}

fn unknown(kind: &str, r: &NameRef) -> Diagnostic {
    Diagnostic::error(
        REFERENCES_RESOLVE,
        &r.pos,
        format!("no {kind} is named `{}`", r.name),
    )
}
