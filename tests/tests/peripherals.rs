//! `Peripherals::take()` hands the blocks out once: `Some` the first time, `None` after, and
//! `None` after a `steal()` too. One test in its own binary, since the flag is the process's.
//! The firmware side (fields behind their blocks' features, on thumbv7em) is built by
//! `consumers.rs` and `patched.rs`; on Armv6-M, with `critical-section`, by `cortex_m.rs`.

#[test]
fn take_gives_the_blocks_once() {
    use ti_am62l_pmu::Peripherals;
    let p = Peripherals::take().expect("the first take gives the blocks");
    assert!(
        Peripherals::take().is_none(),
        "a second take gave them again"
    );
    assert!(
        Peripherals::take().is_none(),
        "a third take gave them again"
    );
    // The fields are the instances at their addresses.
    assert_eq!(p.pmu_cpu0.base(), ti_am62l_pmu::mmio::PMU_CPU0_BASE);
    assert_eq!(p.pmu_cpu1.base(), ti_am62l_pmu::mmio::PMU_CPU1_BASE);
    // `steal` gives them whatever was taken, and leaves `take` at `None`.
    // SAFETY: nothing accesses the registers: only the handles' addresses are read.
    let again = unsafe { Peripherals::steal() };
    assert_eq!(again.pmu_cpu1.base(), p.pmu_cpu1.base());
    assert!(Peripherals::take().is_none());
    // Zero cost: a handle is an address on a zero-sized bus.
    assert_eq!(
        core::mem::size_of::<Peripherals>(),
        2 * core::mem::size_of::<usize>()
    );
}
