//! One SVD register as block registers: an IR array when it is indexed 0..n-1, else one
//! register per element; its size checked and narrowed to what its offset allows.
use super::access::{read_action, register_access};
use super::locate::Item;
use super::names::{array_name, index_names, indexes, join, plain_name, substitute, zero_based};
use super::properties::Scope;
use super::text::doc_text;
use super::Lower;
use crate::ir::{BlockArray, BlockRegister, NameRef, RegAccess};
use crate::rules::{
    ALTERNATES_RESOLVE, REGISTERS_ALIGNED, REGISTER_ACCESS_FITS_FIELDS, REGISTER_SIZES_SUPPORTED,
};

impl Lower<'_, '_> {
    pub(super) fn lower_register(
        &mut self,
        register: usize,
        scope: Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        let effective = self.effective_register(register);
        let located = &self.registers[register];
        let (info, node, parent) = (located.info, located.node, located.parent);
        let props = effective.props.derive(scope.props);
        let (size, size_node) = props.size.unwrap_or((32, node));
        let size = match size {
            8 | 16 | 32 | 64 => size,
            // A register of a width no bus access has (1-bit status registers at byte offsets,
            // 24- or 48-bit ones) is reached with the next access wide enough: its fields fit.
            1..=63 => {
                let widened = size.next_power_of_two().max(8);
                let pos = self.pos(self.doc.text_span(size_node));
                self.warn_once(
                    size_node,
                    REGISTER_SIZES_SUPPORTED,
                    pos,
                    format!(
                        "register `{}` is {size} bit{} wide, and no access is; read it as a{} {widened}-bit register",
                        info.name,
                        if size == 1 { "" } else { "s" },
                        if widened == 8 { "n" } else { "" }
                    ),
                );
                widened
            }
            _ => {
                let pos = self.pos(self.doc.text_span(size_node));
                self.error_once(
                    size_node,
                    REGISTER_SIZES_SUPPORTED,
                    pos,
                    format!("register size {size} is not 1 to 64 bits: no access reaches it"),
                );
                return;
            }
        };
        let name = match &info.alternate_group {
            Some(group) => format!("{}_{group}", info.name),
            None => info.name.clone(),
        };
        let flat = name.clone();
        let offset = u64::from(info.address_offset);
        // A register is reached with accesses of its size (64-bit ones in 32-bit halves), so
        // its offset (and its arrays' strides) must be multiples of that.
        let steps =
            offset | effective.dim.map_or(0, |dim| u64::from(dim.dim_increment)) | scope.base_steps;
        let align = 1u64 << steps.trailing_zeros().min(3);
        let size = if align < u64::from(size.min(32) / 8) {
            let narrowed = (align * 8) as u32;
            let pos = self.name_pos(node);
            self.warn_once(
                node,
                REGISTERS_ALIGNED,
                pos,
                format!(
                    "register `{flat}` at offset {offset:#x}{} is not aligned to its {size}-bit size; read it as a {narrowed}-bit register",
                    if steps == offset { String::new() } else { " (with its array stride or its cluster's placement)".to_string() }
                ),
            );
            narrowed
        } else {
            size
        };
        let layout_name = join(block, &plain_name(&name));
        let layout = self.layout(register, &effective, props, size, &layout_name);
        let access =
            self.access_fitting_fields(register_access(props.access()), &layout, node, &info.name);
        let alias_of = info.alternate_register.as_ref().and_then(|alternate| {
            let alternate_pos = self.child_pos(node, "alternateRegister");
            let target = self
                .siblings(parent)
                .into_iter()
                .find_map(|sibling| match sibling {
                    Item::Register(other) if self.registers[other].info.name == *alternate => {
                        Some(self.registers[other].info)
                    }
                    _ => None,
                });
            if let Some(target) = target.filter(|_| !alternate.contains("%s")) {
                let name = match &target.alternate_group {
                    Some(group) => format!("{alternate}_{group}"),
                    None => alternate.clone(),
                };
                Some(NameRef {
                    name,
                    pos: alternate_pos,
                })
            } else {
                self.warn_once(
                    node,
                    ALTERNATES_RESOLVE,
                    alternate_pos,
                    format!(
                        "alternateRegister `{alternate}` names no single register beside `{}`; ignored it",
                        info.name
                    ),
                );
                None
            }
        });
        let pos = self.name_pos(node);
        // The C type a header would give the register (`dataType`) is told, not used: the
        // Rust type is the layout's.
        let doc = match (doc_text(effective.description), info.datatype) {
            (doc, None) => doc,
            (doc, Some(data_type)) => Some(format!(
                "{}Its C type is `{}`.",
                doc.map(|text| format!("{text}\n\n")).unwrap_or_default(),
                data_type.as_str()
            )),
        };
        // `%s` in a description is the element's index, or `n` in an array kept whole.
        let doc_of = |index: &str| doc.as_deref().map(|text| substitute(text, index));
        let make = |name: String, offset: u64, array: Option<BlockArray>, doc| BlockRegister {
            name,
            layout: NameRef {
                name: layout.clone(),
                pos: pos.clone(),
            },
            offset,
            access: access.clone(),
            array,
            alias_of: alias_of.clone(),
            read_action: effective.read_action.map(read_action),
            protection: props.protection(),
            index_names: Vec::new(),
            doc,
            source: None,
            pos: pos.clone(),
        };
        match effective.dim {
            None => out.push(make(flat, offset, None, doc_of("n"))),
            Some(dim) if zero_based(dim) => out.push(BlockRegister {
                index_names: index_names(dim),
                ..make(
                    array_name(&name),
                    offset,
                    Some(BlockArray {
                        count: dim.dim,
                        stride: u64::from(dim.dim_increment),
                    }),
                    doc_of("n"),
                )
            }),
            Some(dim) => {
                for (i, index) in indexes(dim).iter().enumerate() {
                    out.push(make(
                        substitute(&name, index),
                        offset.saturating_add(
                            (i as u64).saturating_mul(u64::from(dim.dim_increment)),
                        ),
                        None,
                        doc_of(index),
                    ));
                }
            }
        }
    }
}

impl Lower<'_, '_> {
    /// A read-only register whose fields include write-only ones (Fujitsu's `CANFD.FDESCR`) could
    /// be neither read nor written as described: the fields say it is written, so it is read
    /// as read-write, with a warning.
    fn access_fitting_fields(
        &mut self,
        access: RegAccess,
        layout: &str,
        node: usize,
        register: &str,
    ) -> RegAccess {
        if access != RegAccess::Ro {
            return access;
        }
        let write_only = self.layout_write_only.get(layout).cloned();
        let Some(field) = write_only else {
            return access;
        };
        let pos = self.name_pos(node);
        self.warn_once(
            node,
            REGISTER_ACCESS_FITS_FIELDS,
            pos,
            format!("register `{register}` is read-only but its field `{field}` is write-only; read it as read-write"),
        );
        RegAccess::Rw
    }
}
