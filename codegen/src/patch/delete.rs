//! `[[delete]]`: removes every selected element. A block takes its instances with it (and the
//! blocks its clusters place); a cluster takes the block it places when nothing else places it.
//! Claims the removal of each element (and of such a block).
use super::conflict::{Claim, What};
use super::elem::Elem;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, NoKeys, Table};
use super::run::Run;
use super::select::{needs_selector, Level, Selected, Selector};
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Pos};

pub const SPEC: Spec = Spec::new("delete", &[], check::<NoKeys>, read);

#[derive(Debug)]
struct Delete;

fn read(r: &mut Reader, _: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    if select.level() == Level::Device {
        needs_selector(r, "delete", pos);
        return None;
    }
    Some(Box::new(Delete))
}

impl Operation for Delete {
    fn claims(&self, device: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        let mut out = Vec::new();
        for (elem, _) in &sel.targets {
            out.push(Claim {
                elem: *elem,
                what: What::Delete,
                pos: op.pos.clone(),
            });
            for b in going_with(device, sel, *elem) {
                out.push(Claim {
                    elem: Elem::Block(b),
                    what: What::Delete,
                    pos: op.pos.clone(),
                });
            }
        }
        out
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        for (elem, _) in &sel.targets {
            let at = run.path(*elem);
            run.dead.insert(*elem);
            if let Elem::Block(b) = *elem {
                instances_go(run, b);
            }
            run.note(format!("{at} deleted"));
            if let Some(b) = placed_only_by(run.device, sel, *elem) {
                if run.dead.insert(Elem::Block(b)) {
                    let block = run.device.blocks[b].name.clone();
                    run.note(format!("block {block}, placed by nothing else, deleted"));
                }
            }
        }
    }
}

/// The instances of block `b` go with it.
fn instances_go(run: &mut Run, b: usize) {
    let block = run.device.blocks[b].name.clone();
    for i in 0..run.device.instances.len() {
        if run.device.instances[i].block.name == block {
            run.dead.insert(Elem::Instance(i));
            let inst = run.device.instances[i].name.clone();
            run.note(format!("instance {inst} (of block {block}) deleted"));
        }
    }
}

/// The blocks that go with `elem`: for a block, those its clusters place; for a cluster, the
/// block it places when nothing else does, and those its clusters place; at any depth.
fn going_with(device: &Device, sel: &Selected, elem: Elem) -> Vec<usize> {
    let mut going: Vec<usize> = match elem {
        Elem::Block(b) => vec![b],
        _ => placed_only_by(device, sel, elem).into_iter().collect(),
    };
    let mut at = 0;
    while at < going.len() {
        for cluster in &device.blocks[going[at]].clusters {
            let placed = device
                .blocks
                .iter()
                .position(|x| x.name == cluster.block.name);
            if let Some(p) = placed.filter(|p| !going.contains(p)) {
                going.push(p);
            }
        }
        at += 1;
    }
    going.retain(|b| elem != Elem::Block(*b));
    going
}

/// For a cluster `elem`, the block it places when the clusters `sel` deletes are all that place
/// it (no other cluster, no instance).
fn placed_only_by(device: &Device, sel: &Selected, elem: Elem) -> Option<usize> {
    let Elem::Cluster(b, c) = elem else {
        return None;
    };
    let name = &device.blocks[b].clusters[c].block.name;
    let placed = device.blocks.iter().position(|x| x.name == *name)?;
    let deleted = |p: usize, q: usize| sel.targets.iter().any(|(e, _)| *e == Elem::Cluster(p, q));
    let elsewhere = device.blocks.iter().enumerate().any(|(p, parent)| {
        parent
            .clusters
            .iter()
            .enumerate()
            .any(|(q, other)| other.block.name == *name && !deleted(p, q))
    });
    let instances = device.instances.iter().any(|i| i.block.name == *name);
    (!elsewhere && !instances).then_some(placed)
}
