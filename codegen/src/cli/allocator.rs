//! mimalloc's settings for a short-lived process.
//!
//! By default mimalloc returns freed memory to the OS soon after it is freed, and the next
//! allocation faults it back in zeroed: on an input 11 times nrf52840, clearing those pages was
//! 40 % of the run, and the parse phase grew 13 times for 11 times the input. A run lasts seconds
//! and its peak is what it holds anyway, so freed memory is kept until exit.
//!
//! Transparent huge pages are off at build time (the `no_thp` feature of `libmimalloc-sys`): with
//! them, a quarter of the runs on rp2040 and nrf52840 took 2 to 3 times the median, the time
//! spent in the kernel, and the peak nearly doubled (rp2040: 70 MB against 37).

/// `mi_option_purge_delay` (`mimalloc.h`, the same number in mimalloc 2 and 3; the Rust bindings
/// name no constant for it): milliseconds before freed memory is returned to the OS, -1 for never.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory in the process until it exits.
pub fn keep_freed_memory() {
    // SAFETY: setting an option is a plain store in mimalloc's option table, valid at any time.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_is_the_purge_delay() {
        // The option after it in the Rust bindings pins its number; by default purging is on
        // (a delay of 10 ms in mimalloc 2, 1 s in mimalloc 3).
        assert_eq!(libmimalloc_sys::mi_option_use_numa_nodes - 1, PURGE_DELAY);
        // SAFETY: reading an option is a plain load from mimalloc's option table.
        assert!(unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) } > 0);
        keep_freed_memory();
        // SAFETY: reading an option is a plain load from mimalloc's option table.
        assert_eq!(unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }, -1);
    }
}
