//! The namespaces names live in (each becomes one Rust scope), read and renamed by index, so the
//! name passes can check and repair every kind of element the same way.
use crate::ir::{Device, Pos};
use crate::names::Case;

/// One namespace of a device.
#[derive(Clone, Copy, Debug)]
pub enum Namespace {
    Layouts,
    SysRegs,
    Blocks,
    Instances,
    Events,
    Fields(usize),
    Enums(usize, usize),
    Registers(usize),
}

impl Namespace {
    /// What the namespace holds, for messages.
    pub fn kind(self) -> &'static str {
        match self {
            Namespace::Layouts => "layout",
            Namespace::SysRegs => "system register",
            Namespace::Blocks => "block",
            Namespace::Instances => "instance",
            Namespace::Events => "event",
            Namespace::Fields(_) => "field",
            Namespace::Enums(..) => "enumerated value",
            Namespace::Registers(_) => "register",
        }
    }

    /// How the backend spells names of this namespace.
    pub fn case(self) -> Case {
        match self {
            Namespace::Layouts | Namespace::Blocks | Namespace::Enums(..) => Case::Camel,
            Namespace::SysRegs | Namespace::Events => Case::Verbatim,
            Namespace::Fields(_) | Namespace::Registers(_) | Namespace::Instances => Case::Snake,
        }
    }
}

/// Every namespace of `device`.
pub fn all(device: &Device) -> Vec<Namespace> {
    let mut out = vec![
        Namespace::Layouts,
        Namespace::SysRegs,
        Namespace::Blocks,
        Namespace::Instances,
        Namespace::Events,
    ];
    for (l, layout) in device.layouts.iter().enumerate() {
        // A derived layout's inherited fields were checked in the base.
        if layout.derive.is_none() {
            out.push(Namespace::Fields(l));
        }
        for (f, field) in layout.fields.iter().enumerate() {
            if !field.enums.is_empty() {
                out.push(Namespace::Enums(l, f));
            }
        }
    }
    out.extend((0..device.blocks.len()).map(Namespace::Registers));
    out
}

/// The names of `ns` with their positions, in storage order. Reserved fields are not names.
pub fn names(device: &Device, ns: Namespace) -> Vec<(usize, &str, &Pos)> {
    fn collect<T>(items: &[T], f: impl Fn(&T) -> (&String, &Pos)) -> Vec<(usize, &str, &Pos)> {
        items
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (n, p) = f(t);
                (i, n.as_str(), p)
            })
            .collect()
    }
    match ns {
        Namespace::Layouts => collect(&device.layouts, |l| (&l.name, &l.pos)),
        Namespace::SysRegs => collect(&device.sysregs, |r| (&r.name, &r.pos)),
        Namespace::Blocks => collect(&device.blocks, |b| (&b.name, &b.pos)),
        Namespace::Instances => collect(&device.instances, |i| (&i.name, &i.pos)),
        Namespace::Events => collect(&device.events, |e| (&e.name, &e.pos)),
        Namespace::Fields(l) => {
            let mut v = collect(&device.layouts[l].fields, |f| (&f.name, &f.pos));
            v.retain(|(i, _, _)| !device.layouts[l].fields[*i].is_reserved());
            v
        }
        Namespace::Enums(l, f) => {
            collect(&device.layouts[l].fields[f].enums, |e| (&e.name, &e.pos))
        }
        // A block's accessors: its registers, then its clusters.
        Namespace::Registers(b) => {
            let block = &device.blocks[b];
            let mut v = collect(&block.registers, |r| (&r.name, &r.pos));
            let first = v.len();
            v.extend(
                collect(&block.clusters, |c| (&c.name, &c.pos))
                    .into_iter()
                    .map(|(i, n, p)| (first + i, n, p)),
            );
            v
        }
    }
}

/// Renames element `i` of `ns`.
pub fn rename(device: &mut Device, ns: Namespace, i: usize, name: String) {
    let slot = match ns {
        Namespace::Layouts => &mut device.layouts[i].name,
        Namespace::SysRegs => &mut device.sysregs[i].name,
        Namespace::Blocks => &mut device.blocks[i].name,
        Namespace::Instances => &mut device.instances[i].name,
        Namespace::Events => &mut device.events[i].name,
        Namespace::Fields(l) => &mut device.layouts[l].fields[i].name,
        Namespace::Enums(l, f) => &mut device.layouts[l].fields[f].enums[i].name,
        Namespace::Registers(b) => {
            let block = &mut device.blocks[b];
            match i.checked_sub(block.registers.len()) {
                Some(c) => &mut block.clusters[c].name,
                None => &mut block.registers[i].name,
            }
        }
    };
    *slot = name;
}

/// `name` with the smallest `_<k>` suffix (k ≥ 1) that `taken` does not hold; an array's `<n>`
/// stays where it is.
pub fn unique(name: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..)
        .map(|k| format!("{name}_{k}"))
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| name.to_string())
}
