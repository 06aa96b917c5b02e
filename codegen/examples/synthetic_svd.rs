//! Writes the benchmarks' synthetic SVD: `synthetic_svd <input.svd> <copies> <output.svd>` repeats
//! the input's peripherals `copies` times (see `benches/synthetic.rs`).
#[path = "../benches/synthetic.rs"]
mod synthetic;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, copies, output] = &args[..] else {
        eprintln!("usage: synthetic_svd <input.svd> <copies> <output.svd>");
        return ExitCode::FAILURE;
    };
    let Ok(copies) = copies.parse::<usize>() else {
        eprintln!("error: copies must be a whole number, not `{copies}`");
        return ExitCode::FAILURE;
    };
    let result = std::fs::read_to_string(input)
        .map_err(|e| format!("cannot read {input}: {e}"))
        .and_then(|text| synthetic::repeat(&text, copies).map_err(|e| format!("{input}: {e}")))
        .and_then(|svd| {
            std::fs::write(output, svd).map_err(|e| format!("cannot write {output}: {e}"))
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
