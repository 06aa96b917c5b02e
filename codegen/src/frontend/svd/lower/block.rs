//! A peripheral's register map as an IR block: its registers, size and bus access width.
use std::collections::BTreeMap;

use super::clusters::Items;
use super::effective::EffectivePeripheral;
use super::names::{plain_name, unique};
use super::properties::{Properties, Scope};
use super::text::doc_text;
use super::Lower;
use crate::ir::{Block, BlockArray, BlockRegister, Cluster};
use crate::names::Case;
use svd_rs::Protection;

impl Lower<'_, '_> {
    /// The block of peripheral `peripheral`, whose registers take `props` where they give none.
    pub(super) fn block(
        &mut self,
        peripheral: usize,
        effective: &EffectivePeripheral,
        props: Properties,
    ) -> Block {
        let owner = effective.items_from.unwrap_or(peripheral);
        let base_name = effective
            .header_struct
            .clone()
            .unwrap_or_else(|| plain_name(&self.peripherals[owner].info.name));
        let base_name = if base_name.is_empty() {
            self.peripherals[peripheral].info.name.clone()
        } else {
            base_name
        };
        let name = unique(&mut self.block_idents, &base_name, Case::Camel);
        let pos = self.name_pos(self.peripherals[owner].node);
        let doc = join_paragraphs(
            doc_text(effective.description.as_deref()),
            self.address_blocks_text(effective.address_blocks_from),
        );
        // `disableCondition` is a C expression a debugger evaluates (svd-rs does not read it):
        // it is told, not used.
        let disabled = self
            .doc
            .child(self.peripherals[owner].node, "disableCondition")
            .and_then(|element| self.doc.text_of(element))
            .map(|condition| format!("Not accessible while `{}`.", condition.trim()));
        let doc = join_paragraphs(doc, disabled);
        let items = match effective.items_from {
            Some(from) => self.peripherals[from].items.clone().unwrap_or_default(),
            None => Vec::new(),
        };
        self.expanded = 0;
        let mut items_out = Items::default();
        let scope = Scope {
            props,
            base_steps: 0,
        };
        self.lower_items(&items, scope, &name, &mut items_out);
        let Items {
            registers,
            clusters,
        } = items_out;
        let extent = self.extent(&registers, &clusters);
        let declared = self.peripherals[effective.address_blocks_from]
            .info
            .address_block
            .iter()
            .flatten()
            .map(|address_block| u64::from(address_block.offset) + u64::from(address_block.size))
            .max()
            .unwrap_or(0);
        let access_width = self.access_width(&registers);
        Block {
            name,
            size: extent.max(declared),
            access_width,
            doc,
            source: None,
            pos,
            registers,
            clusters,
            lock: None,
        }
    }

    /// The bytes from a block's base to the end of its last register or placed cluster.
    pub(super) fn extent(&self, registers: &[BlockRegister], clusters: &[Cluster]) -> u64 {
        let last = |array: Option<BlockArray>| {
            array.map_or(0, |array| {
                array
                    .stride
                    .saturating_mul(u64::from(array.count.saturating_sub(1)))
            })
        };
        let of_registers = registers.iter().map(|register| {
            let bytes = self
                .layout_widths
                .get(&register.layout.name)
                .map_or(4, |width| u64::from(width / 8));
            register
                .offset
                .saturating_add(last(register.array))
                .saturating_add(bytes)
        });
        let of_clusters = clusters.iter().map(|cluster| {
            let bytes = self
                .nested_blocks
                .iter()
                .find(|nested| nested.name == cluster.block.name)
                .map_or(0, |nested| nested.size);
            cluster
                .offset
                .saturating_add(last(cluster.array))
                .saturating_add(bytes)
        });
        of_registers.chain(of_clusters).max().unwrap_or(0)
    }

    /// The address blocks of peripheral `peripheral`, for the block's documentation: what each
    /// range holds (`usage`) and which accesses it answers (`protection`), when there is more to
    /// say than one range of registers.
    fn address_blocks_text(&self, peripheral: usize) -> Option<String> {
        let blocks = self.peripherals[peripheral].info.address_block.as_ref()?;
        // One range of registers with no protection says nothing the size does not.
        let plain = |block: &svd_rs::AddressBlock| {
            block.usage == svd_rs::AddressBlockUsage::Registers && block.protection.is_none()
        };
        if blocks.len() == 1 && blocks.iter().all(plain) {
            return None;
        }
        let described: Vec<String> = blocks
            .iter()
            .map(|block| {
                let protection = match block.protection {
                    Some(Protection::Secure) => ", secure accesses only",
                    Some(Protection::NonSecure) => ", secure and non-secure accesses",
                    Some(Protection::Privileged) => ", privileged accesses only",
                    None => "",
                };
                format!(
                    "{:#x}..{:#x}: {}{protection}",
                    block.offset,
                    u64::from(block.offset) + u64::from(block.size),
                    block.usage.as_str()
                )
            })
            .collect();
        (!described.is_empty()).then(|| format!("Address blocks: {}.", described.join("; ")))
    }

    /// The register width most registers have (the narrowest of the most common, on a tie), or
    /// the narrowest register's when that is narrower: a block is accessed no wider than its
    /// narrowest register. 32 for a block without registers.
    pub(super) fn access_width(&self, registers: &[BlockRegister]) -> u32 {
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for register in registers {
            if let Some(&width) = self.layout_widths.get(&register.layout.name) {
                *counts.entry(width).or_default() += 1;
            }
        }
        let Some(&narrowest) = counts.keys().next() else {
            return 32;
        };
        let most = counts
            .iter()
            .max_by_key(|(width, count)| (**count, std::cmp::Reverse(**width)))
            .map_or(32, |(width, _)| *width);
        most.min(narrowest)
    }
}

/// Two optional paragraphs as one text.
fn join_paragraphs(first: Option<String>, second: Option<String>) -> Option<String> {
    match (first, second) {
        (Some(first), Some(second)) => Some(format!("{first}\n\n{second}")),
        (first, second) => first.or(second),
    }
}
