//! What a generated model knows about its block: the description's access rules, as tables.
//!
//! The generator turns each block of a description into one [`BlockSpec`] (a `static`); the
//! engine in [`Model`](super::Model) applies it. Rules are bit masks over a register (bit n of a
//! mask is bit n of the register), one per kind of field access, so that a register whose fields
//! differ in access is handled bit by bit.

/// How software reaches a whole register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegKind {
    /// Read and write (field rules still apply).
    Rw,
    /// Read only: every write is ignored.
    Ro,
    /// Write only: reads give 0 (what is written is kept for the hooks).
    Wo,
    /// The write-1-to-set view of shared state number `.0` (an index into [`BlockSpec::states`]):
    /// reads give the state, writing 1s sets those bits of it.
    Set(usize),
    /// The write-1-to-clear view of shared state number `.0`.
    Clear(usize),
}

/// What each bit of a register does when read and written.
///
/// A bit in no mask is reserved or undescribed: it reads as 0 and ignores writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    /// Bits that read their stored value; every other bit reads as 0, except `res1` bits.
    pub readable: u64,
    /// Bits a write stores as written (rw, wo).
    pub write: u64,
    /// Bits only the first write after reset stores (rw-once, wo-once).
    pub once: u64,
    /// Writing 1 sets the bit.
    pub w1s: u64,
    /// Writing 1 clears the bit.
    pub w1c: u64,
    /// Writing 1 toggles the bit.
    pub w1t: u64,
    /// Writing 0 sets the bit.
    pub w0s: u64,
    /// Writing 0 clears the bit.
    pub w0c: u64,
    /// Writing 0 toggles the bit.
    pub w0t: u64,
    /// Any write sets the bit.
    pub wset: u64,
    /// Any write clears the bit.
    pub wclr: u64,
    /// Write-1 actions (PMCR.P, PMCR.C): writing 1 is reported to the hooks as an action; the
    /// bit stores nothing and reads as 0.
    pub action: u64,
    /// Reserved-one bits: always 1, whatever is written.
    pub res1: u64,
    /// Bits a read clears (read action `clear`).
    pub read_clear: u64,
    /// Bits a read sets (read action `set`).
    pub read_set: u64,
}

impl Bits {
    /// No bit does anything: every bit reads as 0 and ignores writes.
    pub const NONE: Bits = Bits {
        readable: 0,
        write: 0,
        once: 0,
        w1s: 0,
        w1c: 0,
        w1t: 0,
        w0s: 0,
        w0c: 0,
        w0t: 0,
        wset: 0,
        wclr: 0,
        action: 0,
        res1: 0,
        read_clear: 0,
        read_set: 0,
    };

    /// Bits a write can change in some way (what a set or clear view acts on).
    pub const fn writable(&self) -> u64 {
        self.write
            | self.once
            | self.w1s
            | self.w1c
            | self.w1t
            | self.w0s
            | self.w0c
            | self.w0t
            | self.wset
            | self.wclr
    }
}

/// One register of a block, or one array of registers.
#[derive(Clone, Copy, Debug)]
pub struct RegSpec {
    /// The description's name (an array's holds `<n>`).
    pub name: &'static str,
    /// Offset in the block of the register (of element 0 for an array).
    pub offset: usize,
    /// Width in bytes.
    pub bytes: usize,
    /// Elements: 1 for a single register.
    pub count: usize,
    /// Bytes between elements (0 for a single register).
    pub stride: usize,
    /// How the whole register is reached.
    pub kind: RegKind,
    /// The value at reset: bits without a described reset are 0, RES1 bits 1.
    pub reset: u64,
    /// What each bit does.
    pub bits: Bits,
}

/// A CoreSight-style software lock (PMLAR/PMLSR): while locked, writes to every register but the
/// lock access register are ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockSpec {
    /// The register writes go to (an index into [`BlockSpec::registers`]): the key unlocks, any
    /// other value locks.
    pub access: usize,
    /// The status register (an index into [`BlockSpec::registers`]).
    pub status: usize,
    /// The unlock key.
    pub key: u64,
    /// The status bit that reads 1 while locked (PMLSR.SLK); its reset value is the lock's state
    /// at reset.
    pub locked: u64,
}

/// A block as the model sees it.
#[derive(Clone, Copy, Debug)]
pub struct BlockSpec {
    /// The description's name.
    pub name: &'static str,
    /// Size in bytes.
    pub size: usize,
    /// The widest access the block's bus makes, in bytes.
    pub bus_bytes: usize,
    /// The registers, by offset; aliases are left out (an access reaches the register aliased).
    pub registers: &'static [RegSpec],
    /// The shared states the set/clear views act on, by name.
    pub states: &'static [&'static str],
    /// The software lock, where the description states one.
    pub lock: Option<LockSpec>,
}
