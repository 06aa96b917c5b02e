//! Host integration tests of the generated crates (see `tests/`): encodings and offsets against an
//! independent table typed in from the primary sources (Arm ARM DDI0487, Linux), host emulation of
//! system registers, and the zero-cost check of generated accessors disassembled for Arm targets.
