// `clear_flag` acknowledges a write-1-to-clear flag; IE is an ordinary field, and W1S a
// write-1-to-set one: each helper takes only its own kind.
use side_effects_example::model::UartModel;
use side_effects_example::{Kinds, Status};

fn main() {
    let model = UartModel::new();
    let uart = model.block();
    uart.status().clear_flag(Status::IE);
    uart.kinds().trigger(Kinds::W1S);
}
