// STROBE has a write-clear and a write-set field: every write acts, so no read-modify-write is
// free of side effects and `modify` does not exist; `modify_with_side_effects` says what it does.
use side_effects_example::model::UartModel;
use side_effects_example::Strobe;

fn main() {
    let model = UartModel::new();
    let uart = model.block();
    uart.strobe().modify(|v| v.with(Strobe::EN, true));
}
