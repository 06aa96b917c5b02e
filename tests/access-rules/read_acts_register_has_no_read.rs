// Reading RXDATA pops the FIFO: the read is written `read_with_side_effects`, so that the effect
// shows where it happens; a plain `read` (and `modify` on CTRL, whose count clears when read)
// does not compile.
use side_effects_example::model::UartModel;
use side_effects_example::Ctrl;

fn main() {
    let model = UartModel::new();
    let uart = model.block();
    let _ = uart.rxdata().read();
    uart.ctrl().modify(|v| v.with(Ctrl::EN, true));
}
