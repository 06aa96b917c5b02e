//! Register properties (size, access, reset value and mask, protection) as an element gives them, and as it
//! inherits them from the elements around it or the one it derives from; the `Scope` a register
//! is placed in carries them.
use svd_rs::{Access, Protection, RegisterProperties};

use crate::ir;

use super::Lower;

/// Register properties with the `<size>` element that gave the size, for its errors. Access is
/// kept as a code so that the properties can key layouts (svd-rs's `Access` is not `Ord`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Properties {
    pub(super) size: Option<(u32, usize)>,
    pub(super) access: Option<u8>,
    pub(super) reset: Option<u64>,
    pub(super) mask: Option<u64>,
    /// `protection`, as a code (svd-rs's `Protection` is not `Ord`).
    pub(super) protection: Option<u8>,
}

impl Properties {
    /// These properties, with `base`'s where these give none.
    pub(super) fn derive(self, base: Properties) -> Properties {
        Properties {
            size: self.size.or(base.size),
            access: self.access.or(base.access),
            reset: self.reset.or(base.reset),
            mask: self.mask.or(base.mask),
            protection: self.protection.or(base.protection),
        }
    }

    pub(super) fn access(self) -> Option<Access> {
        self.access.map(access_of)
    }

    pub(super) fn protection(self) -> Option<ir::Protection> {
        match self.protection? {
            0 => Some(ir::Protection::Secure),
            1 => Some(ir::Protection::NonSecure),
            _ => Some(ir::Protection::Privileged),
        }
    }
}

const ACCESSES: [Access; 5] = [
    Access::ReadOnly,
    Access::WriteOnly,
    Access::ReadWrite,
    Access::WriteOnce,
    Access::ReadWriteOnce,
];

fn access_code(access: Access) -> u8 {
    ACCESSES
        .iter()
        .position(|known| *known == access)
        .unwrap_or(2) as u8
}

fn access_of(code: u8) -> Access {
    ACCESSES
        .get(usize::from(code))
        .copied()
        .unwrap_or(Access::ReadWrite)
}

impl Lower<'_, '_> {
    /// The properties an element gives; `node` is the element, for the position of `<size>`.
    pub(super) fn props(&self, properties: &RegisterProperties, node: usize) -> Properties {
        Properties {
            size: properties
                .size
                .map(|size| (size, self.doc.child(node, "size").unwrap_or(node))),
            access: properties.access.map(access_code),
            reset: properties.reset_value,
            mask: properties.reset_mask,
            protection: properties.protection.map(|protection| match protection {
                Protection::Secure => 0,
                Protection::NonSecure => 1,
                Protection::Privileged => 2,
            }),
        }
    }
}

/// Where registers are being placed.
#[derive(Clone, Copy)]
pub(super) struct Scope {
    pub(super) props: Properties,
    /// The offsets and strides of the clusters around, or-ed: what the alignment of a register
    /// inside is relative to.
    pub(super) base_steps: u64,
}
