//! Layouts: one uninhabited type per distinct layout, with a constant per field and an
//! `armreg_rt::Layout` impl, which provides its `DEFAULT` (and `Reset`, its `RESET`; the values
//! are `armreg_rt::Value<Layout>`, read and written through the field constants), and enums for
//! enumerated fields.
//!
//! Written as formatted text (`code::Code`): this is most of a large crate.
use super::code::{self, hex, name, uint, Code};
use super::doc;
use super::naming::{state_of, type_text};
use crate::backend::side_effects::{write_kind, WriteEffects};
use crate::ir::{
    bit_range_mask, EnumUsage, EnumValue, Field, FieldAccess, FieldArray, Layout, WriteConstraint,
};
use crate::names::Case;

/// What the layouts of a device share, decided once for all of them: which layout each one is
/// the same type as, and which field defines each shared enum. Each layout's text depends only on
/// the layout and this plan, so layouts can be written in any grouping and on any thread.
pub(super) struct Plan<'l> {
    layouts: &'l [Layout],
    /// For each layout, the earlier one it is an alias of.
    same: Vec<Option<usize>>,
    shared: SharedEnums,
    /// For each layout, the registers that have it, as rustdoc links, each with the index of its
    /// block or register family in the gates' users (`None`: a register always compiled).
    users: Vec<Vec<(String, Option<usize>)>>,
    /// Per block, its cargo feature, where blocks are gated: a link to a register is written
    /// under its block's feature unless the layout is compiled under that feature alone.
    block_features: Option<Vec<String>>,
    /// Per layout, the one feature it is compiled under, if one (where blocks are gated).
    layout_feature: Vec<Option<String>>,
    /// The crate's name in Rust, for the examples' `use`; `None` (a build script's modules,
    /// compiled in a crate of the user's) leaves the examples untested.
    krate: Option<String>,
    /// How the examples import the runtime's `Layout` trait from the crate root: as `Layout`
    /// where the root re-exports it, else (a layout has the name) unnamed from `rt`.
    layout_trait: &'static str,
}

impl<'l> Plan<'l> {
    pub(super) fn new(layouts: &'l [Layout]) -> Self {
        let same = same_as(layouts);
        let shared = SharedEnums::of(
            layouts
                .iter()
                .enumerate()
                .zip(&same)
                .filter(|(_, s)| s.is_none())
                .map(|(l, _)| l),
            layouts,
        );
        Plan {
            layouts,
            same,
            shared,
            users: vec![Vec::new(); layouts.len()],
            block_features: None,
            layout_feature: Vec::new(),
            krate: None,
            layout_trait: "Layout",
        }
    }

    /// The plan with each block's feature and, per layout, the one feature it is compiled under
    /// if one, for a crate whose blocks are gated (`gates::Gates::features_of`).
    pub(super) fn with_features(
        mut self,
        features: Option<(Vec<String>, Vec<Option<String>>)>,
    ) -> Self {
        if let Some((blocks, layouts)) = features {
            self.block_features = Some(blocks);
            self.layout_feature = layouts;
        }
        self
    }

    /// The plan with what each layout's page says beyond the layout: the registers that have
    /// it, the crate its example names, and whether that crate root re-exports the runtime's
    /// `Layout` (`reexports`, the names it re-exports).
    pub(super) fn with_pages(
        mut self,
        device: &crate::ir::Device,
        krate: Option<&str>,
        reexports: &[&str],
    ) -> Self {
        let index: std::collections::HashMap<&str, usize> = self
            .layouts
            .iter()
            .enumerate()
            .map(|(i, l)| (l.name.as_str(), i))
            .collect();
        let families = super::gates::sysreg_users(device);
        for (reg, family) in device.sysregs.iter().zip(families) {
            if let Some(&i) = index.get(reg.layout.name.as_str()) {
                let module = state_of(reg.path).module();
                let name = name(&reg.name, Case::Verbatim);
                self.users[i].push((
                    format!("[`{module}::{name}`](crate::{module}::{name})"),
                    family,
                ));
            }
        }
        for (b, block) in device.blocks.iter().enumerate() {
            let ty = name(&block.name, Case::Camel);
            for reg in &block.registers {
                if let Some(&i) = index.get(reg.layout.name.as_str()) {
                    let method = name(&reg.name, Case::Snake);
                    self.users[i].push((
                        format!("[`{ty}::{method}`](crate::mmio::{ty}::{method})"),
                        Some(b),
                    ));
                }
            }
        }
        self.krate = krate.map(str::to_string);
        if !reexports.contains(&"Layout") {
            self.layout_trait = "rt::Layout as _";
        }
        self
    }

    /// The layouts layout `i`'s items name, each earlier than `i`: the one it is an alias of,
    /// and the defining layouts of the enums it reuses.
    pub(super) fn needs(&self, i: usize) -> Vec<usize> {
        let layout = &self.layouts[i];
        match self.same[i] {
            Some(j) => vec![j],
            None => layout
                .fields
                .iter()
                .filter(|f| has_enum(f))
                .filter_map(|f| self.shared.reused(f).map(|(owner, _)| owner))
                .collect(),
        }
    }

    /// The items of layout `i`.
    fn write(&self, i: usize, c: &mut Code) {
        match self.same[i] {
            None => layout(c, &self.layouts[i], &self.shared, &self.page(i)),
            Some(j) => alias(c, &self.layouts[i], &self.layouts[j]),
        }
    }

