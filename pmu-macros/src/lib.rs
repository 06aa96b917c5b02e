//! Compile-time checked PMU event declarations.
//!
//! The event-set macros are not implemented yet: this crate is the place they will live, with
//! their expansion logic in plain functions over `proc_macro2` tokens and this proc-macro layer
//! kept thin.
