//! The one instruction behind every system-register accessor of a generated crate: a function
//! per instruction form, generic over the encoding, so that a crate of a thousand registers
//! holds no instruction of its own and compiles only the reads and writes a program calls.
//! Each is `inline(always)`: the call is the one `mrs`/`msr` (`mrc`/`mcr`, `mrrc`/`mcrr`) in
//! debug builds too. On a target without the instruction, each calls the [`host`](crate::host)
//! hook with the register's name and encoding instead.
//!
//! For generated code only: a program reaches a register through its type (`SCTLR_EL1::read()`),
//! which states the register's layout and the operations its access allows.

use crate::SysRegPath;

/// Reads the AArch64 system register `S<OP0>_<OP1>_C<CRN>_C<CRM>_<OP2>` (`MRS`).
#[inline(always)]
#[cfg_attr(not(target_arch = "aarch64"), track_caller)]
pub fn a64_read<const OP0: u8, const OP1: u8, const CRN: u8, const CRM: u8, const OP2: u8>(
    name: &'static str,
) -> u64 {
    #[cfg(target_arch = "aarch64")]
    {
        let _ = name;
        let raw: u64;
        // SAFETY: this reads one system register into a register operand: it touches no memory
        // and no stack (`nostack`) and leaves the flags alone (`preserves_flags`); a register the
        // current exception level may not read traps, which is not undefined behaviour.
        unsafe {
            core::arch::asm!(
                "mrs {raw}, S{op0}_{op1}_C{crn}_C{crm}_{op2}",
                raw = out(reg) raw,
                op0 = const OP0, op1 = const OP1, crn = const CRN, crm = const CRM, op2 = const OP2,
                options(nostack, preserves_flags)
            );
        }
        raw
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        crate::host::read(
            name,
            SysRegPath::A64 {
                op0: OP0,
                op1: OP1,
                crn: CRN,
                crm: CRM,
                op2: OP2,
            },
        )
    }
}

/// Writes the AArch64 system register `S<OP0>_<OP1>_C<CRN>_C<CRM>_<OP2>` (`MSR`).
#[inline(always)]
#[cfg_attr(not(target_arch = "aarch64"), track_caller)]
pub fn a64_write<const OP0: u8, const OP1: u8, const CRN: u8, const CRM: u8, const OP2: u8>(
    name: &'static str,
    raw: u64,
) {
    #[cfg(target_arch = "aarch64")]
    {
        let _ = name;
        // SAFETY: this writes one system register from a register operand: it touches no memory
        // and no stack and leaves the flags alone; its effects are the architectural ones the
        // register's documentation states, none of which change memory the compiler knows about.
        unsafe {
            core::arch::asm!(
                "msr S{op0}_{op1}_C{crn}_C{crm}_{op2}, {raw}",
                raw = in(reg) raw,
                op0 = const OP0, op1 = const OP1, crn = const CRN, crm = const CRM, op2 = const OP2,
                options(nostack, preserves_flags)
            );
        }
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        crate::host::write(
            name,
            SysRegPath::A64 {
                op0: OP0,
                op1: OP1,
                crn: CRN,
                crm: CRM,
                op2: OP2,
            },
            raw,
        );
    }
}

/// Reads the AArch32 coprocessor register `p<CP>, <OPC1>, c<CRN>, c<CRM>, <OPC2>` (`MRC`).
#[inline(always)]
#[cfg_attr(not(target_arch = "arm"), track_caller)]
pub fn a32_read<const CP: u8, const OPC1: u8, const CRN: u8, const CRM: u8, const OPC2: u8>(
    name: &'static str,
) -> u64 {
    #[cfg(target_arch = "arm")]
    {
        let _ = name;
        let raw: u32;
        // SAFETY: as `a64_read`, for one coprocessor register.
        unsafe {
            core::arch::asm!(
                "mrc p{cp}, {opc1}, {raw}, c{crn}, c{crm}, {opc2}",
                raw = out(reg) raw,
                cp = const CP, opc1 = const OPC1, crn = const CRN, crm = const CRM, opc2 = const OPC2,
                options(nostack, preserves_flags)
            );
        }
        u64::from(raw)
    }
    #[cfg(not(target_arch = "arm"))]
    {
        crate::host::read(
            name,
            SysRegPath::A32 {
                coproc: CP,
                opc1: OPC1,
                crn: CRN,
                crm: CRM,
                opc2: OPC2,
            },
        )
    }
}

