//! Generates the registers of `uart.toml`, with their behavioural models, into `OUT_DIR`.
fn main() {
    armreg_codegen::build::Build::new()
        .input("uart.toml")
        .models(true)
        .run();
}
