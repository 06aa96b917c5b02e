//! In-process benchmarks of the generator's phases (divan): parse, validate, emit Rust (formatted,
//! split into modules), emit C headers, for the vendored SVDs (rp2040, nrf52840) and the synthetic SVD 11 times
//! the largest (`synthetic.rs`). `cargo bench -p armreg-codegen --bench phases`; whole-process figures
//! and the comparison with svd2rust come from `benches/run.sh`.
mod synthetic;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use armreg_codegen::diagnostic::Sources;
use armreg_codegen::frontend::{self, Format};
use armreg_codegen::ir::Device;
use armreg_codegen::passes::{self, Mode};

fn main() {
    divan::main();
}

/// The inputs, smallest first.
const INPUTS: &[&str] = &["rp2040", "nrf52840", "synthetic"];

/// An input's text, its parsed device and its validated device.
struct Input {
    text: String,
    parsed: Device,
    validated: Device,
}

/// The vendored CMSIS-SVD files (`descriptions/third-party/cmsis-svd-data`).
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../descriptions/third-party/cmsis-svd-data")
}

fn text_of(name: &str) -> String {
    let dir = corpus();
    let path_of = |n: &str| {
        ["RaspberryPi", "Nordic"]
            .iter()
            .map(|vendor| dir.join(vendor).join(format!("{n}.svd")))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{n}.svd is not in the corpus"))
    };
    if name == "synthetic" {
        let largest = std::fs::read_to_string(path_of("nrf52840")).expect("nrf52840.svd reads");
        return synthetic::repeat(&largest, 11).expect("the synthetic SVD is made");
    }
    std::fs::read_to_string(path_of(name)).expect("the corpus file reads")
}

fn parse(name: &str, text: &str) -> Device {
    let mut sources = Sources::default();
    match frontend::parse(Format::Svd, name, Path::new(name), text, &mut sources) {
        Ok((device, _warnings)) => device,
        Err(errors) => panic!("{name} does not parse: {}", errors[0]),
    }
}

fn validate(mut device: Device) -> Device {
    device.canonicalize();
    let diagnostics = passes::run(&mut device, Mode::Lenient);
    assert!(
        diagnostics.iter().all(|d| !d.is_error()),
        "the input validates"
    );
    device.name = "bench".to_string();
    device
}

fn input(name: &str) -> &'static Input {
    static INPUTS: OnceLock<std::sync::Mutex<BTreeMap<String, &'static Input>>> = OnceLock::new();
    let map = INPUTS.get_or_init(Default::default);
    let mut map = map.lock().expect("the input cache is not poisoned");
    map.entry(name.to_string()).or_insert_with(|| {
        let text = text_of(name);
        let parsed = parse(name, &text);
        let validated = validate(parsed.clone());
        Box::leak(Box::new(Input {
            text,
            parsed,
            validated,
        }))
    })
}

#[divan::bench(args = INPUTS, sample_count = 10, sample_size = 1)]
fn parse_svd(bencher: divan::Bencher, name: &str) {
    let input = input(name);
    bencher.bench(|| parse(name, &input.text));
}

#[divan::bench(args = INPUTS, sample_count = 10, sample_size = 1)]
fn validate_ir(bencher: divan::Bencher, name: &str) {
    let input = input(name);
    bencher
        .with_inputs(|| input.parsed.clone())
        .bench_values(validate);
}

#[divan::bench(args = INPUTS, sample_count = 10, sample_size = 1)]
fn emit_rust(bencher: divan::Bencher, name: &str) {
    let input = input(name);
    let inputs = [format!("{name}.svd")];
    bencher.bench(|| {
        armreg_codegen::backend::rust::generate(
            &input.validated,
            "bench",
            &inputs,
            &armreg_codegen::backend::rust::Packaging::default(),
            armreg_codegen::backend::Outputs::default(),
        )
        .expect("the Rust crate generates")
    });
}

#[divan::bench(args = INPUTS, sample_count = 10, sample_size = 1)]
fn emit_c(bencher: divan::Bencher, name: &str) {
    let input = input(name);
    let inputs = [format!("{name}.svd")];
    bencher.bench(|| armreg_codegen::backend::c::generate(&input.validated, &inputs));
}