/// Writes the AArch32 coprocessor register `p<CP>, <OPC1>, c<CRN>, c<CRM>, <OPC2>` (`MCR`): the
/// low 32 bits of `raw`.
#[inline(always)]
#[cfg_attr(not(target_arch = "arm"), track_caller)]
pub fn a32_write<const CP: u8, const OPC1: u8, const CRN: u8, const CRM: u8, const OPC2: u8>(
    name: &'static str,
    raw: u64,
) {
    #[cfg(target_arch = "arm")]
    {
        let _ = name;
        // SAFETY: as `a64_write`, for one coprocessor register.
        unsafe {
            core::arch::asm!(
                "mcr p{cp}, {opc1}, {raw}, c{crn}, c{crm}, {opc2}",
                raw = in(reg) raw as u32,
                cp = const CP, opc1 = const OPC1, crn = const CRN, crm = const CRM, opc2 = const OPC2,
                options(nostack, preserves_flags)
            );
        }
    }
    #[cfg(not(target_arch = "arm"))]
    {
        crate::host::write(
            name,
            SysRegPath::A32 {
                coproc: CP,
                opc1: OPC1,
                crn: CRN,
                crm: CRM,
                opc2: OPC2,
            },
            raw,
        );
    }
}

/// Reads the 64-bit AArch32 coprocessor register `p<CP>, <OPC1>, c<CRM>` (`MRRC`).
#[inline(always)]
#[cfg_attr(not(target_arch = "arm"), track_caller)]
pub fn a32_wide_read<const CP: u8, const OPC1: u8, const CRM: u8>(name: &'static str) -> u64 {
    #[cfg(target_arch = "arm")]
    {
        let _ = name;
        let (lo, hi): (u32, u32);
        // SAFETY: as `a64_read`, for one coprocessor register pair.
        unsafe {
            core::arch::asm!(
                "mrrc p{cp}, {opc1}, {lo}, {hi}, c{crm}",
                lo = out(reg) lo, hi = out(reg) hi,
                cp = const CP, opc1 = const OPC1, crm = const CRM,
                options(nostack, preserves_flags)
            );
        }
        u64::from(hi) << 32 | u64::from(lo)
    }
    #[cfg(not(target_arch = "arm"))]
    {
        crate::host::read(
            name,
            SysRegPath::A32Wide {
                coproc: CP,
                opc1: OPC1,
                crm: CRM,
            },
        )
    }
}

/// Writes the 64-bit AArch32 coprocessor register `p<CP>, <OPC1>, c<CRM>` (`MCRR`).
#[inline(always)]
#[cfg_attr(not(target_arch = "arm"), track_caller)]
pub fn a32_wide_write<const CP: u8, const OPC1: u8, const CRM: u8>(name: &'static str, raw: u64) {
    #[cfg(target_arch = "arm")]
    {
        let _ = name;
        // SAFETY: as `a64_write`, for one coprocessor register pair.
        unsafe {
            core::arch::asm!(
                "mcrr p{cp}, {opc1}, {lo}, {hi}, c{crm}",
                lo = in(reg) raw as u32, hi = in(reg) (raw >> 32) as u32,
                cp = const CP, opc1 = const OPC1, crm = const CRM,
                options(nostack, preserves_flags)
            );
        }
    }
    #[cfg(not(target_arch = "arm"))]
    {
        crate::host::write(
            name,
            SysRegPath::A32Wide {
                coproc: CP,
                opc1: OPC1,
                crm: CRM,
            },
            raw,
        );
    }
}
