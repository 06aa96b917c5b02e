//! A cell written once at run time and then shared, also with interrupt handlers: how the PMU
//! driver (built from register reads, so not in a `static` initialiser) reaches the PMU interrupt.
use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU8, Ordering};

const EMPTY: u8 = 0;
const WRITING: u8 = 1;
const READY: u8 = 2;

/// A value set at most once.
pub struct Once<T> {
    value: UnsafeCell<MaybeUninit<T>>,
    state: AtomicU8,
}

// SAFETY: the value is written once, before `state` becomes READY (release), and only read as `&T`
// after READY is seen (acquire); sharing `&T` between contexts needs `T: Sync`, moving it in `Send`.
unsafe impl<T: Sync + Send> Sync for Once<T> {}

impl<T> Once<T> {
    /// An empty cell.
    pub const fn new() -> Self {
        Self {
            value: UnsafeCell::new(MaybeUninit::uninit()),
            state: AtomicU8::new(EMPTY),
        }
    }

    /// Stores `value` and returns it; a second call is a failed test.
    pub fn set(&self, value: T) -> &T {
        if self
            .state
            .compare_exchange(EMPTY, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            crate::report::fail(format_args!("Once::set called twice"));
        }
        // SAFETY: the state was EMPTY and is now WRITING: nobody else writes or reads the value.
        unsafe { (*self.value.get()).write(value) };
        self.state.store(READY, Ordering::Release);
        match self.get() {
            Some(v) => v,
            None => crate::report::fail(format_args!("Once lost its value")),
        }
    }

    /// The value, once set.
    pub fn get(&self) -> Option<&T> {
        if self.state.load(Ordering::Acquire) == READY {
            // SAFETY: READY means the value was fully written and is never written again.
            Some(unsafe { (*self.value.get()).assume_init_ref() })
        } else {
            None
        }
    }
}

impl<T> Default for Once<T> {
    fn default() -> Self {
        Self::new()
    }
}
