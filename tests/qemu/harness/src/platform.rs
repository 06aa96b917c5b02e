//! What a firmware image provides so the tests can be written once for AArch64 and AArch32.
use pmu_driver::cpu::ReadMidr;
use pmu_driver::timer::{TimerRegisters, VirtualTimerRegisters};
use pmu_driver::{Pmu, Registers, SampleRing, UserAccessControl};

use crate::gic::CpuInterfaceV3;
use crate::Once;

/// Capacity of the sample ring.
pub const SAMPLES: usize = 16;

/// Code to run at EL0 (AArch32: User mode); it ends with `svc #0`, which returns to the caller of
/// [`Platform::run_el0`].
#[derive(Clone, Copy, Debug)]
pub enum El0Task {
    /// A loop of `n` iterations, two instructions each, then `svc`: `2n + 1` instructions.
    Spin(u32),
    /// Reads the cycle counter (PMCCNTR) into the result register, then `svc`.
    ReadCycleCounter,
}

/// How an EL0 run went.
#[derive(Clone, Copy, Debug, Default)]
pub struct El0Outcome {
    /// Exceptions other than the final `svc` (each skipped over by the handler).
    pub traps: u32,
    /// For the last trap: the ESR (AArch64) or the trapped instruction word (AArch32).
    pub syndrome: u64,
    /// For the last trap, AArch32 only: the mode it came from (CPSR.M of SPSR_und).
    pub trap_mode: u32,
    /// The result register (x0/r0) at the `svc`.
    pub result: u64,
}

/// One firmware image's architecture-specific parts.
pub trait Platform: 'static {
    /// The PMU register back end.
    type Regs: Registers + UserAccessControl + ReadMidr + Sync + Send;
    /// The timer register back end.
    type Timer: TimerRegisters + VirtualTimerRegisters;

    /// The back end for the running CPU.
    fn regs() -> Self::Regs;
    /// The timer back end.
    fn timer_regs() -> Self::Timer;
    /// Where the test's driver lives, so that the PMU interrupt reaches it.
    fn pmu_cell() -> &'static Once<Pmu<Self::Regs>>;
    /// The ring the overflow handler records samples in.
    fn samples() -> &'static SampleRing<SAMPLES>;
    /// PMCR as the generated accessor reads it (zero-extended).
    fn raw_pmcr() -> u64;
    /// Exactly `2K + 1` instructions: `mov` of K, then K iterations of `subs` and a branch.
    fn spin<const K: u32>();
    /// Hand-written assembly: reads event counter 0 (`mrs`/`mrc`), runs the same `2K + 1`
    /// instructions as [`spin`](Self::spin) (none for K = 0), reads it again; the difference.
    fn asm_two_reads<const K: u32>() -> u64;
    /// Runs `task` at EL0 and returns when it executes `svc`.
    fn run_el0(task: El0Task) -> El0Outcome;
    /// Unmasks (`true`) or masks IRQs at the current exception level.
    fn set_irqs(enabled: bool);
    /// The GIC version the CPU's ID register reports a system-register interface for (3), else 2.
    fn gic_version() -> u32;
    /// The GICv3 system-register CPU interface.
    fn gicv3_cpu() -> &'static dyn CpuInterfaceV3;
    /// The current exception level (AArch32: 1 for PL1 modes).
    fn current_el() -> u32;
    /// The exception level the image was started at.
    fn boot_el() -> u32;
}
