//! The device while a file's operations apply to it: what they change, the explanation they
//! give (`--explain-patches`), their errors, and the elements marked for removal, which go at the
//! end (until then every index stays valid).
use std::collections::{HashMap, HashSet};

use super::elem::{path, Elem, Layouts, Reg};
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Instance, NameRef, Pos};

pub struct Run<'a> {
    pub device: &'a mut Device,
    pub layouts: Layouts,
    /// The explanation, a line per change.
    pub log: Vec<String>,
    pub errors: Vec<Diagnostic>,
    /// Elements to remove at the end (their indices stay valid until then).
    pub dead: HashSet<Elem>,
    /// The operation applying, as its lines of the explanation begin: `file:line:col: [[kind]]`.
    pub label: String,
    /// The layouts registers used before the patch: those it leaves unused are removed.
    used_before: HashSet<String>,
}

impl<'a> Run<'a> {
    pub fn new(device: &'a mut Device, layouts: Layouts) -> Run<'a> {
        let mut run = Run {
            device,
            layouts,
            log: Vec::new(),
            errors: Vec::new(),
            dead: HashSet::new(),
            label: String::new(),
            used_before: HashSet::new(),
        };
        run.used_before = run.used_layouts();
        run
    }

    /// A line of the explanation, for the operation applying.
    pub fn note(&mut self, what: String) {
        self.log.push(format!("{} {what}", self.label));
    }

    pub fn path(&self, e: Elem) -> String {
        path(self.device, &self.layouts, e)
    }

    pub fn layout_of(&self, reg: Reg) -> Option<usize> {
        self.layouts.of_reg(self.device, reg)
    }

    fn used_layouts(&self) -> HashSet<String> {
        let mut used: HashSet<String> = self
            .device
            .blocks
            .iter()
            .flat_map(|b| &b.registers)
            .map(|r| r.layout.name.clone())
            .collect();
        used.extend(self.device.sysregs.iter().map(|s| s.layout.name.clone()));
        used
    }

    /// Removes the fields and values deleted, for the operations that read layouts whole
    /// (arrays compare them) and at the end; where the others went.
    pub fn sweep_layouts(&mut self) -> Moved {
        let mut dead_values: HashSet<(usize, usize, usize)> = HashSet::new();
        let mut dead_fields: HashSet<(usize, usize)> = HashSet::new();
        for e in &self.dead {
            match *e {
                Elem::Value(r, f, v) => {
                    if let Some(l) = self.layout_of(r) {
                        dead_values.insert((l, f, v));
                    }
                }
                Elem::Field(r, f) => {
                    if let Some(l) = self.layout_of(r) {
                        dead_fields.insert((l, f));
                    }
                }
                _ => {}
            }
        }
        let mut moved = Moved::default();
        if dead_values.is_empty() && dead_fields.is_empty() {
            return moved;
        }
        self.dead
            .retain(|e| !matches!(e, Elem::Value(..) | Elem::Field(..)));
        for (l, layout) in self.device.layouts.iter_mut().enumerate() {
            for (f, field) in layout.fields.iter_mut().enumerate() {
                let gone = |v| dead_values.contains(&(l, f, v));
                moved
                    .values
                    .extend(renumbered(field.enums.len(), gone).map(|(v, to)| ((l, f, v), to)));
                retain_indexed(&mut field.enums, |v| !gone(v));
            }
            let gone = |f| dead_fields.contains(&(l, f));
            moved
                .fields
                .extend(renumbered(layout.fields.len(), gone).map(|(f, to)| ((l, f), to)));
            retain_indexed(&mut layout.fields, |f| !gone(f));
        }
        moved
    }

    /// Where `elem` is once the fields and values `moved` says were removed (`None`: it is
    /// gone).
    pub fn moved(&self, moved: &Moved, elem: Elem) -> Option<Elem> {
        let (Elem::Field(r, f) | Elem::Value(r, f, _)) = elem else {
            return Some(elem);
        };
        let Some(l) = self.layout_of(r) else {
            return Some(elem);
        };
        let to = moved.fields.get(&(l, f)).copied().unwrap_or(Some(f))?;
        Some(match elem {
            Elem::Value(_, _, v) => Elem::Value(
                r,
                to,
                moved.values.get(&(l, f, v)).copied().unwrap_or(Some(v))?,
            ),
            _ => Elem::Field(r, to),
        })
    }

    /// Removes what was deleted or folded into arrays and clusters, and the layouts the patch
    /// left unused; puts the device back into its canonical order.
    pub fn sweep(&mut self) {
        self.sweep_layouts();
        let dead = std::mem::take(&mut self.dead);
        for (b, block) in self.device.blocks.iter_mut().enumerate() {
            retain_indexed(&mut block.registers, |r| {
                !dead.contains(&Elem::Reg(Reg::Block(b, r)))
            });
            retain_indexed(&mut block.clusters, |c| {
                !dead.contains(&Elem::Cluster(b, c))
            });
        }
        let gone = self.gone_blocks(&dead);
        self.device.blocks.retain(|b| !gone.contains(&b.name));
        retain_indexed(&mut self.device.instances, |i| {
            !dead.contains(&Elem::Instance(i))
        });
        retain_indexed(&mut self.device.sysregs, |s| {
            !dead.contains(&Elem::Reg(Reg::Sys(s)))
        });
        // Layouts the patch left unused.
        let used = self.used_layouts();
        let before = self.device.layouts.len();
        let used_before = &self.used_before;
        self.device
            .layouts
            .retain(|l| used.contains(&l.name) || !used_before.contains(&l.name));
        let removed = before - self.device.layouts.len();
        if removed > 0 {
            self.log.push(format!(
                "{removed} layout(s) no register uses any more removed"
            ));
        }
        self.device.canonicalize();
    }

    /// The blocks deleted, with the blocks their clusters place, at any depth.
    fn gone_blocks(&self, dead: &HashSet<Elem>) -> Vec<String> {
        let blocks = &self.device.blocks;
        let mut gone: Vec<String> = (0..blocks.len())
            .filter(|&b| dead.contains(&Elem::Block(b)))
            .map(|b| blocks[b].name.clone())
            .collect();
        let mut at = 0;
        while at < gone.len() {
            let placed: Vec<String> = blocks
                .iter()
                .filter(|b| b.name == gone[at])
                .flat_map(|b| b.clusters.iter().map(|c| c.block.name.clone()))
                .filter(|name| !gone.contains(name))
                .collect();
            gone.extend(placed);
            at += 1;
        }
        gone
    }
}

/// Where the fields and values of layouts went when the deleted ones were removed: by layout
/// and old index, the new index, or `None` when removed. Indices not listed did not move.
#[derive(Default)]
pub struct Moved {
    fields: HashMap<(usize, usize), Option<usize>>,
    values: HashMap<(usize, usize, usize), Option<usize>>,
}

/// For `count` items of which `gone` are removed, the old index and the new of each that moves.
fn renumbered(
    count: usize,
    gone: impl Fn(usize) -> bool,
) -> impl Iterator<Item = (usize, Option<usize>)> {
    let mut next = 0;
    (0..count).filter_map(move |i| {
        if gone(i) {
            return Some((i, None));
        }
        next += 1;
        (next - 1 != i).then_some((i, Some(next - 1)))
    })
}

/// Keeps the items whose index `keep` accepts.
fn retain_indexed<T>(items: &mut Vec<T>, keep: impl Fn(usize) -> bool) {
    let mut i = 0;
    items.retain(|_| {
        i += 1;
        keep(i - 1)
    });
}

/// A new instance `name` of block `block` at `base`.
pub fn instance(name: &str, block: &str, base: u64, doc: Option<String>, pos: &Pos) -> Instance {
    Instance {
        name: name.to_string(),
        block: NameRef {
            name: block.to_string(),
            pos: pos.clone(),
        },
        base,
        alias_of: None,
        interrupts: Vec::new(),
        doc,
        source: None,
        pos: pos.clone(),
    }
}

/// A text cut to its first line and 40 characters, for the explanation.
pub fn short(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    let cut: String = line.chars().take(40).collect();
    if cut.len() < s.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// A description as the explanation shows it, `none` when there was none.
pub fn shown_doc(old: Option<String>) -> String {
    old.map_or("none".into(), |d| format!("{:?}", short(&d)))
}