    /// One text per list of layouts of `groups` (its items, after its `head`).
    pub(super) fn write_groups(&self, groups: &[(String, Vec<usize>)]) -> Vec<String> {
        groups
            .iter()
            .map(|(head, indices)| {
                let mut c = Code::with_capacity(head.len() + indices.len() * 8000);
                c.raw(head);
                for &i in indices {
                    self.write(i, &mut c);
                }
                c.finish()
            })
            .collect()
    }
    /// The diagrams file after `head`: a macro per distinct layout giving its bitfield diagram as
    /// raw HTML, where a `<div>` at the start of a line opens an HTML block that markdown passes
    /// through untouched up to the next blank line, and the SVG has none. The crate root loads the
    /// file under `cfg(doc)` only, so a build neither reads nor keeps the diagrams, a third of the
    /// source (8 of rp2040's 232 MB build peak when they were attributes).
    pub(super) fn diagrams(&self, head: &str) -> String {
        let mut c = Code::with_capacity(head.len() + self.layouts.len() * 4000);
        c.raw(head);
        for (layout, same) in self.layouts.iter().zip(&self.same) {
            if same.is_some() {
                continue;
            }
            c.open(&format!("macro_rules! {}", diagram_macro(layout)));
            c.raw_string_attr(
                "() => { ",
                &[
                    "<div class=\"register-diagram\">\n",
                    &crate::backend::diagram::svg(layout),
                    "\n</div>",
                ],
                " };",
            );
            c.close("");
        }
        c.finish()
    }
    /// The paragraphs a layout's page opens with after its summary: what its values are, the
    /// registers that have it (its aliases' too), and a two-line example.
    fn page(&self, i: usize) -> Vec<DocLine> {
        let layout = &self.layouts[i];
        let ty = type_text(layout);
        let mut users: Vec<&(String, Option<usize>)> = (0..self.layouts.len())
            .filter(|&j| j == i || self.same[j] == Some(i))
            .flat_map(|j| &self.users[j])
            .collect();
        users.dedup();
        const SHOWN: usize = 8;
        let more = users.len().saturating_sub(SHOWN);
        let shown = &users[..users.len().min(SHOWN)];
        // What a layout is and where `DEFAULT` and `RESET` come from is the crate's doc, once:
        // each byte of a layout's doc costs a build about eight in memory.
        let start = if has_reset(layout) {
            format!("`{ty}::DEFAULT` or `{ty}::RESET`")
        } else {
            format!("`{ty}::DEFAULT`")
        };
        let lead = format!(
            "A layout, a name for a register's format (an `enum` without variants, never a value itself): its values are [`Value<{ty}>`](armreg_rt::Value), from {start} and the field constants (linked in the table)."
        );
        let example = example(layout, &ty, self.krate.as_deref(), self.layout_trait);
        // The feature a register's link needs: its block's, where blocks are gated, unless the
        // layout itself is compiled under that feature alone.
        let feature = |user: &(String, Option<usize>)| -> Option<&str> {
            let f = self.block_features.as_ref()?[user.1?].as_str();
            (self.layout_feature.get(i)?.as_deref() != Some(f)).then_some(f)
        };
        if users.is_empty() {
            return vec![DocLine::Text(format!("{lead}\n\n{example}"))];
        }
        // Every register compiled whenever the layout is: one sentence.
        if users.iter().all(|u| feature(u).is_none()) {
            let mut registers = shown
                .iter()
                .map(|u| u.0.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            if more > 0 {
                registers.push_str(&format!(" and {more} more"));
            }
            return vec![DocLine::Text(format!(
                "{lead} Registers with this layout: {registers}.\n\n{example}"
            ))];
        }
        // Registers of several blocks: a build that selects some of them documents those only,
        // each link under its block's feature (a link to a block left out would be broken).
        let mut lines = vec![DocLine::Text(format!(
            "{lead} Registers with this layout (each only where the build selects its block or register family):"
        ))];
        for user in shown {
            let item = format!("- {}", user.0);
            lines.push(match feature(user) {
                Some(f) => DocLine::Gated(f.to_string(), item),
                None => DocLine::Text(item),
            });
        }
        if more > 0 {
            lines.push(DocLine::Text(format!("- and {more} more")));
        }
        lines.push(DocLine::Text(String::new()));
        lines.push(DocLine::Text(example));
        lines
    }
}

/// A line of a layout page's documentation: text, or text only when a feature is on.
enum DocLine {
    Text(String),
    Gated(String, String),
}

/// Two lines that build a value and read a field back: a doctest where the crate is known.
/// `trait_path` imports `armreg_rt::Layout`, which gives `DEFAULT`, from the crate root.
fn example(layout: &Layout, ty: &str, krate: Option<&str>, trait_path: &str) -> String {
    let field = layout
        .fields
        .iter()
        .find(|f| !f.is_reserved() && f.enums.is_empty() && f.access == FieldAccess::Rw);
    let arrays = usable_field_arrays(layout);
    let body = match field {
        Some(f) => {
            // A member of a field array is reached through the array's constant.
            let in_array = arrays.iter().find_map(|(array, members)| {
                let n = members.iter().position(|m| m.name == f.name)?;
                Some(format!("{}.at::<{n}>()", field_array_const(array)))
            });
            let field = in_array.unwrap_or_else(|| field_const(f));
            // A narrow integer takes a constant checked against its width.
            let (value, check) = if f.width == 1 {
                ("true", format!("assert!(value.get({ty}::{field}));"))
            } else if is_narrow(f) {
                (
                    "rt::Const::<1>",
                    format!("assert_eq!(value.get({ty}::{field}), 1);"),
                )
            } else {
                ("1", format!("assert_eq!(value.get({ty}::{field}), 1);"))
            };
            format!("let value = {ty}::DEFAULT.with({ty}::{field}, {value});\n{check}")
        }
        None => format!("let value = {ty}::DEFAULT;\nassert_eq!(value, {ty}::DEFAULT);"),
    };
    match krate {
        Some(krate) if body.contains("rt::") => {
            format!("```\n# use {krate}::{{rt, {trait_path}, {ty}}};\n{body}\n```")
        }
        Some(krate) => format!("```\n# use {krate}::{{{trait_path}, {ty}}};\n{body}\n```"),
        None => format!("```ignore\n{body}\n```"),
    }
}

/// One text holding every layout, after `head`.
pub(super) fn layouts(head: &str, plan: &Plan<'_>) -> String {
    let groups = [(head.to_string(), (0..plan.layouts.len()).collect())];
    plan.write_groups(&groups).concat()
}

/// For each layout, the earlier layout it is the same as, if any: the same width, reset and
/// fields, every field with the same name, bits, access, reset, values and write rules. Prose is
/// not structure: layouts whose descriptions differ ("counter 0", "counter 3") are one type, and
/// each keeps its own text on its alias. Vendor files describe one layout again for each
/// register that has it (half of rp2040's, three quarters of D1-H's); each is one type.
fn same_as(layouts: &[Layout]) -> Vec<Option<usize>> {
    let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    layouts
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let key = l.structure_key();
            match first.get(&key) {
                Some(&j) => Some(j),
                None => {
                    first.insert(key, i);
                    None
                }
            }
        })
        .collect()
}

