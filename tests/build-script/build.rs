//! Generates the PL011 registers of the worked example into `OUT_DIR` at build time.
fn main() {
    armreg_codegen::build::Build::new()
        .input("../docs/example/qemu-virt-pl011.toml")
        .models(true)
        .run();
}
