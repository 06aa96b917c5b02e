//! Several models at their base addresses: a memory map, for drivers that reach blocks by
//! absolute address (per-CPU frames at their SoC addresses).
use std::vec::Vec;

use super::Model;
use crate::mmio::{Bus, SafeBus};
use crate::Word;

/// Models placed at base addresses; an access goes to the model whose block holds the address.
#[derive(Debug, Default)]
pub struct System<'m> {
    blocks: Vec<(usize, &'m Model)>,
}

impl<'m> System<'m> {
    /// An empty memory map.
    pub fn new() -> Self {
        System { blocks: Vec::new() }
    }

    /// Places `model` at `base`. Panics if it overlaps a block already placed.
    pub fn map(mut self, base: usize, model: &'m Model) -> Self {
        let end = base + model.spec().size;
        if let Some((b, m)) = self
            .blocks
            .iter()
            .find(|(b, m)| base < b + m.spec().size && *b < end)
        {
            panic!(
                "block `{}` at {base:#x} overlaps block `{}` at {b:#x}",
                model.spec().name,
                m.spec().name
            );
        }
        self.blocks.push((base, model));
        self
    }

    /// The model holding `addr`, and the offset in it.
    fn find(&self, addr: usize) -> (&'m Model, usize) {
        self.blocks
            .iter()
            .find(|(b, m)| addr >= *b && addr - b < m.spec().size)
            .map(|(b, m)| (*m, addr - b))
            .unwrap_or_else(|| panic!("no block is mapped at address {addr:#x}"))
    }
}

impl Bus for &System<'_> {
    #[inline]
    unsafe fn read<W: Word>(self, addr: usize) -> W {
        let (model, offset) = self.find(addr);
        W::from_u64(model.load(offset, W::BITS as usize / 8))
    }
    #[inline]
    unsafe fn write<W: Word>(self, addr: usize, value: W) {
        let (model, offset) = self.find(addr);
        model.store(offset, W::BITS as usize / 8, value.to_u64())
    }
}

// SAFETY: every access goes to a model (which touches only its own storage) or panics.
unsafe impl SafeBus for &System<'_> {}
