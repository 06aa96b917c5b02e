//! What the virtual timer interrupt runs: a closure a test hands over for the time its tick is
//! armed (a multiplexing session's rotation, with the re-arm of the timer).
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

/// A closure the interrupt handler calls, type-erased: a pointer to it and a function that knows
/// its type.
pub struct Hook {
    target: AtomicPtr<()>,
    call: AtomicPtr<()>,
}

/// The timer interrupt's hook.
pub static TICK: Hook = Hook {
    target: AtomicPtr::new(ptr::null_mut()),
    call: AtomicPtr::new(ptr::null_mut()),
};

/// Calls the `F` at `target`.
///
/// # Safety
/// `target` points to a live `F` that nothing else uses during the call.
unsafe fn call<F: FnMut()>(target: *mut ()) {
    // SAFETY: the caller's guarantee: a live `F`, used by nothing else now.
    unsafe { (*target.cast::<F>())() }
}

impl Hook {
    /// Hands `f` to the interrupt handler.
    ///
    /// # Safety
    /// Until [`clear`](Self::clear), `f` must stay alive and nothing else may use it or what it
    /// borrows mutably: the interrupt may run it between any two instructions.
    pub unsafe fn set<F: FnMut()>(&self, f: &mut F) {
        let call: unsafe fn(*mut ()) = call::<F>;
        self.call.store(call as *mut (), Ordering::SeqCst);
        self.target
            .store(ptr::from_mut(f).cast::<()>(), Ordering::SeqCst);
    }

    /// Takes the closure back: the handler no longer calls it.
    pub fn clear(&self) {
        self.target.store(ptr::null_mut(), Ordering::SeqCst);
    }

    /// From the interrupt handler: runs the closure, if one is set.
    pub fn run(&self) {
        let target = self.target.load(Ordering::SeqCst);
        if target.is_null() {
            return;
        }
        let call = self.call.load(Ordering::SeqCst);
        // SAFETY: `call` was stored from an `unsafe fn(*mut ())` in `set`, before `target`
        // (both SeqCst), and function and data pointers have the same size on these targets.
        let call: unsafe fn(*mut ()) = unsafe { core::mem::transmute(call) };
        // SAFETY: `set`'s contract: `target` is a live closure of the type `call` expects, and
        // the interrupted code does not touch it.
        unsafe { call(target) }
    }
}
