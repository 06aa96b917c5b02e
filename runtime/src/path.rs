/// The access path of a system register: the operands of the instruction that reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case", tag = "kind")
)]
pub enum SysRegPath {
    /// AArch64 `MRS`/`MSR` with the encoding `S<op0>_<op1>_C<crn>_C<crm>_<op2>`.
    A64 {
        op0: u8,
        op1: u8,
        crn: u8,
        crm: u8,
        op2: u8,
    },
    /// AArch32 32-bit `MRC`/`MCR p<coproc>, <opc1>, Rt, c<crn>, c<crm>, <opc2>`.
    A32 {
        coproc: u8,
        opc1: u8,
        crn: u8,
        crm: u8,
        opc2: u8,
    },
    /// AArch32 64-bit `MRRC`/`MCRR p<coproc>, <opc1>, Rt, Rt2, c<crm>`.
    A32Wide { coproc: u8, opc1: u8, crm: u8 },
}

impl core::fmt::Display for SysRegPath {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::A64 {
                op0,
                op1,
                crn,
                crm,
                op2,
            } => write!(f, "S{op0}_{op1}_C{crn}_C{crm}_{op2}"),
            Self::A32 {
                coproc,
                opc1,
                crn,
                crm,
                opc2,
            } => write!(f, "p{coproc}, {opc1}, c{crn}, c{crm}, {opc2}"),
            Self::A32Wide { coproc, opc1, crm } => write!(f, "p{coproc}, {opc1}, c{crm}"),
        }
    }
}