/// A layout the same as an earlier one: a type alias with its own description, whose diagram
/// and field table are the other's (drawn once per distinct layout: half of a vendor file's
/// layouts are repeats, and the diagrams are most of the documentation's size), and its enum
/// module naming the other's.
fn alias(c: &mut Code, layout: &Layout, same: &Layout) {
    let ty = type_text(layout);
    let other = type_text(same);
    let (lead, table) = struct_doc(layout);
    // The fields' own words, when they are not the other's ("counter 3", not "counter 0").
    let same_prose = layout
        .fields
        .iter()
        .zip(&same.fields)
        .all(|(a, b)| a.doc == b.doc);
    let fields = table
        .filter(|_| !same_prose)
        .map(|t| format!("\n\nIts fields, as this register's description words them:\n\n{t}"))
        .unwrap_or_default();
    c.doc(&format!(
        "{lead}\n\nThe same layout as [`{other}`](crate::{other}), so the same type: values move between the two registers as they are. Its diagram and fields are there.{fields}"
    ));
    c.fmt(format_args!("pub type {ty} = crate::{other};"));
    if layout.fields.iter().any(has_enum) {
        c.doc(&format!(
            "Enumerated field values of {}: those of {}.",
            doc::code(&layout.name),
            doc::code(&same.name)
        ));
        // Listed as a re-export, not documented again: rustdoc would copy every enum of the
        // module (a page each) under each alias, for rp2040 four pages in five.
        c.line("#[doc(no_inline)]");
        c.fmt(format_args!(
            "pub use crate::{} as {};",
            name(&same.name, Case::Snake),
            name(&layout.name, Case::Snake)
        ));
    }
}

/// The bitfield diagram, for rustdoc only: the layout's macro in `src/diagrams.rs` (see
/// [`Plan::diagrams`]), expanded under `cfg(doc)`.
fn diagram(c: &mut Code, layout: &Layout) {
    c.fmt(format_args!(
        "#[cfg_attr(doc, doc = {}!())]",
        diagram_macro(layout)
    ));
}

/// The name of the macro holding a layout's diagram: the type's, which is unique in the crate.
fn diagram_macro(layout: &Layout) -> String {
    format!("diagram_{}", type_text(layout))
}

/// What makes two fields' enums the same type: their representation, whether the conversion is
/// total (and over which mask), and every value with its name and documentation.
#[derive(PartialEq, Eq, Hash)]
struct EnumKey {
    repr: &'static str,
    total_mask: Option<u64>,
    values: Vec<(String, u64, Option<u64>, String)>,
    /// The name the description gives the type: differently named values are different types.
    given: Option<String>,
}

impl EnumKey {
    fn of(f: &Field) -> EnumKey {
        let mut values: Vec<(String, u64, Option<u64>, String)> = enum_values(f)
            .0
            .iter()
            .map(|e| {
                (
                    name(&e.name, Case::Camel),
                    e.value,
                    e.mask,
                    variant_doc(f, e),
                )
            })
            .collect();
        values.sort_by_key(|v| v.1);
        EnumKey {
            repr: uint(f.width.max(2)),
            total_mask: exhaustive(f).then(|| bit_range_mask(0, f.width)),
            values,
            given: f.enum_name.clone(),
        }
    }
}

/// Enum sharing: vendor files repeat the same values (`Disabled`/`Enabled`) for hundreds of
/// fields, and each enum costs the compiler a type, six derived impls and two functions. The
/// first field with a given set of values (in layout order, so the choice is deterministic)
/// defines the enum; every later one names it with a `pub use`.
struct SharedEnums {
    /// For each enumerated field of the layouts given, by address: the defining layout and path
    /// (`crate::<module>::<Type>`; layouts may sit in different modules, all re-exported at the
    /// crate root) of the enum it reuses, if an earlier field defines it. Computed once: a key
    /// holds every value's name and text, and the emitters ask about each field several times.
    reuse: std::collections::HashMap<usize, Option<(usize, String)>>,
    /// The fields (by address) defining an enum the description names (`[[merge_enums]] name`)
    /// that no other type of the crate root is called: re-exported at the root, where a
    /// device-wide name belongs (`rp2040::Function`).
    at_root: std::collections::HashSet<usize>,
}

