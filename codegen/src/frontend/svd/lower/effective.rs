//! What each element is once `derivedFrom` is applied: its own values or its base's, and the
//! element whose children (registers, fields, enumerated values) it takes.
use svd_rs as svd;
use svd_rs::{Access, DimElement, ModifiedWriteValues, Usage};

use super::properties::Properties;

/// A peripheral with `derivedFrom` applied.
#[derive(Clone)]
pub(super) struct EffectivePeripheral {
    /// The peripheral whose `<registers>` are used.
    pub(super) items_from: Option<usize>,
    /// The peripheral whose interrupts are used.
    pub(super) interrupts_from: usize,
    /// The peripheral whose address blocks are used.
    pub(super) address_blocks_from: usize,
    pub(super) props: Properties,
    pub(super) description: Option<String>,
    pub(super) header_struct: Option<String>,
}

#[derive(Clone)]
pub(super) struct EffectiveRegister<'a> {
    pub(super) dim: Option<&'a DimElement>,
    pub(super) description: Option<&'a str>,
    pub(super) props: Properties,
    /// The register whose `<fields>` are used.
    pub(super) fields_from: usize,
    pub(super) write_constraint: Option<svd::WriteConstraint>,
    pub(super) read_action: Option<svd::ReadAction>,
    pub(super) modified_write_values: Option<ModifiedWriteValues>,
}

#[derive(Clone)]
pub(super) struct EffectiveCluster<'a> {
    pub(super) dim: Option<&'a DimElement>,
    pub(super) props: Properties,
    /// The cluster whose registers and clusters are used.
    pub(super) items_from: usize,
}

#[derive(Clone)]
pub(super) struct EffectiveField<'a> {
    pub(super) dim: Option<&'a DimElement>,
    pub(super) description: Option<&'a str>,
    pub(super) access: Option<Access>,
    pub(super) modified_write_values: Option<ModifiedWriteValues>,
    pub(super) write_constraint: Option<svd::WriteConstraint>,
    pub(super) read_action: Option<svd::ReadAction>,
    /// The field whose `<enumeratedValues>` are used.
    pub(super) enumerated_values_from: usize,
}

#[derive(Clone, Copy)]
pub(super) struct EffectiveEnumeratedValues {
    pub(super) usage: Option<Usage>,
    /// The `<enumeratedValues>` whose values are used.
    pub(super) values_from: usize,
}
