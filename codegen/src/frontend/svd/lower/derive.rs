//! `derivedFrom`, resolved with svd-rs's rule: what the deriving element gives replaces what it
//! derives from, and `fields`, `registers`, cluster children and enumerated values are taken whole
//! from the base when the deriving element has none. A name without a dot is looked up beside the
//! element (for enumerated values: in the field, the register, the peripheral, then anywhere); a
//! dotted one from the device (`PERIPH.REG.FIELD`), else from the element's peripheral. An
//! unresolvable or cyclic `derivedFrom` is an error at the attribute.
use super::{
    EffCluster, EffEnums, EffField, EffPeriph, EffReg, Item, Lower, Parent, Target, MAX_CHAIN,
    RULE_DERIVED,
};

impl<'a> Lower<'_, 'a> {
    /// Starts resolving the element `node`; false (with an error) if that closes a cycle or the
    /// chain is too long.
    fn enter(&mut self, node: usize, what: &str) -> bool {
        if self.stack.contains(&node) || self.stack.len() >= MAX_CHAIN {
            let pos = self.derived_pos(node);
            let message = if self.stack.contains(&node) {
                format!("{what} derives from itself through `derivedFrom`")
            } else {
                format!("{what}: `derivedFrom` chain longer than {MAX_CHAIN}")
            };
            self.error_once(node, RULE_DERIVED, pos, message);
            return false;
        }
        self.stack.push(node);
        true
    }

    fn unresolved(&mut self, node: usize, what: &str, name: &str, kind: &str) {
        let pos = self.derived_pos(node);
        let where_ = if matches!(kind, "peripheral" | "enumeratedValues") || name.contains('.') {
            "of this device"
        } else {
            "beside it (a dotted path names one elsewhere)"
        };
        self.error_once(
            node,
            RULE_DERIVED,
            pos,
            format!("{what} derives from `{name}`, which is no {kind} {where_}"),
        );
    }

    pub(super) fn periph_by_name(&self, name: &str) -> Option<usize> {
        self.periphs.iter().position(|p| p.info.name == name)
    }

    pub(super) fn eff_periph(&mut self, k: usize) -> EffPeriph {
        if let Some(Some(e)) = self.eff_periphs.get(k) {
            return e.clone();
        }
        let p = &self.periphs[k];
        let (info, node) = (p.info, p.node);
        let own = EffPeriph {
            items_from: p.items.is_some().then_some(k),
            irqs_from: k,
            blocks_from: k,
            props: self.props(&info.default_register_properties, node),
            description: info.description.clone(),
            header_struct: info.header_struct_name.clone(),
        };
        let what = format!("peripheral `{}`", info.name);
        let eff = match &info.derived_from {
            None => own,
            Some(base_name) => match self.periph_by_name(base_name.trim()) {
                None => {
                    self.unresolved(node, &what, base_name, "peripheral");
                    own
                }
                Some(_) if !self.enter(node, &what) => own,
                Some(j) => {
                    let base = self.eff_periph(j);
                    self.stack.pop();
                    EffPeriph {
                        items_from: own.items_from.or(base.items_from),
                        irqs_from: if info.interrupt.is_empty() {
                            base.irqs_from
                        } else {
                            k
                        },
                        blocks_from: if info.address_block.is_some() {
                            k
                        } else {
                            base.blocks_from
                        },
                        props: own.props.derive(base.props),
                        description: own.description.or(base.description),
                        header_struct: own.header_struct.or(base.header_struct),
                    }
                }
            },
        };
        if self.eff_periphs.len() <= k {
            self.eff_periphs.resize(k + 1, None);
        }
        self.eff_periphs[k] = Some(eff.clone());
        eff
    }

    /// The peripheral an item is defined in.
    fn periph_of(&self, mut parent: Parent) -> usize {
        loop {
            match parent {
                Parent::Periph(p) => return p,
                Parent::Cluster(c) => parent = self.clusters[c].parent,
            }
        }
    }

    pub(super) fn siblings(&self, parent: Parent) -> Vec<Item> {
        match parent {
            Parent::Periph(p) => self.periphs[p].items.clone().unwrap_or_default(),
            Parent::Cluster(c) => self.clusters[c].items.clone(),
        }
    }

    fn item_name(&self, item: Item) -> &'a str {
        match item {
            Item::Reg(r) => &self.regs[r].info.name,
            Item::Cluster(c) => &self.clusters[c].info.name,
        }
    }

    /// The items of a peripheral, `derivedFrom` applied.
    fn periph_items(&mut self, p: usize) -> Vec<Item> {
        let from = self.eff_periph(p).items_from;
        from.and_then(|f| self.periphs[f].items.clone())
            .unwrap_or_default()
    }

    /// Follows a dotted path from `start`.
    fn walk(&mut self, start: Target, comps: &[&str]) -> Option<Target> {
        let Some((first, rest)) = comps.split_first() else {
            return Some(start);
        };
        let next = match start {
            Target::Periph(p) => {
                let items = self.periph_items(p);
                items
                    .into_iter()
                    .find(|&i| self.item_name(i) == *first)
                    .map(Target::Item)
            }
            Target::Item(Item::Cluster(c)) => {
                let items = self.clusters[c].items.clone();
                items
                    .into_iter()
                    .find(|&i| self.item_name(i) == *first)
                    .map(Target::Item)
            }
            Target::Item(Item::Reg(r)) => {
                let from = self.eff_reg(r).fields_from;
                self.regs[from]
                    .fields
                    .clone()
                    .unwrap_or_default()
                    .into_iter()
                    .find(|&f| self.fields[f].info.name == *first)
                    .map(Target::Field)
            }
            Target::Field(f) => self.fields[f]
                .evs
                .iter()
                .copied()
                .find(|&e| self.enums[e].info.name.as_deref() == Some(*first))
                .map(Target::Enums),
            Target::Enums(_) => None,
        }?;
        self.walk(next, rest)
    }

    /// Resolves a dotted `derivedFrom` path: from the device (`PERIPH.REG...`), else from the
    /// peripheral the element is in (`CLUSTER.REG...`).
    fn resolve_path(&mut self, path: &str, periph: usize) -> Option<Target> {
        let comps: Vec<&str> = path.split('.').map(str::trim).collect();
        if let Some(p) = self.periph_by_name(comps[0]) {
            if let Some(t) = self.walk(Target::Periph(p), &comps[1..]) {
                return Some(t);
            }
        }
        self.walk(Target::Periph(periph), &comps)
    }

    pub(super) fn eff_reg(&mut self, r: usize) -> EffReg<'a> {
        if let Some(e) = self.eff_regs.get(&r) {
            return e.clone();
        }
        let reg = &self.regs[r];
        let (info, node, parent) = (reg.info, reg.node, reg.parent);
        let own = EffReg {
            dim: reg.dim,
            description: info.description.as_deref(),
            props: self.props(&info.properties, node),
            fields_from: r,
            write_constraint: info.write_constraint,
            read_action: info.read_action,
            mwv: info.modified_write_values,
        };
        let eff = match &info.derived_from {
            None => own,
            Some(name) => {
                let what = format!("register `{}`", info.name);
                let name = name.trim();
                let target = if name.contains('.') {
                    let periph = self.periph_of(parent);
                    match self.resolve_path(name, periph) {
                        Some(Target::Item(Item::Reg(b))) => Some(b),
                        _ => None,
                    }
                } else {
                    self.siblings(parent).into_iter().find_map(|i| match i {
                        Item::Reg(b) if self.regs[b].info.name == name => Some(b),
                        _ => None,
                    })
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "register");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(b) => {
                        let base = self.eff_reg(b);
                        self.stack.pop();
                        let dim = match (own.dim, base.dim) {
                            (None, Some(d)) if info.name.contains("%s") => Some(d),
                            (d, _) => d,
                        };
                        EffReg {
                            dim,
                            description: own.description.or(base.description),
                            props: own.props.derive(base.props),
                            fields_from: if info.fields.is_some() {
                                r
                            } else {
                                base.fields_from
                            },
                            write_constraint: own.write_constraint.or(base.write_constraint),
                            read_action: own.read_action.or(base.read_action),
                            mwv: own.mwv.or(base.mwv),
                        }
                    }
                }
            }
        };
        self.eff_regs.insert(r, eff.clone());
        eff
    }

    pub(super) fn eff_cluster(&mut self, c: usize) -> EffCluster<'a> {
        if let Some(e) = self.eff_clusters.get(&c) {
            return e.clone();
        }
        let cl = &self.clusters[c];
        let (info, node, parent) = (cl.info, cl.node, cl.parent);
        let own = EffCluster {
            dim: cl.dim,
            props: self.props(&info.default_register_properties, node),
            items_from: c,
        };
        let eff = match &info.derived_from {
            None => own,
            Some(name) => {
                let what = format!("cluster `{}`", info.name);
                let name = name.trim();
                let target = if name.contains('.') {
                    let periph = self.periph_of(parent);
                    match self.resolve_path(name, periph) {
                        Some(Target::Item(Item::Cluster(b))) => Some(b),
                        _ => None,
                    }
                } else {
                    self.siblings(parent).into_iter().find_map(|i| match i {
                        Item::Cluster(b) if self.clusters[b].info.name == name => Some(b),
                        _ => None,
                    })
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "cluster");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(b) => {
                        let base = self.eff_cluster(b);
                        self.stack.pop();
                        let dim = match (own.dim, base.dim) {
                            (None, Some(d)) if info.name.contains("%s") => Some(d),
                            (d, _) => d,
                        };
                        EffCluster {
                            dim,
                            props: own.props.derive(base.props),
                            items_from: if info.children.is_empty() {
                                base.items_from
                            } else {
                                c
                            },
                        }
                    }
                }
            }
        };
        self.eff_clusters.insert(c, eff.clone());
        eff
    }

    pub(super) fn eff_field(&mut self, f: usize) -> EffField<'a> {
        if let Some(e) = self.eff_fields.get(&f) {
            return e.clone();
        }
        let fl = &self.fields[f];
        let (info, node, reg) = (fl.info, fl.node, fl.reg);
        let own = EffField {
            dim: fl.dim,
            description: info.description.as_deref(),
            access: info.access,
            mwv: info.modified_write_values,
            write_constraint: info.write_constraint,
            read_action: info.read_action,
            evs_from: f,
        };
        let eff = match &info.derived_from {
            None => own,
            Some(name) => {
                let what = format!("field `{}`", info.name);
                let name = name.trim();
                let target = if name.contains('.') {
                    let periph = self.periph_of(self.regs[reg].parent);
                    match self.resolve_path(name, periph) {
                        Some(Target::Field(b)) => Some(b),
                        _ => None,
                    }
                } else {
                    self.regs[reg]
                        .fields
                        .clone()
                        .unwrap_or_default()
                        .into_iter()
                        .find(|&b| self.fields[b].info.name == name)
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "field");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(b) => {
                        let base = self.eff_field(b);
                        self.stack.pop();
                        EffField {
                            dim: own.dim,
                            description: own.description.or(base.description),
                            access: own.access.or(base.access),
                            mwv: own.mwv.or(base.mwv),
                            write_constraint: own.write_constraint.or(base.write_constraint),
                            read_action: own.read_action.or(base.read_action),
                            evs_from: if info.enumerated_values.is_empty() {
                                base.evs_from
                            } else {
                                f
                            },
                        }
                    }
                }
            }
        };
        self.eff_fields.insert(f, eff.clone());
        eff
    }

    pub(super) fn eff_enums(&mut self, e: usize) -> EffEnums {
        if let Some(x) = self.eff_enums.get(&e) {
            return *x;
        }
        let el = &self.enums[e];
        let (info, node, field) = (el.info, el.node, el.field);
        let own = EffEnums {
            usage: info.usage,
            values_from: e,
        };
        let eff = match &info.derived_from {
            None => own,
            Some(name) => {
                let name = name.trim();
                let what = format!(
                    "enumeratedValues{} of field `{}`",
                    info.name
                        .as_deref()
                        .map(|n| format!(" `{n}`"))
                        .unwrap_or_default(),
                    self.fields[field].info.name
                );
                let target = if name.contains('.') {
                    let reg = self.fields[field].reg;
                    let periph = self.periph_of(self.regs[reg].parent);
                    match self.resolve_path(name, periph) {
                        Some(Target::Enums(b)) => Some(b),
                        _ => None,
                    }
                } else {
                    self.enums_by_name(e, name)
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "enumeratedValues");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(b) => {
                        let base = self.eff_enums(b);
                        self.stack.pop();
                        EffEnums {
                            usage: own.usage.or(base.usage),
                            values_from: if info.values.is_empty() {
                                base.values_from
                            } else {
                                e
                            },
                        }
                    }
                }
            }
        };
        self.eff_enums.insert(e, eff);
        eff
    }

    /// The enumerated values called `name` nearest to `e`: in its field, its register, its
    /// peripheral, then anywhere (first in document order at each step).
    fn enums_by_name(&self, e: usize, name: &str) -> Option<usize> {
        let field = self.enums[e].field;
        let reg = self.fields[field].reg;
        let periph = self.periph_of(self.regs[reg].parent);
        let named = |&x: &usize| x != e && self.enums[x].info.name.as_deref() == Some(name);
        let in_field = |x: &usize| self.enums[*x].field == field;
        let in_reg = |x: &usize| self.fields[self.enums[*x].field].reg == reg;
        let in_periph = |x: &usize| {
            self.periph_of(self.regs[self.fields[self.enums[*x].field].reg].parent) == periph
        };
        let all = 0..self.enums.len();
        all.clone()
            .filter(named)
            .find(in_field)
            .or_else(|| all.clone().filter(named).find(in_reg))
            .or_else(|| all.clone().filter(named).find(in_periph))
            .or_else(|| all.clone().find(named))
    }
}
