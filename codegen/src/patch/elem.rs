//! The element model: every element of a device a patch can name, by its indices, the device's
//! layouts by name, and how an element is named in messages and explanations.
//!
//! Indices stay valid while a file applies: until its end, elements are only appended or marked
//! for removal.
use std::collections::HashMap;

use crate::ir::{Device, Layout, Pos};

/// A register: of a block (block, register) or a system register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    Block(usize, usize),
    Sys(usize),
}

/// An element of the device, by its indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elem {
    Device,
    Block(usize),
    Instance(usize),
    Reg(Reg),
    Field(Reg, usize),
    Value(Reg, usize, usize),
    /// A cluster (block, cluster): the placement of a block inside another.
    Cluster(usize, usize),
}

impl Elem {
    pub fn parent(self) -> Option<Elem> {
        match self {
            Elem::Device => None,
            Elem::Block(_) | Elem::Instance(_) | Elem::Reg(Reg::Sys(_)) => Some(Elem::Device),
            Elem::Reg(Reg::Block(b, _)) | Elem::Cluster(b, _) => Some(Elem::Block(b)),
            Elem::Field(r, _) => Some(Elem::Reg(r)),
            Elem::Value(r, f, _) => Some(Elem::Field(r, f)),
        }
    }

    /// The names its siblings of the same kind must not share: its parent and kind. A block's
    /// registers and clusters are one namespace (each is an accessor of the block).
    pub fn namespace(self) -> (u8, Option<Elem>) {
        let kind = match self {
            Elem::Device => 0,
            Elem::Block(_) => 1,
            Elem::Instance(_) => 2,
            Elem::Reg(Reg::Sys(_)) => 3,
            Elem::Reg(Reg::Block(..)) | Elem::Cluster(..) => 4,
            Elem::Field(..) => 5,
            Elem::Value(..) => 6,
        };
        (kind, self.parent())
    }
}

/// The device's layouts by name, kept up to date as layouts are added and renamed.
pub struct Layouts(HashMap<String, usize>);

impl Layouts {
    pub fn of(device: &Device) -> Layouts {
        let mut map = HashMap::new();
        for (i, l) in device.layouts.iter().enumerate() {
            map.entry(l.name.clone()).or_insert(i);
        }
        Layouts(map)
    }

    /// The layout called `name`.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.0.get(name).copied()
    }

    pub fn of_reg(&self, device: &Device, reg: Reg) -> Option<usize> {
        let name = match reg {
            Reg::Block(b, r) => &device.blocks[b].registers[r].layout.name,
            Reg::Sys(s) => &device.sysregs[s].layout.name,
        };
        self.get(name)
    }

    pub fn push(&mut self, device: &mut Device, layout: Layout) -> usize {
        let i = device.layouts.len();
        self.0.insert(layout.name.clone(), i);
        device.layouts.push(layout);
        i
    }

    /// Renames layout `l` (of `device`) from `old` to `new`; registers are the caller's.
    pub fn rename(&mut self, device: &mut Device, l: usize, old: &str, new: &str) {
        device.layouts[l].name = new.to_string();
        self.0.remove(old);
        self.0.insert(new.to_string(), l);
    }

    /// `wanted`, or `wanted_2`, `wanted_3` ... : the first name no layout has.
    pub fn free_name(&self, wanted: &str) -> String {
        if !self.0.contains_key(wanted) {
            return wanted.to_string();
        }
        (2..)
            .map(|k| format!("{wanted}_{k}"))
            .find(|n| !self.0.contains_key(n))
            .unwrap_or_default()
    }
}

/// How many registers (of blocks, and system registers) have layout `name`.
pub fn layout_users(device: &Device, name: &str) -> usize {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .filter(|r| r.layout.name == name)
        .count()
        + device
            .sysregs
            .iter()
            .filter(|s| s.layout.name == name)
            .count()
}

/// `BLOCK.REGISTER`, or a system register's name.
pub fn reg_name(device: &Device, reg: Reg) -> String {
    match reg {
        Reg::Block(b, r) => format!(
            "{}.{}",
            device.blocks[b].name, device.blocks[b].registers[r].name
        ),
        Reg::Sys(s) => device.sysregs[s].name.clone(),
    }
}

