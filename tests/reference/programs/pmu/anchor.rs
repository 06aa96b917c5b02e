use aarch64_cpu::asm::barrier;
use core::arch::asm;

#[no_mangle]
pub unsafe fn count_anchor(f: fn()) -> (u64, u64) {
    asm!("msr pmevtyper0_el0, {}", in(reg) 0x08u64);
    asm!("msr pmcr_el0, {}", in(reg) 0b111u64);
    asm!("msr pmcntenset_el0, {}", in(reg) 1u64 << 31 | 1);
    barrier::isb(barrier::SY);
    f();
    asm!("msr pmcntenclr_el0, {}", in(reg) 1u64 << 31 | 1);
    let (cycles, events): (u64, u64);
    asm!("mrs {}, pmccntr_el0", out(reg) cycles);
    asm!("mrs {}, pmevcntr0_el0", out(reg) events);
    (cycles, events)
}
