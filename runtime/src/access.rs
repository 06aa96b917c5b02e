//! How software may reach a whole register: the marker types a register handle carries
//! (`mmio::Reg<L, A>`, an array of them, a system-register array), and the rules that decide
//! which of its methods exist.
//!
//! A read-modify-write must never trigger a side effect the program did not ask for, and a read
//! with a side effect must say so where it is written:
//! - [`Rw`]: `read`, `write`, and `modify`, which hands its closure the value read with every
//!   side-effect field neutral (write-1-to-clear flags 0, ...; see
//!   [`Value::neutral`](crate::Value::neutral)), so that writing it back acts only on what the
//!   closure set. One flag is acknowledged with `clear_flag`, `set_flag`, `toggle_flag` or
//!   `trigger`, which leave the other flags and the ordinary fields as they were.
//! - [`RwWriteActs`]: a field acts on *any* write (write-clear, write-set), so no write leaves
//!   it alone: no `modify`; `modify_with_side_effects` names what it does.
//! - [`RoReadActs`], [`RwReadActs`]: reading has a side effect (a FIFO pops, a flag clears):
//!   no `read` and no `modify`; `read_with_side_effects` and `modify_with_side_effects`.
//! - [`Ro`], [`Wo`]: read only, write only.
//! - [`SetView`], [`ClearView`]: the write-1-to-set and write-1-to-clear views of a shared
//!   state: `read`, and `set` or `clear` of a mask.

/// Read and write; `modify` leaves every side-effect field alone unless asked.
pub enum Rw {}
/// Read only.
pub enum Ro {}
/// Write only.
pub enum Wo {}
/// The write-1-to-set view of a shared state: reads give the state, writing 1s sets those bits.
pub enum SetView {}
/// The write-1-to-clear view of a shared state: reads give the state, writing 1s clears those bits.
pub enum ClearView {}
/// Read and write, where some field acts on every write whatever its value (write-clear,
/// write-set): no read-modify-write leaves it alone.
pub enum RwWriteActs {}
/// Read only, and reading has a side effect.
pub enum RoReadActs {}
/// Read and write, and reading has a side effect.
pub enum RwReadActs {}

/// Access markers whose registers are read with `read`: the read has no side effect.
#[diagnostic::on_unimplemented(
    message = "a register marked `{Self}` has no `read`",
    label = "no plain read",
    note = "a write-only register cannot be read; one whose read has a side effect (a FIFO pops, a flag clears) is read with `read_with_side_effects`, so that the effect shows where it happens"
)]
pub trait Readable {}
impl Readable for Rw {}
impl Readable for Ro {}
impl Readable for SetView {}
impl Readable for ClearView {}
impl Readable for RwWriteActs {}

/// Access markers whose registers are read with `read_with_side_effects`.
#[diagnostic::on_unimplemented(
    message = "a register marked `{Self}` has no `read_with_side_effects`: its reads have none",
    note = "read it with `read`"
)]
pub trait ReadsWithSideEffects {}
impl ReadsWithSideEffects for RoReadActs {}
impl ReadsWithSideEffects for RwReadActs {}

/// Access markers that allow writing a whole value.
#[diagnostic::on_unimplemented(
    message = "a register marked `{Self}` has no `write`",
    label = "not writable",
    note = "a read-only register cannot be written; a set or clear view is written with `set` or `clear` of a mask"
)]
pub trait Writable {}
impl Writable for Rw {}
impl Writable for Wo {}
impl Writable for RwWriteActs {}
impl Writable for RwReadActs {}

/// Access markers whose registers have a `modify` that triggers nothing unasked.
#[diagnostic::on_unimplemented(
    message = "a register marked `{Self}` has no `modify`: no read-modify-write of it is free of side effects",
    label = "no side-effect-free read-modify-write",
    note = "where a field acts on any write (write-clear, write-set) or the read has a side effect, `modify_with_side_effects` does the read-modify-write and says so; a read-only, write-only or set/clear register has no read-modify-write at all"
)]
pub trait Modify: Readable + Writable {}
impl Modify for Rw {}

/// Access markers whose registers are read-modify-written only with
/// `modify_with_side_effects`.
#[diagnostic::on_unimplemented(
    message = "a register marked `{Self}` has no `modify_with_side_effects`",
    note = "use `modify`: its read-modify-write triggers no side effect it is not asked for"
)]
pub trait ModifyWithSideEffects: Writable {}
impl ModifyWithSideEffects for RwWriteActs {}
impl ModifyWithSideEffects for RwReadActs {}
