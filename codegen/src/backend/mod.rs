//! Backends: each reads the validated IR and writes one kind of output.
pub mod rust;
