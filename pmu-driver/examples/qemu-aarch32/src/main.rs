//! Counts cycles, instructions and L1D refills of one function with pmu-driver, then profiles it
//! with more events than the PMU has counters. Run it with `cargo run --release`.
#![no_std]
#![no_main]

mod semihosting;
mod start;

use arm_pmu_events::cortex_a15::Event as A15;
use pmu_driver::mux::{track, Session};
use pmu_driver::{cpu, Aarch32, Error, Filter, Pmu};

/// What is measured: a sum over 4,096 numbers.
#[inline(never)]
fn work(data: &[u32]) -> u32 {
    data.iter().fold(0, |sum, &x| sum.wrapping_add(x))
}

#[no_mangle]
extern "C" fn main() -> ! {
    match run() {
        Ok(()) => semihosting::exit(0),
        Err(e) => {
            println!("error: {e}");
            semihosting::exit(1)
        }
    }
}

fn run() -> Result<(), Error> {
    let data: [u32; 4096] = core::array::from_fn(|i| i as u32);
    let pmu = Pmu::new(Aarch32::new())?;
    let core = cpu::detect(&Aarch32::new(), pmu.info());
    let info = pmu.info();
    let name = core.name().unwrap_or("unknown core");
    println!("{name}: {}, {} counters", info.version, info.counters);
    pmu.start();

    // Cycles, instructions and L1D refills of one call. The Cortex-A15's PMU (Armv7) has no
    // PMCEID to say what it counts: QEMU counts only SW_INCR, INST_RETIRED and CPU_CYCLES, so
    // the refills read 0, and the measurement says that zero may not be real.
    match pmu.measurer([A15::L1D_CACHE_REFILL.into()], Filter::EL0_EL1) {
        Ok(m) => {
            let (sum, counts) = m.measure(|| work(&data));
            println!("sum {sum}\n{counts}");
        }
        Err(e) => {
            println!("{e}");
            let m = pmu.measurer([], Filter::EL0_EL1)?;
            let (sum, counts) = m.measure(|| work(&data));
            println!("sum {sum}\n{counts}");
        }
    } // The measurer gives its counters back here.

    // More events than counters, rotated between calls ("perf stat"): the table says which
    // events the PMU counts, and how.
    let mut events = track([
        A15::CPU_CYCLES,
        A15::INST_RETIRED,
        A15::L1D_CACHE,
        A15::L1D_CACHE_REFILL,
        A15::BR_PRED,
        A15::BR_MIS_PRED,
        A15::MEM_ACCESS,
        A15::BUS_ACCESS,
    ]);
    let mut session = Session::new(&pmu, &mut events, Filter::EL0_EL1)?;
    session.start();
    for _ in 0..64 {
        core::hint::black_box(work(core::hint::black_box(&data)));
        session.rotate();
    }
    session.stop();
    println!("{}", session.report());
    Ok(())
}
