// DIV is 3 bits in a `u8`: a bare integer could hold more, and would be truncated. It takes
// `Const::<5>` (checked when built), `UInt::try_from(n)?` or `UInt::truncating(n)`.
use side_effects_example::{Layout, Status};

fn main() {
    let _ = Status::DEFAULT.with(Status::DIV, 5);
    let n: u8 = 5;
    let _ = Status::DEFAULT.with(Status::DIV, n);
}
