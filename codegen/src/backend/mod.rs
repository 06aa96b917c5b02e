//! Backends: each reads the validated IR and writes one kind of output.
pub mod c;
pub mod diagram;
pub mod reset;
pub mod rust;
pub mod site;
