fn main() {
    armreg_codegen::build::Build::new()
        .input("registers/soc.svd")
        // The vendor lists UART0's interrupt twice: counted, not warned about on every build.
        .allow("no_duplicate_names")
        .run();
}
