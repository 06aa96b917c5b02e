//! One SVD register as block registers: an IR array when it is indexed 0..n-1, else one
//! register per element; its size checked and narrowed to what its offset allows.
use super::access::{read_action, register_access};
use super::clusters::Scope;
use super::locate::Item;
use super::names::{array_name, indexes, join, plain_name, substitute, zero_based};
use super::text::doc_text;
use super::Lower;
use crate::ir::{BlockArray, BlockRegister, NameRef};
use crate::rules::{ALTERNATES_RESOLVE, REGISTERS_ALIGNED, REGISTER_SIZES_SUPPORTED};

impl Lower<'_, '_> {
    pub(super) fn lower_register(
        &mut self,
        register: usize,
        scope: &Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        let effective = self.effective_register(register);
        let located = &self.registers[register];
        let (info, node, parent) = (located.info, located.node, located.parent);
        let props = effective.props.derive(scope.props);
        let (size, size_node) = props.size.unwrap_or((32, node));
        if ![8, 16, 32, 64].contains(&size) {
            let pos = self.pos(self.doc.text_span(size_node));
            self.error_once(
                size_node,
                REGISTER_SIZES_SUPPORTED,
                pos,
                format!("register size {size} is not 8, 16, 32 or 64 bits"),
            );
            return;
        }
        let name = match &info.alternate_group {
            Some(group) => format!("{}_{group}", info.name),
            None => info.name.clone(),
        };
        let flat = join(&scope.prefix, &name);
        let offset = scope.offset.saturating_add(u64::from(info.address_offset));
        // A register is reached with accesses of its size (64-bit ones in 32-bit halves), so
        // its offset (and its arrays' strides) must be multiples of that.
        let steps = offset
            | effective.dim.map_or(0, |dim| u64::from(dim.dim_increment))
            | scope.array.map_or(0, |array| array.stride);
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
                    if steps == offset { String::new() } else { " (with its array stride)".to_string() }
                ),
            );
            narrowed
        } else {
            size
        };
        let layout_name = join(block, &join(&scope.plain, &plain_name(&name)));
        let layout = self.layout(register, &effective, props, size, &layout_name);
        let access = register_access(props.access());
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
                    name: join(&scope.prefix, &name),
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
        let doc = doc_text(effective.description);
        let make = |name: String, offset: u64, array: Option<BlockArray>| BlockRegister {
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
            doc: doc.clone(),
            source: None,
            pos: pos.clone(),
        };
        match (effective.dim, scope.array) {
            (None, array) => out.push(make(flat, offset, array)),
            (Some(dim), None) if zero_based(dim) => out.push(make(
                join(&scope.prefix, &array_name(&name)),
                offset,
                Some(BlockArray {
                    count: dim.dim,
                    stride: u64::from(dim.dim_increment),
                }),
            )),
            (Some(dim), array) => {
                for (i, index) in indexes(dim).iter().enumerate() {
                    out.push(make(
                        join(&scope.prefix, &substitute(&name, index)),
                        offset.saturating_add(
                            (i as u64).saturating_mul(u64::from(dim.dim_increment)),
                        ),
                        array,
                    ));
                }
            }
        }
    }
}
