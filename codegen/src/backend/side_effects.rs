//! What reading or writing a register does besides moving its value, decided once from the IR
//! for every backend: which bits a read-modify-write must write 0 or 1 to leave alone, which
//! bits it carries over, and whether the register has a read-modify-write free of side effects
//! at all. The Rust layouts carry the masks (`LayoutInfo`), the register handles the verdict
//! (their access marker), and the documentation says the same in words.
use crate::ir::{FieldAccess, Layout, ReadAction, RegAccess};

/// A layout's bits by what a write of them does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteEffects {
    /// Writing 1 acts (w1c, w1s, w1t, w1-action): a neutral write has 0 here.
    pub on_one: u64,
    /// Writing 0 acts (w0c, w0s, w0t): a neutral write has 1 here.
    pub on_zero: u64,
    /// Any write acts (wclr, wset): no write is neutral.
    pub on_any: u64,
    /// A write stores the value written (rw, rw-once): what a read-modify-write carries over.
    pub stored: u64,
}

impl WriteEffects {
    pub fn of(layout: &Layout) -> Self {
        let mut e = WriteEffects::default();
        for f in &layout.fields {
            let mask = f.mask();
            match f.access {
                FieldAccess::W1c | FieldAccess::W1s | FieldAccess::W1t | FieldAccess::W1Action => {
                    e.on_one |= mask
                }
                FieldAccess::W0c | FieldAccess::W0s | FieldAccess::W0t => e.on_zero |= mask,
                FieldAccess::WClr | FieldAccess::WSet => e.on_any |= mask,
                FieldAccess::Rw | FieldAccess::RwOnce => e.stored |= mask,
                FieldAccess::Ro
                | FieldAccess::Wo
                | FieldAccess::WoOnce
                | FieldAccess::RazWi
                | FieldAccess::Res0
                | FieldAccess::Res1 => {}
            }
        }
        e
    }

    /// Whether a write can act at all: some field has a write side effect.
    pub fn any(&self) -> bool {
        self.on_one | self.on_zero | self.on_any != 0
    }
}

/// The runtime's type for what writing a field of `access` does (`armreg_rt::field::W1c`), or
/// `None` for an ordinary field (the `Field` type's default, `Plain`).
pub fn write_kind(access: FieldAccess) -> Option<&'static str> {
    Some(match access {
        FieldAccess::W1c => "W1c",
        FieldAccess::W1s => "W1s",
        FieldAccess::W1t => "W1t",
        FieldAccess::W0c => "W0c",
        FieldAccess::W0s => "W0s",
        FieldAccess::W0t => "W0t",
        FieldAccess::WClr => "WClr",
        FieldAccess::WSet => "WSet",
        FieldAccess::W1Action => "W1Action",
        _ => return None,
    })
}

/// How a whole register is reached once its side effects are counted: the runtime's access
/// marker (`armreg_rt::access`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Read, write, and a `modify` that acts on nothing unasked.
    Rw,
    Ro,
    Wo,
    SetView,
    ClearView,
    /// Read and write, but some field acts on any write: `modify_with_side_effects` only.
    RwWriteActs,
    /// Read only, with a side effect.
    RoReadActs,
    /// Read and write, and the read has a side effect.
    RwReadActs,
}

impl Reach {
    /// The register reached with `access`, whose own read action (a block register's) is
    /// `read_action`, with `layout`'s fields.
    pub fn of(access: &RegAccess, read_action: Option<ReadAction>, layout: &Layout) -> Self {
        let read_acts =
            read_action.is_some() || layout.fields.iter().any(|f| f.read_action.is_some());
        let write_acts = WriteEffects::of(layout).on_any != 0;
        match access {
            RegAccess::Rw if read_acts => Reach::RwReadActs,
            RegAccess::Rw if write_acts => Reach::RwWriteActs,
            RegAccess::Rw => Reach::Rw,
            RegAccess::Ro if read_acts => Reach::RoReadActs,
            RegAccess::Ro => Reach::Ro,
            RegAccess::Wo => Reach::Wo,
            RegAccess::Set { .. } => Reach::SetView,
            RegAccess::Clear { .. } => Reach::ClearView,
        }
    }

    /// The marker type's name in `armreg_rt::access`.
    pub fn marker(self) -> &'static str {
        match self {
            Reach::Rw => "Rw",
            Reach::Ro => "Ro",
            Reach::Wo => "Wo",
            Reach::SetView => "SetView",
            Reach::ClearView => "ClearView",
            Reach::RwWriteActs => "RwWriteActs",
            Reach::RoReadActs => "RoReadActs",
            Reach::RwReadActs => "RwReadActs",
        }
    }

    /// Whether the register is read with `read` (else `read_with_side_effects`, or not at all).
    pub fn plain_read(self) -> bool {
        !matches!(self, Reach::Wo | Reach::RoReadActs | Reach::RwReadActs)
    }

    pub fn reads(self) -> bool {
        !matches!(self, Reach::Wo)
    }

    pub fn writes(self) -> bool {
        matches!(
            self,
            Reach::Rw | Reach::Wo | Reach::RwWriteActs | Reach::RwReadActs
        )
    }
}

/// What the documentation of a register says of its side effects, where it has any: which
/// fields `modify` leaves alone and how one is acted on, or why there is no plain `modify` or
/// `read`. `None` for a register without side effects.
pub fn register_note(reach: Reach, layout: &Layout, modify: &str) -> Option<String> {
    let named = |accesses: &[FieldAccess]| -> Vec<String> {
        layout
            .fields
            .iter()
            .filter(|f| accesses.contains(&f.access))
            .map(|f| format!("`{}` ({})", f.name, f.access.as_str()))
            .collect()
    };
    let neutral = named(&[
        FieldAccess::W1c,
        FieldAccess::W1s,
        FieldAccess::W1t,
        FieldAccess::W1Action,
        FieldAccess::W0c,
        FieldAccess::W0s,
        FieldAccess::W0t,
    ]);
    let any = named(&[FieldAccess::WClr, FieldAccess::WSet]);
    let read: Vec<String> = layout
        .fields
        .iter()
        .filter(|f| f.read_action.is_some())
        .map(|f| format!("`{}`", f.name))
        .collect();
    let mut parts = Vec::new();
    match reach {
        Reach::RoReadActs | Reach::RwReadActs => parts.push(format!(
            "Reading has a side effect{}: read with `read_with_side_effects`{}.",
            if read.is_empty() {
                String::new()
            } else {
                format!(" ({})", read.join(", "))
            },
            if reach == Reach::RwReadActs {
                ", and read-modify-write with `modify_with_side_effects`"
            } else {
                ""
            }
        )),
        Reach::RwWriteActs => parts.push(format!(
            "Every write acts on {}, whatever is written: there is no `{modify}` free of side effects, so the read-modify-write is `modify_with_side_effects`.",
            any.join(", ")
        )),
        _ => {}
    }
    if !neutral.is_empty() {
        match reach {
            Reach::Rw => parts.push(format!(
                "Writes have side effects on {}: `{modify}` writes each the value that does nothing unless its closure sets it, and `clear_flag`, `set_flag`, `toggle_flag` or `trigger` acts on one field alone, leaving the others as they were.",
                neutral.join(", ")
            )),
            Reach::RwWriteActs | Reach::RwReadActs => parts.push(format!(
                "`modify_with_side_effects` still writes {} the value that does nothing unless its closure sets it.",
                neutral.join(", ")
            )),
            _ => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}
