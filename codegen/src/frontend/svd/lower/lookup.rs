//! Finding the element a `derivedFrom` names: a sibling, a dotted path from the device or from
//! any scope around the element (its cluster, the clusters around that, its peripheral), or for
//! enumerated values the nearest set of that name. An array is named with or without its `%s`,
//! or by one of its elements as expanded (`P100PFS` of `P10%sPFS`).
use super::locate::{Item, Parent};
use super::names::names_element;
use super::Lower;

/// What a step of a dotted `derivedFrom` path reaches, by index.
pub(super) enum Target {
    Peripheral(usize),
    Item(Item),
    Field(usize),
    EnumeratedValues(usize),
}

impl<'a> Lower<'_, 'a> {
    /// The first peripheral called `name`.
    pub(super) fn peripheral_by_name(&self, name: &str) -> Option<usize> {
        self.peripherals
            .iter()
            .position(|peripheral| names_element(&peripheral.info.name, peripheral.dim, name))
    }

    /// The peripheral an item is defined in.
    pub(super) fn peripheral_of(&self, mut parent: Parent) -> usize {
        loop {
            match parent {
                Parent::Peripheral(peripheral) => return peripheral,
                Parent::Cluster(cluster) => parent = self.clusters[cluster].parent,
            }
        }
    }

    /// The registers and clusters beside an item (its parent's).
    pub(super) fn siblings(&self, parent: Parent) -> Vec<Item> {
        match parent {
            Parent::Peripheral(peripheral) => self.peripherals[peripheral]
                .items
                .clone()
                .unwrap_or_default(),
            Parent::Cluster(cluster) => self.clusters[cluster].items.clone(),
        }
    }

    /// Whether `name` names `item` (see [`names_element`]).
    pub(super) fn item_named(&self, item: Item, name: &str) -> bool {
        match item {
            Item::Register(register) => {
                let located = &self.registers[register];
                names_element(&located.info.name, located.dim, name)
            }
            Item::Cluster(cluster) => {
                let located = &self.clusters[cluster];
                names_element(&located.info.name, located.dim, name)
            }
        }
    }

    /// The items of a peripheral, `derivedFrom` applied.
    fn peripheral_items(&mut self, peripheral: usize) -> Vec<Item> {
        let from = self.effective_peripheral(peripheral).items_from;
        from.and_then(|from| self.peripherals[from].items.clone())
            .unwrap_or_default()
    }

    /// Follows a dotted path from `start`.
    fn walk(&mut self, start: Target, components: &[&str]) -> Option<Target> {
        let Some((first, rest)) = components.split_first() else {
            return Some(start);
        };
        let next = match start {
            Target::Peripheral(peripheral) => {
                let items = self.peripheral_items(peripheral);
                items
                    .into_iter()
                    .find(|&item| self.item_named(item, first))
                    .map(Target::Item)
            }
            Target::Item(Item::Cluster(cluster)) => {
                let items = self.clusters[cluster].items.clone();
                items
                    .into_iter()
                    .find(|&item| self.item_named(item, first))
                    .map(Target::Item)
            }
            Target::Item(Item::Register(register)) => {
                let from = self.effective_register(register).fields_from;
                self.registers[from]
                    .fields
                    .clone()
                    .unwrap_or_default()
                    .into_iter()
                    .find(|&field| {
                        names_element(&self.fields[field].info.name, self.fields[field].dim, first)
                    })
                    .map(Target::Field)
            }
            Target::Field(field) => self.fields[field]
                .enumerated_values
                .iter()
                .copied()
                .find(|&enumerated| {
                    self.enumerated_values[enumerated].info.name.as_deref() == Some(*first)
                })
                .map(Target::EnumeratedValues),
            Target::EnumeratedValues(_) => None,
        }?;
        self.walk(next, rest)
    }

    /// Resolves a dotted `derivedFrom` path: from the device (`PERIPH.REG...`), else from the
    /// scopes around the element, innermost first: the cluster `scope` names, the clusters
    /// around it, then its peripheral (`CLUSTER.REG...`, `REG.FIELD`).
    pub(super) fn resolve_path(&mut self, path: &str, scope: Parent) -> Option<Target> {
        let components: Vec<&str> = path.split('.').map(str::trim).collect();
        if let Some(named) = self.peripheral_by_name(components[0]) {
            if let Some(target) = self.walk(Target::Peripheral(named), &components[1..]) {
                return Some(target);
            }
        }
        let mut scope = scope;
        loop {
            match scope {
                Parent::Peripheral(peripheral) => {
                    return self.walk(Target::Peripheral(peripheral), &components);
                }
                Parent::Cluster(cluster) => {
                    let from = Target::Item(Item::Cluster(cluster));
                    if let Some(target) = self.walk(from, &components) {
                        return Some(target);
                    }
                    scope = self.clusters[cluster].parent;
                }
            }
        }
    }

    /// The enumerated values called `name` nearest to `enumerated`: in its field, its register,
    /// its peripheral, then anywhere (first in document order at each step).
    pub(super) fn enumerated_values_by_name(&self, enumerated: usize, name: &str) -> Option<usize> {
        let field = self.enumerated_values[enumerated].field;
        let register = self.fields[field].register;
        let peripheral = self.peripheral_of(self.registers[register].parent);
        let named = |&other: &usize| {
            other != enumerated && self.enumerated_values[other].info.name.as_deref() == Some(name)
        };
        let field_of = |other: usize| self.enumerated_values[other].field;
        let in_field = |other: &usize| field_of(*other) == field;
        let in_register = |other: &usize| self.fields[field_of(*other)].register == register;
        let in_peripheral = |other: &usize| {
            self.peripheral_of(self.registers[self.fields[field_of(*other)].register].parent)
                == peripheral
        };
        let all = 0..self.enumerated_values.len();
        all.clone()
            .filter(named)
            .find(in_field)
            .or_else(|| all.clone().filter(named).find(in_register))
            .or_else(|| all.clone().filter(named).find(in_peripheral))
            .or_else(|| all.clone().find(named))
    }
}