impl SharedEnums {
    fn of<'a>(layouts: impl Iterator<Item = (usize, &'a Layout)>, all: &[Layout]) -> SharedEnums {
        let mut owner: std::collections::HashMap<EnumKey, (usize, String)> =
            std::collections::HashMap::new();
        let mut reuse = std::collections::HashMap::new();
        // Named enums by their type's name: the fields defining one.
        let mut named: std::collections::HashMap<String, Vec<usize>> =
            std::collections::HashMap::new();
        for (i, l) in layouts {
            for f in l.fields.iter().filter(|f| has_enum(f)) {
                let own = enum_path(l, f);
                let first = owner
                    .entry(EnumKey::of(f))
                    .or_insert_with(|| (i, own.clone()));
                let reused = (first.1 != own).then(|| first.clone());
                let at = std::ptr::from_ref(f).addr();
                if reused.is_none() && f.enum_name.is_some() {
                    named.entry(enum_type(l, f)).or_default().push(at);
                }
                reuse.insert(at, reused);
            }
        }
        let taken: std::collections::HashSet<String> = all.iter().map(type_text).collect();
        let at_root = named
            .into_iter()
            .filter(|(name, fields)| fields.len() == 1 && !taken.contains(name))
            .flat_map(|(_, fields)| fields)
            .collect();
        SharedEnums { reuse, at_root }
    }

    /// Whether field `f` defines a named enum re-exported at the crate root.
    fn exported(&self, f: &Field) -> bool {
        self.at_root.contains(&std::ptr::from_ref(f).addr())
    }

    /// The defining layout and path of the enum field `f` (of a layout given to `of`) reuses,
    /// when another field defines it.
    fn reused(&self, f: &Field) -> Option<(usize, &str)> {
        self.reuse
            .get(&std::ptr::from_ref(f).addr())?
            .as_ref()
            .map(|(i, path)| (*i, path.as_str()))
    }
}

/// How many enumerated fields of `layouts` take the type of an identical enum (same variants,
/// values and descriptions) that another field defines, and how many types those are.
pub(super) fn merged_enums(layouts: &[Layout]) -> (usize, usize) {
    let plan = Plan::new(layouts);
    let reused: Vec<&str> = plan
        .shared
        .reuse
        .values()
        .filter_map(|r| r.as_ref().map(|(_, path)| path.as_str()))
        .collect();
    let types: std::collections::HashSet<&str> = reused.iter().copied().collect();
    (reused.len(), types.len())
}

/// The path of field `f`'s enum in `layout`'s enum module.
fn enum_path(layout: &Layout, f: &Field) -> String {
    format!(
        "crate::{}::{}",
        name(&layout.name, Case::Snake),
        enum_type(layout, f)
    )
}

/// The name of field `f`'s enum type in its layout's module: the name the description gives it
/// (`[[merge_enums]] name`), else for a member of a field array the array's (`PIN<n>`'s values
/// are `Pin`, not `Pin0`), else the field's own. An array's name another field of the layout
/// already takes for different values falls back to the field's.
fn enum_type(layout: &Layout, f: &Field) -> String {
    if let Some(given) = &f.enum_name {
        return name(given, Case::Camel);
    }
    let own = name(&f.name, Case::Camel);
    let array = layout
        .field_arrays
        .iter()
        .find(|a| a.members.contains(&f.name))
        .map(|a| name(&a.name.replace("<n>", ""), Case::Camel));
    match array {
        Some(array)
            if !layout.fields.iter().any(|other| {
                has_enum(other) && other.enums != f.enums && name(&other.name, Case::Camel) == array
            }) =>
        {
            array
        }
        _ => own,
    }
}

/// Whether a field gets an enum type.
fn has_enum(f: &Field) -> bool {
    !f.enums.is_empty() && (f.access.readable() || f.access.writable())
}

fn variant_doc(f: &Field, e: &EnumValue) -> String {
    doc::paragraphs(&[
        e.doc.as_deref().map(doc::escape),
        e.pattern(f.width).map(|pattern| {
            format!("Read for every value matching `{pattern}` (`x`: either bit); writes take a number.")
        }),
        e.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ])
}

fn layout(c: &mut Code, layout: &Layout, shared: &SharedEnums, page: &[DocLine]) {
    let ty = type_text(layout);
    let raw = uint(layout.width);
    let (lead, table) = struct_doc(layout);
    // The summary stays the first line (rustdoc's listings show it); what the type is, who has
    // it and how a value is used come next, before the details.
    let (summary, rest) = lead.split_once("\n\n").unwrap_or((&lead, ""));
    c.doc(summary);
    c.line("///");
    for line in page {
        match line {
            DocLine::Text(text) if text.is_empty() => c.line("///"),
            DocLine::Text(text) => c.doc(text),
            DocLine::Gated(condition, text) => c.fmt(format_args!(
                "#[cfg_attr({condition}, doc = {})]",
                code::string(text)
            )),
        }
    }
    if !rest.is_empty() {
        c.line("///");
        c.doc(rest);
    }
    c.line("///");
    diagram(c, layout);
    if let Some(table) = table {
        c.line("///");
        c.doc(&table);
    }
    // Uninhabited: a layout is a type-level name; its values are `armreg_rt::Value<Self>`, whose
    // conversions and traits are written once, generically, in the runtime.
    c.fmt(format_args!("pub enum {ty} {{}}"));
    // A field array is one constant; its members get none of their own. `DEFAULT` and `RESET`
    // are the traits' (from `INFO`): as constants here they cost rp2040's crate 13 MB of its
    // 212 MB build peak.
    let arrays = usable_field_arrays(layout);
    let in_array = |f: &Field| {
        arrays
            .iter()
            .any(|(_, members)| members.iter().any(|m| m.name == f.name))
    };
    let own = |f: &&Field| !in_array(f) && has_constant(f);
    if !arrays.is_empty() || layout.fields.iter().any(|f| own(&f)) {
        c.open(&format!("impl {ty}"));
        for f in layout.fields.iter().filter(own) {
            field_constant(c, layout, f);
        }
        for (array, members) in &arrays {
            field_array_constant(c, layout, array, members);
        }
        c.close("");
    }

    // One constant for everything values read of the layout (`Debug` reads the name and the
    // field table in one shared function: a string literal per layout, rather than a chain of
    // calls per type). Four constants cost an eighth of rp2040's build time.
    let reset = reset_value(layout);
    c.open(&format!("impl armreg_rt::Layout for {ty}"));
    c.fmt(format_args!("type Raw = {raw};"));
    c.open(&format!(
        "const INFO: armreg_rt::LayoutInfo<{raw}> = armreg_rt::LayoutInfo"
    ));
    c.fmt(format_args!(
        "res0: {},",
        hex(mask_of(layout, FieldAccess::Res0))
    ));
    let res1 = mask_of(layout, FieldAccess::Res1);
    let effects = WriteEffects::of(layout);
    c.fmt(format_args!("res1: {},", hex(res1)));
    c.fmt(format_args!("default: {},", hex(res1 | effects.on_zero)));
    c.fmt(format_args!("w1_effects: {},", hex(effects.on_one)));
    c.fmt(format_args!("stored: {},", hex(effects.stored)));
    c.fmt(format_args!("integer: {},", hex(integer_mask(layout))));
    match reset {
        Some(value) => c.fmt(format_args!("reset: Some({}),", hex(value))),
        None => c.line("reset: None,"),
    }
    c.fmt(format_args!("name: {},", code::string(&ty)));
    c.fmt(format_args!(
        "fields: {},",
        code::string(&debug_table(layout))
    ));
    c.close(";");
    c.close("");
    // Only a layout with a described reset has `write_from_reset`: the trait says which. Its
    // value is `INFO.reset`, so the impl is empty.
    if reset.is_some() {
        c.fmt(format_args!("impl armreg_rt::Reset for {ty} {{}}"));
    }

    enums(c, layout, shared);
}

