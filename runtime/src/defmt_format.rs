//! `defmt::Format` for the runtime's types (feature `defmt`): firmware that logs over defmt shows
//! a register value as `Debug` does, field by field with enumerated values by name, instead of a
//! raw number.
use crate::field::{shown_fields, Shows};
use crate::{IndexOutOfRange, Layout, SysRegPath, Value, Word};

impl<L: Layout> defmt::Format for Value<L> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str} {{", L::INFO.name);
        for (i, (field, shown)) in shown_fields(self.bits().to_u64(), L::INFO.fields).enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            match shown {
                Shows::Flag(on) => defmt::write!(f, "{=str}{=str}: {=bool}", sep, field, on),
                Shows::Named(name) => defmt::write!(f, "{=str}{=str}: {=str}", sep, field, name),
                Shows::Number(bits) => {
                    defmt::write!(f, "{=str}{=str}: {=u64:#x}", sep, field, bits)
                }
            }
        }
        defmt::write!(f, " }}");
    }
}

impl defmt::Format for IndexOutOfRange {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(
            f,
            "register index {=usize} out of range (0..{=usize})",
            self.index,
            self.count
        );
    }
}

impl defmt::Format for SysRegPath {
    fn format(&self, f: defmt::Formatter<'_>) {
        match *self {
            SysRegPath::A64 {
                op0,
                op1,
                crn,
                crm,
                op2,
            } => defmt::write!(
                f,
                "S{=u8}_{=u8}_C{=u8}_C{=u8}_{=u8}",
                op0,
                op1,
                crn,
                crm,
                op2
            ),
            SysRegPath::A32 {
                coproc,
                opc1,
                crn,
                crm,
                opc2,
            } => defmt::write!(
                f,
                "p{=u8}, {=u8}, c{=u8}, c{=u8}, {=u8}",
                coproc,
                opc1,
                crn,
                crm,
                opc2
            ),
            SysRegPath::A32Wide { coproc, opc1, crm } => {
                defmt::write!(f, "p{=u8}, {=u8}, c{=u8}", coproc, opc1, crm)
            }
        }
    }
}
