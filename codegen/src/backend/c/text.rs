//! The headers' text, written straight from the model: a header is a fixed frame around one
//! regular item per layout, register or instance, so it is written line by line into one buffer,
//! whole lines only, with one blank line between items (rendering it through templates and
//! tidying the result took twice as long). Every number and statement comes from `model`; this
//! module only arranges them.
use std::fmt::Write;

use super::model::{Body, CAccessor, CBlock, CLayout};

/// A header under construction.
struct Header(String);

impl Header {
    fn new(bytes: usize) -> Header {
        Header(String::with_capacity(bytes))
    }

    /// One line: `h.line(format_args!(...))`.
    fn line(&mut self, args: std::fmt::Arguments<'_>) {
        // Writing to a `String` cannot fail.
        let _ = self.0.write_fmt(args);
        self.0.push('\n');
    }

    fn text(&mut self, text: &str) {
        self.0.push_str(text);
        self.0.push('\n');
    }

    fn blank(&mut self) {
        self.0.push('\n');
    }

    fn opening(&mut self, banner: &str, about: &[&str], guard: &str, layouts: bool) {
        self.line(format_args!("/* {banner} */"));
        for line in about {
            self.text(line);
        }
        self.line(format_args!("#ifndef {guard}"));
        self.line(format_args!("#define {guard}"));
        self.blank();
        self.text("#include <stdint.h>");
        if layouts {
            self.text("#include \"layouts.h\"");
        }
    }

    /// A register's comment and constants.
    fn defines(&mut self, a: &CAccessor) {
        self.line(format_args!("/* {} */", a.comment));
        for (name, value) in &a.defines {
            self.line(format_args!("#define {name} {value}"));
        }
    }

    /// A register's `static inline` read and write functions.
    fn functions(&mut self, a: &CAccessor) {
        let params = a.params.join(", ");
        if let Some(read) = &a.read {
            let params = if params.is_empty() { "void" } else { &params };
            self.line(format_args!(
                "static inline {} {}_read({params})",
                a.ty, a.func
            ));
            self.text("{");
            self.statements(read);
            self.line(format_args!("    return {};", read.result));
            self.text("}");
        }
        if let Some(write) = &a.write {
            let sep = if params.is_empty() { "" } else { ", " };
            self.line(format_args!(
                "static inline void {}_write({params}{sep}{} value)",
                a.func, a.ty
            ));
            self.text("{");
            self.statements(write);
            self.text("}");
        }
    }

    fn statements(&mut self, body: &Body) {
        if !body.decl.is_empty() {
            self.line(format_args!("    {}", body.decl));
        }
        if body.switch {
            self.text("    switch (n) {");
            for (n, statement) in &body.elements {
                self.line(format_args!("    case {n}: {statement} break;"));
            }
            self.text("    default: break;");
            self.text("    }");
        } else if let Some((_, statement)) = body.elements.first() {
            self.line(format_args!("    {statement}"));
        }
    }

    /// `#define NAME value`, with ` /* comment */` when there is one.
    fn value(&mut self, name: &str, value: &str, comment: &str) {
        if comment.is_empty() {
            self.line(format_args!("#define {name} {value}"));
        } else {
            self.line(format_args!("#define {name} {value} /* {comment} */"));
        }
    }
}

/// `layouts.h`: every layout's fields, reserved bits and reset.
pub fn layouts_h(banner: &str, crate_name: &str, guard: &str, layouts: &[CLayout]) -> String {
    let mut h = Header::new(layouts.len() * 1024);
    h.opening(
        banner,
        &[
            &format!("/* Register layouts of {crate_name}: for each field its shift, width and mask (in place), GET and"),
            " * PREP helpers and its enumerated values; for each layout its reserved bits and reset value.",
            " * One layout serves every access path that reaches it (see the other headers). */",
        ],
        guard,
        false,
    );
    for l in layouts {
        h.blank();
        h.line(format_args!("/* {} */", l.comment));
        let name = &l.name;
        h.line(format_args!("#define {name}_WIDTH {}u", l.width));
        h.line(format_args!("#define {name}_RES0 {}", l.res0));
        h.line(format_args!("#define {name}_RES1 {}", l.res1));
        if let Some(reset) = &l.reset {
            h.line(format_args!("#define {name}_RESET {reset}"));
        }
        for f in &l.fields {
            let name = &f.name;
            h.line(format_args!("/* {} */", f.comment));
            h.line(format_args!("#define {name}_SHIFT {}u", f.shift));
            h.line(format_args!("#define {name}_WIDTH {}u", f.width));
            h.line(format_args!("#define {name}_MASK {}", f.mask));
            h.line(format_args!(
                "#define {name}_GET(v) (((v) & {name}_MASK) >> {name}_SHIFT)"
            ));
            h.line(format_args!(
                "#define {name}_PREP(x) ((({})(x) << {name}_SHIFT) & {name}_MASK)",
                f.ty
            ));
            for v in &f.values {
                h.value(&v.name, &v.value, &v.comment);
            }
        }
    }
    h.blank();
    h.line(format_args!("#endif /* {guard} */"));
    h.0
}

/// `aarch64.h` or `aarch32.h`: the registers' encodings, and their accessors under `arch`.
pub fn sysregs_h(
    banner: &str,
    crate_name: &str,
    guard: &str,
    what: &str,
    arch: &str,
    registers: &[CAccessor],
) -> String {
    let mut h = Header::new(registers.len() * 1024);
    h.opening(
        banner,
        &[
            &format!("/* {what} of {crate_name}: each register's encoding, and static inline accessors that are one"),
            &format!(" * instruction each where the target has it ({arch}); elsewhere only the macros exist."),
            " * The fields of the values are in layouts.h. */",
        ],
        guard,
        true,
    );
    h.blank();
    for a in registers {
        h.defines(a);
    }
    h.blank();
    h.line(format_args!("#if {arch}"));
    for a in registers {
        h.blank();
        h.functions(a);
    }
    h.line(format_args!("#endif /* {arch} */"));
    h.blank();
    h.line(format_args!("#endif /* {guard} */"));
    h.0
}

/// A block's header: its size, its instances, and its registers' offsets and accessors.
pub fn block_h(banner: &str, guard: &str, block: &CBlock) -> String {
    let mut h = Header::new(block.registers.len() * 1024);
    h.opening(
        banner,
        &[
            &format!("/* {} */", block.comment),
            "/* Register offsets, the instances' base addresses and static inline accessors taking the block's",
            " * base address (volatile accesses, a 64-bit register on a narrower bus as two 32-bit halves,",
            " * lowest address first). The fields of the values are in layouts.h. */",
        ],
        guard,
        true,
    );
    h.blank();
    h.line(format_args!("#define {}_SIZE {}", block.name, block.size));
    for i in &block.instances {
        h.blank();
        h.line(format_args!("/* {} */", i.comment));
        h.line(format_args!("#define {}_BASE {}", i.name, i.base));
        for irq in &i.irqs {
            h.value(&irq.name, &irq.value, &irq.comment);
        }
    }
    for a in &block.registers {
        h.blank();
        h.defines(a);
        h.functions(a);
    }
    h.blank();
    h.line(format_args!("#endif /* {guard} */"));
    h.0
}