fn mask_of(layout: &Layout, access: FieldAccess) -> u64 {
    crate::backend::reset::reserved(layout, access)
}

/// The layout's reset, when every bit of it is described (see `backend::reset`).
fn reset_value(layout: &Layout) -> Option<u64> {
    crate::backend::reset::value(layout)
}

/// Whether the layout's description gives its whole reset value (it implements `Reset`).
pub(super) fn has_reset(layout: &Layout) -> bool {
    reset_value(layout).is_some()
}

/// The type's documentation: the text before the diagram, and the field table after it.
fn struct_doc(layout: &Layout) -> (String, Option<String>) {
    let lead = doc::paragraphs(&[
        layout.doc.as_deref().map(doc::escape),
        layout
            .reset_mask
            .filter(|m| *m != bit_range_mask(0, layout.width))
            .map(|m| {
                format!(
                "Reset value {:#x} with reset mask {m:#x}: the other bits are undefined at reset.",
                layout.reset.unwrap_or(0)
            )
            }),
        Some(format!(
            "Width: {} bits.{}",
            layout.width,
            layout
                .derive
                .as_ref()
                .map(|d| format!(" Derived from {}.", doc::code(&d.base.name)))
                .unwrap_or_default()
        )),
        layout
            .source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ]);
    if layout.fields.is_empty() {
        return (lead, None);
    }
    // Each field links to its constant (an array's member to the array's), which is how the
    // layout is used.
    let arrays = usable_field_arrays(layout);
    let constant = |f: &Field| -> Option<String> {
        if let Some((array, _)) = arrays
            .iter()
            .find(|(_, members)| members.iter().any(|m| m.name == f.name))
        {
            return Some(field_array_const(array));
        }
        (!f.is_reserved() && has_constant(f)).then(|| field_const(f))
    };
    let mut table =
        String::from("| Bits | Field | Access | Reset | Description |\n|---|---|---|---|---|");
    for f in layout.fields.iter().rev() {
        table.push_str(&format!(
            "\n| {} | {} | {} | {} | {} |",
            doc::bits(f),
            match constant(f) {
                _ if f.is_reserved() => "-".to_string(),
                Some(c) => format!("[{}](Self::{c})", doc::code(&f.name)),
                None => doc::code(&f.name),
            },
            doc::access(f.access),
            crate::backend::reset::field(layout, f).map_or("-".to_string(), |r| format!("{r:#x}")),
            doc::summary(f.doc.as_deref()),
        ));
    }
    (lead, Some(table))
}

/// `1 bit`, `4 bits`.
fn bits_count(n: u32) -> String {
    if n == 1 {
        "1 bit".to_string()
    } else {
        format!("{n} bits")
    }
}

fn field_doc(layout: &Layout, f: &Field) -> String {
    doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&f.name),
            f.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(format!(
            "Bits {}, {}. Reset: {}.",
            doc::bits(f),
            doc::access(f.access),
            crate::backend::reset::field(layout, f)
                .map_or("not described".to_string(), |r| format!("{r:#x}")),
        )),
        f.read_action
            .map(|a| format!("Reading has a side effect: {}.", doc::read_action(a))),
        partial_enum_note(f),
        f.write_constraint.map(|c| match c {
            WriteConstraint::Enumerated => "Only the enumerated values may be written.".to_string(),
            WriteConstraint::Range { min, max } => {
                format!("Only values from {min:#x} to {max:#x} may be written.")
            }
            WriteConstraint::LastRead => "Only the value last read may be written.".to_string(),
        }),
        f.enum_default
            .as_deref()
            .map(|d| format!("Values not listed are called {}.", doc::code(d))),
        f.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ])
}

