//! The differential check: the generated behavioural model of the external PMU view
//! (`arm_pmuv3::model::PmuExt32Model`, from the architectural description) against QEMU's PMU
//! reached through the AArch64 system registers, write for write (`sequence::STEPS`), comparing
//! PMCNTENSET, PMINTENSET, PMOVSSET and PMCR after each step.
//!
//! What the two sides may differ in, and why:
//! - PMCR bits \[31:11\] (N, IDCODE, IMP) are RAZ/WI in the external view (Arm ARM DDI0487
//!   §I5.2, table I5-1): only bits \[10:0\] are compared; QEMU's upper bits must stay at their
//!   reset (read-only).
//! - What the architecture leaves to the implementation, which the description states only in
//!   words and the test adds to the model as a hook ([`implementation`]): counter bits at or above
//!   N are RAZ/WI; PMCR.LP is RES0 without FEAT_PMUv3p5, PMCR.FZO without FEAT_PMUv3p7.
//! - QEMU 7.2 deviates from the architecture in one place: PMCR.LP is writable on every CPU model
//!   (its PMCR_WRITABLE_MASK includes LP unconditionally), RES0 though it is on the PMUv3p0
//!   cortex-a53 and cortex-a72. That disagreement is reported as a QEMU deviation; any other fails.
use arm_pmuv3::model::PmuExt32Model;
use arm_pmuv3::{PmCounterMask, PmcrExt};
use armreg_rt::model::Model;
use armreg_rt::Layout;

use crate::sequence::{Target, STATE, STEPS};
use crate::{Cpu, Values};

/// PMCR bits both views have.
const PMCR_SHARED: u64 = 0x7FF;
const PMCR_LP: u64 = 1 << 7;
const PMCR_FZO: u64 = 1 << 9;

/// What an implementation decides that the architectural description cannot: the number of
/// event counters and the optional features that own PMCR bits.
#[derive(Clone, Copy, Debug)]
pub struct Implementation {
    pub counters: u32,
    pub pmuv3p5: bool,
    pub pmuv3p7: bool,
}

impl Implementation {
    pub fn of(cpu: &Cpu) -> Self {
        Implementation {
            counters: cpu.n as u32,
            pmuv3p5: cpu.version >= 0x35,
            pmuv3p7: cpu.version >= 0x37,
        }
    }
}

/// The counter bits `imp` implements: its event counters and the cycle counter (bit 31).
fn implemented(imp: Implementation) -> u64 {
    ((1u64 << imp.counters) - 1) | (1 << 31)
}

/// Adds `imp` to the model: the set/clear views keep only implemented counters' bits, PMCR
/// only the bits of implemented features.
pub fn implementation(model: &Model, imp: Implementation) {
    let counters = implemented(imp);
    model.on_write(move |hw, w| match w.register {
        "PMCNTENSET" | "PMCNTENCLR" | "PMINTENSET" | "PMINTENCLR" | "PMOVSSET" | "PMOVSCLR" => {
            let state = hw.get(w.register);
            hw.set(w.register, state & counters);
        }
        "PMCR" => {
            let mut v = hw.get("PMCR");
            if !imp.pmuv3p5 {
                v &= !PMCR_LP;
            }
            if !imp.pmuv3p7 {
                v &= !PMCR_FZO;
            }
            hw.set("PMCR", v);
        }
        _ => {}
    });
}

/// The state (`STATE` order) before the sequence and after each step, on the model.
pub fn run_model(imp: Option<Implementation>) -> Vec<[u64; 4]> {
    let model = PmuExt32Model::new();
    if let Some(imp) = imp {
        implementation(&model, imp);
    }
    let pmu = model.block();
    let state = || {
        [
            u64::from(pmu.pmcntenset().read().bits()),
            u64::from(pmu.pmintenset().read().bits()),
            u64::from(pmu.pmovsset().read().bits()),
            u64::from(pmu.pmcr().read().bits()),
        ]
    };
    let mut out = vec![state()];
    for &(target, v) in STEPS {
        let mask = PmCounterMask::from_bits_retain(v);
        match target {
            Target::CntenSet => pmu.pmcntenset().set(mask),
            Target::CntenClr => pmu.pmcntenclr().clear(mask),
            Target::IntenSet => pmu.pmintenset().set(mask),
            Target::IntenClr => pmu.pmintenclr().clear(mask),
            Target::OvsSet => pmu.pmovsset().set(mask),
            Target::OvsClr => pmu.pmovsclr().clear(mask),
            Target::Pmcr => pmu.pmcr().write(PmcrExt::from_bits_retain(v)),
        }
        out.push(state());
    }
    out
}