/// The element's name and its position in its input (none for a field or value of a register
/// whose layout is missing).
fn named<'d>(device: &'d Device, layouts: &Layouts, e: Elem) -> Option<(&'d str, &'d Pos)> {
    Some(match e {
        Elem::Device => (&device.name, &device.pos),
        Elem::Block(b) => (&device.blocks[b].name, &device.blocks[b].pos),
        Elem::Instance(i) => (&device.instances[i].name, &device.instances[i].pos),
        Elem::Reg(Reg::Block(b, r)) => {
            let reg = &device.blocks[b].registers[r];
            (&reg.name, &reg.pos)
        }
        Elem::Reg(Reg::Sys(s)) => (&device.sysregs[s].name, &device.sysregs[s].pos),
        Elem::Cluster(b, c) => {
            let cluster = &device.blocks[b].clusters[c];
            (&cluster.name, &cluster.pos)
        }
        Elem::Field(r, f) => {
            let field = &device.layouts[layouts.of_reg(device, r)?].fields[f];
            (&field.name, &field.pos)
        }
        Elem::Value(r, f, v) => {
            let value = &device.layouts[layouts.of_reg(device, r)?].fields[f].enums[v];
            (&value.name, &value.pos)
        }
    })
}

/// The element's name.
pub fn name_of(device: &Device, layouts: &Layouts, e: Elem) -> String {
    named(device, layouts, e).map_or_else(String::new, |(name, _)| name.to_string())
}

/// `PWM.CH0_CSR.EN`, `instance UART1`, `cluster DMA.CH<n>`, `the device`.
pub fn path(device: &Device, layouts: &Layouts, e: Elem) -> String {
    match e {
        Elem::Device => "the device".to_string(),
        Elem::Instance(i) => format!("instance {}", device.instances[i].name),
        Elem::Block(b) => device.blocks[b].name.clone(),
        Elem::Reg(r) => reg_name(device, r),
        Elem::Cluster(b, c) => format!(
            "cluster {}.{}",
            device.blocks[b].name, device.blocks[b].clusters[c].name
        ),
        Elem::Field(r, _) | Elem::Value(r, _, _) => {
            let parent = path(device, layouts, e.parent().unwrap_or(Elem::Reg(r)));
            format!("{parent}.{}", name_of(device, layouts, e))
        }
    }
}

/// The position of the element in its input.
pub fn pos_of(device: &Device, layouts: &Layouts, e: Elem) -> Pos {
    named(device, layouts, e).map_or_else(Pos::default, |(_, pos)| pos.clone())
}

/// The elements of the same kind as `like` under `parent` (a block's registers and clusters
/// both, being one namespace).
pub fn siblings(device: &Device, layouts: &Layouts, parent: Elem, like: Elem) -> Vec<Elem> {
    match (parent, like) {
        (Elem::Device, Elem::Block(_)) => (0..device.blocks.len()).map(Elem::Block).collect(),
        (Elem::Device, Elem::Instance(_)) => {
            (0..device.instances.len()).map(Elem::Instance).collect()
        }
        (Elem::Device, Elem::Reg(Reg::Sys(_))) => (0..device.sysregs.len())
            .map(|s| Elem::Reg(Reg::Sys(s)))
            .collect(),
        (Elem::Block(b), _) => {
            let block = &device.blocks[b];
            (0..block.registers.len())
                .map(|r| Elem::Reg(Reg::Block(b, r)))
                .chain((0..block.clusters.len()).map(|c| Elem::Cluster(b, c)))
                .collect()
        }
        (Elem::Reg(r), _) => layouts
            .of_reg(device, r)
            .map(|l| {
                (0..device.layouts[l].fields.len())
                    .map(|f| Elem::Field(r, f))
                    .collect()
            })
            .unwrap_or_default(),
        (Elem::Field(r, f), _) => layouts
            .of_reg(device, r)
            .map(|l| {
                (0..device.layouts[l].fields[f].enums.len())
                    .map(|v| Elem::Value(r, f, v))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