/// The one rule for enumerated fields, said where it applies: a field whose enum names every bit
/// pattern reads as the enum; one that names only some reads as `Result`, the bits of an unnamed
/// value in `Err`.
fn partial_enum_note(f: &Field) -> Option<String> {
    let (values, enum_read, _) = enum_values(f);
    (enum_read && f.access.readable() && !exhaustive(f)).then(|| {
        format!(
            "The description names {} of its {} values, so `get` gives a `Result`: `Ok` with the value's name, or `Err` with the bits of one it does not name (a field whose every value is named gives the value itself).",
            values.len(),
            if f.width >= 64 {
                "2^64".to_string()
            } else {
                (1u128 << f.width).to_string()
            }
        )
    })
}

/// The values a field's enum is made of, and whether the getter and the setter use it: values
/// that are only read, or only written (SVD `usage`), cannot serve both directions, and the other
/// direction then takes the plain integer. A value with don't-care bits (a mask) names several
/// values, so it is only read; a write-only one is left out.
fn enum_values(f: &Field) -> (Vec<&EnumValue>, bool, bool) {
    let read: Vec<&EnumValue> = f
        .enums
        .iter()
        .filter(|e| e.usage != EnumUsage::Write)
        .collect();
    if read.is_empty() {
        let written: Vec<&EnumValue> = f.enums.iter().filter(|e| e.mask.is_none()).collect();
        let enum_write = !written.is_empty();
        return (written, false, enum_write);
    }
    let both = f
        .enums
        .iter()
        .all(|e| e.usage == EnumUsage::ReadWrite && e.mask.is_none());
    (read, true, both)
}

/// The Rust type a field's value has when read: its enum, `bool` or the smallest unsigned
/// integer.
fn field_type(layout: &Layout, f: &Field, use_enum: bool) -> String {
    if use_enum {
        let module = name(&layout.name, Case::Snake);
        let ty = enum_type(layout, f);
        format!("{module}::{ty}")
    } else if f.width == 1 {
        "bool".to_string()
    } else {
        uint(f.width).to_string()
    }
}

/// Where the layout is an integer (a counter, an address, a data register), the bits of that
/// integer: its one field from bit 0 without named values, with nothing else described, or every
/// bit of a layout that describes no field at all; else 0. Its values then convert from integers
/// (`LayoutInfo::integer`).
fn integer_mask(layout: &Layout) -> u64 {
    if layout.fields.is_empty() {
        return bit_range_mask(0, layout.width);
    }
    let mut named = layout.fields.iter().filter(|f| !f.is_reserved());
    match (named.next(), named.next()) {
        (Some(f), None) if f.lsb == 0 && f.enums.is_empty() && has_constant(f) => f.mask(),
        _ => 0,
    }
}

/// Whether an integer field narrower than its Rust type is written: the layout's values take
/// `armreg_rt::UInt` and `armreg_rt::Const`, which the crate root then re-exports.
pub(super) fn has_narrow_fields(layout: &Layout) -> bool {
    layout
        .fields
        .iter()
        .any(|f| f.access.writable() && !enum_values(f).2 && is_narrow(f))
}

/// An integer field of a width no Rust integer has (`u8` for 3 bits).
fn is_narrow(f: &Field) -> bool {
    !matches!(f.width, 1 | 8 | 16 | 32 | 64)
}

/// The Rust type a field takes when written: as read, but an integer narrower than its type is
/// an `armreg_rt::UInt` of the field's width, which cannot hold more than the field.
fn write_type(layout: &Layout, f: &Field, use_enum: bool) -> String {
    if use_enum || !is_narrow(f) {
        field_type(layout, f, use_enum)
    } else {
        format!("armreg_rt::UInt<{}, {}>", uint(f.width), f.width)
    }
}

/// The field type's last parameter, what a write does besides storing (`, armreg_rt::field::W1c`),
/// or nothing for an ordinary field (the default, `Plain`).
fn kind_param(f: &Field) -> String {
    write_kind(f.access)
        .map(|k| format!(", armreg_rt::field::{k}"))
        .unwrap_or_default()
}

fn exhaustive(f: &Field) -> bool {
    let (values, _, _) = enum_values(f);
    f.width < 16
        && values.iter().all(|e| e.mask.is_none())
        && values.len() as u64 == 1u64 << f.width
}

/// The field arrays that become one constant: those still intact (`Layout::intact_field_arrays`)
/// whose constant name no field or other array of the layout has, and whose members are
/// accessible.
fn usable_field_arrays(layout: &Layout) -> Vec<(&FieldArray, Vec<&Field>)> {
    let intact = layout.intact_field_arrays();
    let mut taken: Vec<String> = layout
        .fields
        .iter()
        .filter(|f| {
            !intact
                .iter()
                .any(|(_, m)| m.iter().any(|x| x.name == f.name))
        })
        .map(field_const)
        .collect();
    taken.extend(OWN_CONSTS.iter().map(|c| c.to_string()));
    let mut out = Vec::new();
    for (array, members) in intact {
        let constant = field_array_const(array);
        let accessible = members[0].access.readable() || members[0].access.writable();
        if accessible && !taken.contains(&constant) {
            taken.push(constant);
            out.push((array, members));
        }
    }
    out
}

/// The constant of a field array: its name without `<n>`, in upper case.
/// The constant a field is reached by, within its layout's type: its own (`EN`), an array
/// member's element of the array's (`PIN.at::<3>()`), or none for a reserved field.
pub(super) fn field_rust(layout: &Layout, f: &Field) -> Option<String> {
    if let Some((array, members)) = usable_field_arrays(layout)
        .into_iter()
        .find(|(_, members)| members.iter().any(|m| m.name == f.name))
    {
        let n = members.iter().position(|m| m.name == f.name)?;
        return Some(format!("{}.at::<{n}>()", field_array_const(array)));
    }
    (!f.is_reserved() && has_constant(f)).then(|| field_const(f))
}

fn field_array_const(array: &FieldArray) -> String {
    name(&array.name, Case::Upper)
}

