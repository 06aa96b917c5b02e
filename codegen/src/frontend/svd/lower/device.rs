//! The device: one block per distinct register map, and an instance for every peripheral (and
//! every element of a peripheral array).
use std::collections::BTreeMap;

use super::effective::EffectivePeripheral;
use super::license::{license_text, spdx_identifier};
use super::names::{indexes, substitute};
use super::properties::Properties;
use super::text::doc_text;
use super::Lower;
use crate::diagnostic::Diagnostic;
use crate::ir::{Cpu, Device, Instance, Interrupt, NameRef};
use crate::rules::{ALTERNATES_RESOLVE, NO_DUPLICATE_NAMES};

impl Lower<'_, '_> {
    pub(super) fn device(&mut self) -> Device {
        let svd_device = self.svd_device;
        let device_props = self.props(&svd_device.default_register_properties, 0);
        let mut device = Device {
            name: svd_device.name.clone(),
            doc: doc_text(Some(&svd_device.description)),
            source: Some(
                [
                    "CMSIS-SVD",
                    svd_device.vendor.as_deref().unwrap_or(""),
                    &svd_device.name,
                    &svd_device.version,
                ]
                .iter()
                .filter(|part| !part.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            ),
            license: svd_device.license_text.as_deref().and_then(spdx_identifier),
            notice: svd_device.license_text.as_deref().map(|text| {
                format!(
                    "The register descriptions come from the CMSIS-SVD file of the {}, whose licence statement reads:\n\n{}",
                    svd_device.name,
                    license_text(text)
                )
            }),
            pos: self.name_pos(0),
            layouts: Vec::new(),
            sysregs: Vec::new(),
            blocks: Vec::new(),
            instances: Vec::new(),
            events: Vec::new(),
            event_pmu: None,
            event_type: None,
            cores: Vec::new(),
            cpu: svd_device.cpu.as_ref().map(|cpu| Cpu {
                name: cpu.name.clone(),
                revision: cpu.revision.clone(),
                endian: cpu.endian.as_str().to_string(),
                mpu_present: cpu.mpu_present,
                fpu_present: cpu.fpu_present,
                nvic_prio_bits: cpu.nvic_priority_bits,
                vendor_systick_config: cpu.has_vendor_systick,
                features: [
                    ("fpuDP", cpu.fpu_double_precision),
                    ("dspPresent", cpu.dsp_present),
                    ("icachePresent", cpu.icache_present),
                    ("dcachePresent", cpu.dcache_present),
                    ("itcmPresent", cpu.itcm_present),
                    ("dtcmPresent", cpu.dtcm_present),
                    ("vtorPresent", cpu.vtor_present),
                ]
                .into_iter()
                .filter_map(|(name, given)| Some((name.to_string(), given?)))
                .collect(),
                interrupts: cpu.device_num_interrupts,
                sau_regions: cpu.sau_num_regions,
                pos: self.name_pos(self.doc.child(0, "cpu").unwrap_or(0)),
            }),
            amendments: Vec::new(),
            differences: Vec::new(),
        };
        // (the peripheral whose registers are used, props) -> block name
        let mut blocks: BTreeMap<(usize, Properties), String> = BTreeMap::new();
        for peripheral in 0..self.peripherals.len() {
            let effective = self.effective_peripheral(peripheral);
            let props = effective.props.derive(device_props);
            let key = (effective.items_from.unwrap_or(peripheral), props);
            let block = match blocks.get(&key) {
                Some(name) => name.clone(),
                None => {
                    let block = self.block(peripheral, &effective, props);
                    let name = block.name.clone();
                    device.blocks.push(block);
                    blocks.insert(key, name.clone());
                    name
                }
            };
            self.instances(peripheral, &effective, &block, &mut device.instances);
        }
        device.blocks.append(&mut self.nested_blocks);
        device.layouts = std::mem::take(&mut self.layouts);
        device.canonicalize();
        device
    }

    /// The instances of peripheral `peripheral` (one per element of an array) of `block`.
    fn instances(
        &mut self,
        peripheral: usize,
        effective: &EffectivePeripheral,
        block: &str,
        out: &mut Vec<Instance>,
    ) {
        let located = &self.peripherals[peripheral];
        let (info, node, dim) = (located.info, located.node, located.dim);
        let mut interrupts: Vec<Interrupt> = Vec::new();
        for (interrupt, interrupt_node) in self.peripherals[effective.interrupts_from]
            .interrupts
            .clone()
        {
            let pos = self.name_pos(interrupt_node);
            // ST lists the interrupt of a shared vector once per peripheral that raises it,
            // sometimes several times in one peripheral: one line is one interrupt.
            let same_name = interrupts.iter().find(|kept| kept.name == interrupt.name);
            if let Some(kept) = same_name {
                let message = if kept.value == interrupt.value {
                    format!(
                        "interrupt `{}` ({}) is listed again in peripheral `{}`; kept one",
                        interrupt.name, interrupt.value, info.name
                    )
                } else {
                    format!(
                        "interrupt `{}` is {} and {} in peripheral `{}`; kept {}",
                        interrupt.name, kept.value, interrupt.value, info.name, kept.value
                    )
                };
                let first = kept.pos.clone();
                // A derived peripheral repeats its base's list: one warning per element.
                if !self
                    .reported
                    .insert((interrupt_node, NO_DUPLICATE_NAMES.name))
                {
                    continue;
                }
                self.warnings.push(
                    Diagnostic::warning(NO_DUPLICATE_NAMES, &pos, message)
                        .with_note(&first, "the one kept"),
                );
                continue;
            }
            interrupts.push(Interrupt {
                name: interrupt.name.clone(),
                value: interrupt.value,
                doc: doc_text(interrupt.description.as_deref()),
                pos,
            });
        }
        let alias_of = info.alternate_peripheral.as_ref().and_then(|alternate| {
            let pos = self.child_pos(node, "alternatePeripheral");
            if self.peripheral_by_name(alternate).is_some() {
                Some(NameRef {
                    name: alternate.clone(),
                    pos,
                })
            } else {
                self.warn_once(
                    node,
                    ALTERNATES_RESOLVE,
                    pos,
                    format!(
                        "alternatePeripheral `{alternate}` names no peripheral of this device; ignored it"
                    ),
                );
                None
            }
        });
        let pos = self.name_pos(node);
        let elements: Vec<(String, u64)> = match dim {
            None => vec![(info.name.clone(), info.base_address)],
            Some(dim) => indexes(dim)
                .iter()
                .enumerate()
                .map(|(i, index)| {
                    (
                        substitute(&info.name, index),
                        info.base_address
                            .saturating_add(i as u64 * u64::from(dim.dim_increment)),
                    )
                })
                .collect(),
        };
        for (name, base) in elements {
            out.push(Instance {
                name,
                block: NameRef {
                    name: block.to_string(),
                    pos: pos.clone(),
                },
                base,
                alias_of: alias_of.clone(),
                interrupts: interrupts.clone(),
                doc: doc_text(effective.description.as_deref()),
                source: None,
                pos: pos.clone(),
            });
        }
    }
}
