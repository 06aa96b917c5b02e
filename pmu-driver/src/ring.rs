//! A fixed-capacity ring of samples, filled by the overflow handler and drained by the program.
//!
//! Every field of every entry is an atomic, so the ring needs no `unsafe`: the handler (the one
//! producer) fills entry `head` and then publishes it by advancing `head`; a consumer reads entry
//! `tail` and then claims it by advancing `tail` with a compare-and-swap. The producer reuses an
//! entry only after `tail` has moved past it, so a consumer whose swap succeeds read an entry
//! nobody was writing. When the ring is full a new sample is dropped, and counted.
use core::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering::SeqCst};

/// One overflow of a sampling counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Sample {
    /// The counter's index (31: the cycle counter).
    pub counter: u8,
    /// Where the program was interrupted (the handler's caller passes it in).
    pub pc: usize,
    /// The counter's 64-bit total when the sample was taken.
    pub total: u64,
}

struct Entry {
    counter: AtomicU8,
    pc: AtomicUsize,
    total: AtomicU64,
}

impl Entry {
    const fn new() -> Self {
        Self {
            counter: AtomicU8::new(0),
            pc: AtomicUsize::new(0),
            total: AtomicU64::new(0),
        }
    }
}

/// Up to `CAP` samples.
pub struct SampleRing<const CAP: usize> {
    entries: [Entry; CAP],
    /// Samples ever pushed (wrapping); the next entry to fill is `head % CAP`.
    head: AtomicUsize,
    /// Samples ever taken out (wrapping).
    tail: AtomicUsize,
    dropped: AtomicU32,
}

impl<const CAP: usize> SampleRing<CAP> {
    /// An empty ring (usable in a `static`).
    pub const fn new() -> Self {
        Self {
            entries: [const { Entry::new() }; CAP],
            head: AtomicUsize::new(0),
            tail: AtomicUsize::new(0),
            dropped: AtomicU32::new(0),
        }
    }

    /// The number of samples it can hold.
    pub const fn capacity(&self) -> usize {
        CAP
    }

    /// Adds a sample, or counts it as dropped when the ring is full. Only one context may push
    /// (the overflow handler).
    pub(crate) fn push(&self, sample: Sample) -> bool {
        let head = self.head.load(SeqCst);
        if head.wrapping_sub(self.tail.load(SeqCst)) >= CAP {
            self.dropped.fetch_add(1, SeqCst);
            return false;
        }
        let entry = &self.entries[head % CAP];
        entry.counter.store(sample.counter, SeqCst);
        entry.pc.store(sample.pc, SeqCst);
        entry.total.store(sample.total, SeqCst);
        self.head.store(head.wrapping_add(1), SeqCst);
        true
    }

    /// Takes out the oldest sample.
    pub fn pop(&self) -> Option<Sample> {
        loop {
            let tail = self.tail.load(SeqCst);
            if tail == self.head.load(SeqCst) {
                return None;
            }
            let entry = &self.entries[tail % CAP];
            let sample = Sample {
                counter: entry.counter.load(SeqCst),
                pc: entry.pc.load(SeqCst),
                total: entry.total.load(SeqCst),
            };
            if self
                .tail
                .compare_exchange(tail, tail.wrapping_add(1), SeqCst, SeqCst)
                .is_ok()
            {
                return Some(sample);
            }
        }
    }

    /// The number of samples waiting.
    pub fn len(&self) -> usize {
        self.head.load(SeqCst).wrapping_sub(self.tail.load(SeqCst))
    }

    /// Whether no sample is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Samples dropped because the ring was full.
    pub fn dropped(&self) -> u32 {
        self.dropped.load(SeqCst)
    }
}

impl<const CAP: usize> Default for SampleRing<CAP> {
    fn default() -> Self {
        Self::new()
    }
}