/// A field array as one constant, `FieldArray<Self, R, W, COUNT>`: `at::<N>()`/`try_at(n)` give
/// element N's `Field`, typed as its first member's.
fn field_array_constant(c: &mut Code, layout: &Layout, array: &FieldArray, members: &[&Field]) {
    let first = members[0];
    let (_, enum_read, enum_write) = enum_values(first);
    let read = if first.access.readable() {
        field_type(layout, first, enum_read)
    } else {
        "armreg_rt::field::WriteOnly".to_string()
    };
    let write = if first.access.writable() {
        write_type(layout, first, enum_write)
    } else {
        "armreg_rt::field::ReadOnly".to_string()
    };
    let names: Vec<String> = members.iter().map(|m| doc::code(&m.name)).collect();
    c.doc(&doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&array.name),
            array.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(format!(
            "{} fields of {}, {} apart from bit {}: {}. `.at::<N>()` is field N, checked when the program is compiled; `.try_at(n)` is field n, or an error past the end. {}.",
            members.len(),
            bits_count(first.width),
            bits_count(array.stride),
            first.lsb,
            names.join(", "),
            doc::access(first.access)
        )),
        crate::backend::reset::field(layout, first)
            .filter(|r| {
                members
                    .iter()
                    .all(|m| crate::backend::reset::field(layout, m) == Some(*r))
            })
            .map(|r| format!("Reset: {r:#x} each.")),
    ]));
    c.fmt(format_args!(
        "pub const {}: armreg_rt::FieldArray<Self, {read}, {write}, {}{}> = armreg_rt::FieldArray::new({}, {}, {});",
        field_array_const(array),
        members.len(),
        kind_param(first),
        first.lsb,
        first.width,
        array.stride
    ));
}

/// The associated constant naming a field: its name in upper case, with `_FIELD` appended where
/// it would be one of the layout's own constants.
pub(super) fn field_const(f: &Field) -> String {
    let upper = name(&f.name, Case::Upper);
    if OWN_CONSTS.contains(&upper.as_str()) {
        format!("{upper}_FIELD")
    } else {
        upper
    }
}

/// The constants every layout has from its traits (a field constant of the name would hide
/// them), and the names of its reserved masks (`LayoutInfo`).
const OWN_CONSTS: &[&str] = &["RES0", "RES1", "DEFAULT", "RESET"];

/// Whether a field has a constant: a reserved one (neither read nor written) has none.
fn has_constant(f: &Field) -> bool {
    f.access.readable() || f.access.writable()
}

/// A field as one constant, `Field<Self, R, W>`: its read type `R` and write type `W` say how it
/// is accessed (`WriteOnly`/`ReadOnly` where it is not). One constant per field and three
/// methods every value shares, rather than three methods per field: the accessors were most
/// of a large crate's build time.
fn field_constant(c: &mut Code, layout: &Layout, f: &Field) {
    let (_, enum_read, enum_write) = enum_values(f);
    let read = if f.access.readable() {
        field_type(layout, f, enum_read)
    } else {
        "armreg_rt::field::WriteOnly".to_string()
    };
    let write = if f.access.writable() {
        write_type(layout, f, enum_write)
    } else {
        "armreg_rt::field::ReadOnly".to_string()
    };
    c.doc(&field_doc(layout, f));
    c.fmt(format_args!(
        "pub const {}: armreg_rt::Field<Self, {read}, {write}{}> = armreg_rt::Field::new({}, {});",
        field_const(f),
        kind_param(f),
        f.lsb,
        f.width
    ));
}

/// What `armreg_rt::field::debug_fields` shows of a layout: `name lsb width` per readable field,
/// with `bits=Name` per value of an enumerated one, `;`-separated.
fn debug_table(layout: &Layout) -> String {
    let mut table = String::new();
    for f in layout.fields.iter().filter(|f| f.access.readable()) {
        if !table.is_empty() {
            table.push(';');
        }
        let shown = name(&f.name, Case::Snake);
        table.push_str(&format!("{shown} {} {}", f.lsb, f.width));
        let (variants, enum_read, _) = enum_values(f);
        if enum_read {
            // Exact values first: the first entry that matches names the bits.
            for e in variants.iter().filter(|e| e.mask.is_none()) {
                table.push_str(&format!(" {}={}", e.value, name(&e.name, Case::Camel)));
            }
            for e in variants.iter().filter(|e| e.mask.is_some()) {
                let mask = e.mask.unwrap_or(u64::MAX);
                let shown = name(&e.name, Case::Camel);
                table.push_str(&format!(" {}/{mask}={shown}", e.value));
            }
        }
    }
    table
}

/// `Clone`, `Copy`, `PartialEq` and `Eq` of an enum written out rather than derived: the derives
/// expand to more (a structural-equality marker, an `Eq` assertion function) and were a tenth of a
/// large crate's build. `eq` compares `equal`. No `Hash`: it cost as much again and `bits()`
/// hashes.
fn plain_value_traits(c: &mut Code, ty: &str, equal: &str) {
    c.open(&format!("impl Clone for {ty}"));
    c.line("#[inline(always)]");
    c.open("fn clone(&self) -> Self");
    c.line("*self");
    c.close("");
    c.close("");
    c.fmt(format_args!("impl Copy for {ty} {{}}"));
    c.open(&format!("impl PartialEq for {ty}"));
    c.line("#[inline(always)]");
    c.open("fn eq(&self, other: &Self) -> bool");
    c.line(equal);
    c.close("");
    c.close("");
    c.fmt(format_args!("impl Eq for {ty} {{}}"));
}

