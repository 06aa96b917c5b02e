//! How each kind of bit looks: a fill per field access (explained by the legend), and shading for
//! reserved and undescribed bits. Text is dark on every fill but the darkest, so diagrams read the
//! same on rustdoc's light and dark themes (the diagram brings its own white background).
use crate::ir::FieldAccess;

/// The colour of most labels: a row of boxes states it once, and a label of another colour
/// states its own.
pub const LABEL: &str = "#111";

/// What a box holds, for its colour and the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Access(FieldAccess),
    /// Bits no field describes.
    Undescribed,
}

impl Kind {
    pub fn fill(self) -> &'static str {
        match self {
            Kind::Access(a) => match a {
                FieldAccess::Rw => "#cfe3ff",
                FieldAccess::Ro => "#d3f2d3",
                FieldAccess::Wo => "#ffe0b8",
                FieldAccess::W1s => "#eccfff",
                FieldAccess::W1c => "#ffd0dc",
                FieldAccess::W1t => "#dcd0ff",
                FieldAccess::W0c => "#ffd6c4",
                FieldAccess::W0s => "#f5c8ec",
                FieldAccess::W0t => "#c8d4f5",
                FieldAccess::WClr => "#ffc4c4",
                FieldAccess::WSet => "#c4f0ff",
                FieldAccess::RwOnce => "#b9e6d6",
                FieldAccess::WoOnce => "#f0e4b0",
                FieldAccess::W1Action => "#fff39a",
                FieldAccess::RazWi => "#e2e2e2",
                FieldAccess::Res0 => "#a8a8a8",
                FieldAccess::Res1 => "#8a8a8a",
            },
            Kind::Undescribed => "#f2f2f2",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Kind::Access(FieldAccess::Res0 | FieldAccess::Res1) => "#fff",
            Kind::Access(FieldAccess::RazWi) | Kind::Undescribed => "#555",
            Kind::Access(_) => LABEL,
        }
    }

    /// Dashed outlines mark bits that hold nothing software can use.
    pub fn dashed(self) -> bool {
        matches!(self, Kind::Undescribed | Kind::Access(FieldAccess::RazWi))
    }

    /// The short name drawn in wide boxes and in the legend.
    pub fn short(self) -> &'static str {
        match self {
            Kind::Access(a) => a.as_str(),
            Kind::Undescribed => "-",
        }
    }

    /// What the legend says about it.
    pub fn meaning(self) -> &'static str {
        match self {
            Kind::Access(a) => crate::backend::doc::access(a),
            Kind::Undescribed => "not described",
        }
    }
}