/// One disagreement: step, register, QEMU's value, the model's.
type Disagreement = (usize, &'static str, u64, u64);

fn compare(qemu: &[[u64; 4]], model: &[[u64; 4]]) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for (step, (q, m)) in qemu.iter().zip(model).enumerate() {
        for (k, key) in STATE.iter().enumerate() {
            let (q, m) = if *key == "seq_pmcr" {
                (q[k] & PMCR_SHARED, m[k])
            } else {
                (q[k], m[k])
            };
            if q != m {
                out.push((step, *key, q, m));
            }
        }
    }
    out
}

/// Checks the `pmu_sequence` run of `cpu`: QEMU's state against the model's, step by step.
pub fn check(cpu: &Cpu, v: &mut Values) {
    let mut qemu = Vec::new();
    for step in 0..=STEPS.len() {
        let mut row = [0; 4];
        for (k, key) in STATE.iter().enumerate() {
            row[k] = v.take(&format!("{key}_{step}")).unwrap_or(u64::MAX);
        }
        qemu.push(row);
    }
    // PMCR's read-only upper bits (N, IDCODE, IMP) keep their reset through every write.
    for (step, row) in qemu.iter().enumerate() {
        v.check(row[3] & !PMCR_SHARED == cpu.pmcr & !PMCR_SHARED, || {
            format!(
                "step {step}: PMCR {:#x}: bits [31:11] changed from the reset {:#x}",
                row[3], cpu.pmcr
            )
        });
    }
    let imp = Implementation::of(cpu);
    let model = run_model(Some(imp));
    v.check(model.iter().all(|row| row[3] & !PMCR_SHARED == 0), || {
        "the model's PMCR has bits [31:11] set: they are RAZ/WI externally".to_string()
    });
    let mut deviations = Vec::new();
    for d in compare(&qemu, &model) {
        let (step, key, q, m) = d;
        if key == "seq_pmcr" && !imp.pmuv3p5 && q ^ m == PMCR_LP && q & PMCR_LP != 0 {
            deviations.push(d);
        } else {
            v.problems.push(format!(
                "step {step} ({:?}): {key} is {q:#x} on QEMU, {m:#x} on the model",
                step.checked_sub(1).map(|i| STEPS[i])
            ));
        }
    }
    // Without the implementation's hook the model keeps bits QEMU (an implementation with
    // N = cpu.n) drops: exactly the unimplemented counters' bits and the absent features' bits.
    let bare = compare(&qemu, &run_model(None));
    let unimplemented = !implemented(imp) & 0xFFFF_FFFF;
    let features =
        (if imp.pmuv3p5 { 0 } else { PMCR_LP }) | (if imp.pmuv3p7 { 0 } else { PMCR_FZO });
    for &(step, key, q, m) in &bare {
        let allowed = if key == "seq_pmcr" {
            features
        } else {
            unimplemented
        };
        v.check((q ^ m) & !allowed == 0, || {
            format!("step {step}: the bare model's {key} {m:#x} differs from QEMU's {q:#x} beyond what the implementation decides")
        });
    }
    println!(
        "differential check on {}: {} states x {} registers; model with the implementation hook: {} disagreement(s), each QEMU's PMCR.LP writable without FEAT_PMUv3p5 (steps {:?}); model without it: {} disagreement(s), all in bits the implementation decides",
        cpu.name,
        STEPS.len() + 1,
        STATE.len(),
        deviations.len(),
        deviations.iter().map(|d| d.0).collect::<Vec<_>>(),
        bare.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The model side alone, against the architecture: what each step must leave.
    #[test]
    fn the_model_runs_the_sequence_as_the_architecture_says() {
        let imp = Implementation {
            counters: 6,
            pmuv3p5: false,
            pmuv3p7: false,
        };
        let with = run_model(Some(imp));
        let bare = run_model(None);
        assert_eq!(with.len(), STEPS.len() + 1);
        assert_eq!(with[0], [0; 4]);
        // Set, a 0 through the set view, clear: one state.
        assert_eq!(with[1][0], 0x8000_0003);
        assert_eq!(with[2][0], 0x8000_0003);
        assert_eq!(with[3][0], 0x8000_0002);
        // Every bit set: only implemented counters with the hook, all without it.
        assert_eq!((with[4][0], bare[4][0]), (0x8000_003F, 0xFFFF_FFFF));
        // PMCR: E D X DP LC written; P and C read 0; every bit: LP and FZO only with the features.
        assert_eq!(with[16][3], 0x79);
        assert_eq!(with[17][3], 0x01);
        assert_eq!((with[18][3], bare[18][3]), (0x79, 0x2F9));
        assert_eq!(with[19][3], 0);
        // The interrupt-enable clear view left the overflow flags alone.
        assert_eq!(with[14][2], 0x8000_003F);
        assert_eq!(with[14][1], 0);
    }
}