/// The enums of a layout's fields, in a module named after the layout.
fn enums(c: &mut Code, layout: &Layout, shared: &SharedEnums) {
    let fields: Vec<&Field> = layout.fields.iter().filter(|f| has_enum(f)).collect();
    if fields.is_empty() {
        return;
    }
    c.doc(&format!(
        "Enumerated field values of {}.",
        doc::code(&layout.name)
    ));
    c.open(&format!("pub mod {}", name(&layout.name, Case::Snake)));
    // Fields whose enum has one name (a field array's members) name it once.
    let mut named = std::collections::HashSet::new();
    for f in fields {
        let ty = enum_type(layout, f);
        if !named.insert(ty.clone()) {
            continue;
        }
        match shared.reused(f) {
            Some((_, path)) => {
                c.doc(&format!(
                    "Values of {} (bits {} of {}): the same values as another field's, one type.",
                    doc::code(&f.name),
                    doc::bits(f),
                    doc::code(&layout.name)
                ));
                c.line("#[doc(no_inline)]");
                c.fmt(format_args!("pub use {path} as {ty};"));
            }
            None => field_enum(c, layout, f),
        }
    }
    c.close("");
    // A named enum is a device-wide name: re-exported up to the crate root.
    for f in layout.fields.iter().filter(|f| shared.exported(f)) {
        c.fmt(format_args!(
            "pub use self::{}::{};",
            name(&layout.name, Case::Snake),
            enum_type(layout, f)
        ));
    }
}

fn field_enum(c: &mut Code, layout: &Layout, f: &Field) {
    let ty = enum_type(layout, f);
    let repr = uint(f.width.max(2));
    let mut variants = enum_values(f).0;
    let masked: Vec<&EnumValue> = variants
        .iter()
        .copied()
        .filter(|e| e.mask.is_some())
        .collect();
    variants.sort_by_key(|e| e.value);
    c.doc(&format!(
        "Values of {} (bits {} of {}).",
        doc::code(&f.name),
        doc::bits(f),
        doc::code(&layout.name)
    ));
    c.fmt(format_args!("#[repr({repr})]"));
    c.open(&format!("pub enum {ty}"));
    for e in &variants {
        c.doc(&variant_doc(f, e));
        c.fmt(format_args!(
            "{} = {},",
            name(&e.name, Case::Camel),
            hex(e.value)
        ));
    }
    c.close("");
    plain_value_traits(c, &ty, &format!("*self as {repr} == *other as {repr}"));
    c.open(&format!("impl {ty}"));
    match variants.split_last() {
        Some((last, rest)) if exhaustive(f) => {
            // The last value takes the wildcard arm: the match is total without a panic path.
            c.line("/// The value for `bits` (only the field's width is looked at).");
            c.line("#[inline(always)]");
            c.open(&format!("pub const fn from_bits(bits: {repr}) -> Self"));
            c.open(&format!("match bits & {}", hex(bit_range_mask(0, f.width))));
            for e in rest {
                c.fmt(format_args!(
                    "{} => Self::{},",
                    hex(e.value),
                    name(&e.name, Case::Camel)
                ));
            }
            c.fmt(format_args!(
                "_ => Self::{},",
                name(&last.name, Case::Camel)
            ));
            c.close("");
            c.close("");
        }
        _ => {
            c.line("/// The value for `bits`, or the bits themselves if no value has them.");
            c.line("#[inline(always)]");
            c.open(&format!(
                "pub const fn try_from_bits(bits: {repr}) -> Result<Self, {repr}>"
            ));
            c.open("match bits");
            // Exact values first, then those with don't-care bits, in the description's order.
            for e in variants.iter().filter(|e| e.mask.is_none()) {
                c.fmt(format_args!(
                    "{} => Ok(Self::{}),",
                    hex(e.value),
                    name(&e.name, Case::Camel)
                ));
            }
            for e in masked {
                c.fmt(format_args!(
                    "bits if bits & {} == {} => Ok(Self::{}),",
                    hex(e.mask.unwrap_or(u64::MAX)),
                    hex(e.value),
                    name(&e.name, Case::Camel)
                ));
            }
            c.line("other => Err(other),");
            c.close("");
            c.close("");
        }
    }
    c.line("/// The field bits of this value.");
    c.line("#[inline(always)]");
    c.open(&format!("pub const fn bits(self) -> {repr}"));
    c.fmt(format_args!("self as {repr}"));
    c.close("");
    c.close("");
    c.open(&format!("impl armreg_rt::field::FieldRead for {ty}"));
    if exhaustive(f) {
        c.line("type Value = Self;");
        c.line("#[inline(always)]");
        c.open("fn from_field_bits(bits: u64) -> Self");
        c.fmt(format_args!("Self::from_bits(bits as {repr})"));
    } else {
        c.fmt(format_args!("type Value = Result<Self, {repr}>;"));
        c.line("#[inline(always)]");
        c.open(&format!(
            "fn from_field_bits(bits: u64) -> Result<Self, {repr}>"
        ));
        c.fmt(format_args!("Self::try_from_bits(bits as {repr})"));
    }
    c.close("");
    c.close("");
    c.open(&format!("impl armreg_rt::field::FieldWrite for {ty}"));
    c.line("#[inline(always)]");
    c.open("fn to_field_bits(self) -> u64");
    c.line("self as u64");
    c.close("");
    c.close("");
    // What derived `Debug` prints, from one string and a function every enum shares: a `match`
    // per enum cost rp2040's crate 1.1 MB of build memory. Inline: compiled only where a value
    // is printed.
    let names: Vec<String> = variants
        .iter()
        .map(|e| format!("{}={}", e.value, name(&e.name, Case::Camel)))
        .collect();
    c.open(&format!("impl core::fmt::Debug for {ty}"));
    c.line("#[inline]");
    c.open("fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result");
    c.fmt(format_args!(
        "armreg_rt::field::debug_variant(f, *self as u64, {})",
        code::string(&names.join(" "))
    ));
    c.close("");
    c.close("");
}
