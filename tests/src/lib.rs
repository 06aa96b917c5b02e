//! Host integration tests of the generated crates (see `tests/`): encodings and offsets against an
//! independent table from FACTS.md, host emulation of system registers, and the zero-cost check of
//! generated accessors disassembled for Arm targets.
