//! System-register access on a target without the instruction.
//!
//! Generated accessors compile to one `mrs`/`msr`/`mrc`/`mcr`/`mrrc`/`mcrr` on the target that has
//! it. Everywhere else (the host building docs and running tests, or an AArch64 build calling an
//! AArch32 accessor) they call the handler installed here, so driver logic can be exercised against
//! an emulation. With no handler installed, an access panics naming the register, its encoding
//! and the line that accessed it (the accessors are `#[track_caller]` off target).
use core::sync::atomic::{AtomicPtr, Ordering};

use crate::SysRegPath;

/// What to do for system-register accesses that cannot be executed.
pub struct Handler {
    /// Called for a read; returns the register's value (zero-extended for 32-bit registers).
    pub read: fn(SysRegPath) -> u64,
    /// Called for a write with the value written.
    pub write: fn(SysRegPath, u64),
}

static HANDLER: AtomicPtr<Handler> = AtomicPtr::new(core::ptr::null_mut());

/// Installs `handler` for every later emulated access (replacing any earlier one).
pub fn install(handler: &'static Handler) {
    HANDLER.store(handler as *const Handler as *mut Handler, Ordering::Release);
}

/// Removes the installed handler.
pub fn uninstall() {
    HANDLER.store(core::ptr::null_mut(), Ordering::Release);
}

#[track_caller]
fn handler(name: &'static str, path: SysRegPath) -> &'static Handler {
    let ptr = HANDLER.load(Ordering::Acquire);
    // SAFETY: the pointer is null or came from a `&'static Handler` in `install`.
    match unsafe { ptr.as_ref() } {
        Some(h) => h,
        None => panic!(
            "{name} ({path}) accessed on a target without the instruction, and no emulation is \
             installed: call armreg_rt::host::install first, or build for the register's target"
        ),
    }
}

/// Emulated read of the register `name` at `path`.
#[track_caller]
pub fn read(name: &'static str, path: SysRegPath) -> u64 {
    (handler(name, path).read)(path)
}

/// Emulated write of `value` to the register `name` at `path`.
#[track_caller]
pub fn write(name: &'static str, path: SysRegPath, value: u64) {
    (handler(name, path).write)(path, value)
}
