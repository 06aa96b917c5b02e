use super::parse;
use crate::diagnostic::{Diagnostic, Severity};
use crate::ir::{
    BlockArray, Device, EnumUsage, FieldAccess, ReadAction, RegAccess, WriteConstraint,
};

fn svd(peripherals: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<device schemaVersion=\"1.1\">\n  <name>DEV</name>\n  <version>1.0</version>\n  <description>A test device</description>\n  <size>32</size>\n  <access>read-write</access>\n  <resetValue>0</resetValue>\n  <resetMask>0xFFFFFFFF</resetMask>\n  <peripherals>\n{peripherals}\n  </peripherals>\n</device>\n"
    )
}

fn ok(text: &str) -> (Device, Vec<Diagnostic>) {
    match parse("t.svd", text) {
        Ok(r) => r,
        Err(e) => panic!(
            "{}",
            e.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

fn errors(text: &str) -> Vec<String> {
    match parse("t.svd", text) {
        Ok(_) => panic!("parsed without errors"),
        Err(e) => e
            .iter()
            .filter(|d| d.is_error())
            .map(ToString::to_string)
            .collect(),
    }
}

const TIMER: &str = r#"
    <peripheral>
      <name>TIMER0</name>
      <description>Timer</description>
      <baseAddress>0x40010000</baseAddress>
      <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>
      <interrupt><name>TIMER0</name><value>3</value></interrupt>
      <registers>
        <register>
          <name>CR</name>
          <description>Control</description>
          <addressOffset>0x0</addressOffset>
          <resetValue>0x5</resetValue>
          <fields>
            <field><name>EN</name><bitRange>[0:0]</bitRange></field>
            <field>
              <name>MODE</name><bitRange>[3:1]</bitRange>
              <enumeratedValues>
                <usage>read</usage>
                <enumeratedValue><name>Off</name><value>0</value></enumeratedValue>
                <enumeratedValue><name>Other</name><isDefault>true</isDefault></enumeratedValue>
              </enumeratedValues>
              <enumeratedValues>
                <usage>write</usage>
                <enumeratedValue><name>Stop</name><value>0b00x</value></enumeratedValue>
              </enumeratedValues>
            </field>
            <field><name>IRQ</name><bitOffset>4</bitOffset><bitWidth>1</bitWidth>
              <modifiedWriteValues>oneToClear</modifiedWriteValues><readAction>clear</readAction></field>
            <field><name>LIM</name><lsb>8</lsb><msb>15</msb>
              <writeConstraint><range><minimum>1</minimum><maximum>9</maximum></range></writeConstraint></field>
            <field><name>ST</name><bitRange>[16:16]</bitRange><access>read-only</access>
              <modifiedWriteValues>oneToClear</modifiedWriteValues></field>
          </fields>
        </register>
        <register>
          <name>CC[%s]</name>
          <dim>4</dim><dimIncrement>4</dimIncrement>
          <addressOffset>0x10</addressOffset>
          <access>write-only</access>
        </register>
        <register>
          <name>PIN%s</name>
          <dim>3</dim><dimIncrement>4</dimIncrement><dimIndex>A,B,C</dimIndex>
          <addressOffset>0x20</addressOffset>
          <size>16</size>
        </register>
      </registers>
    </peripheral>
    <peripheral derivedFrom="TIMER0">
      <name>TIMER1</name>
      <baseAddress>0x40011000</baseAddress>
      <interrupt><name>TIMER1</name><value>4</value></interrupt>
    </peripheral>"#;

#[test]
fn peripherals_registers_fields_and_positions() {
    let (d, warnings) = ok(&svd(TIMER));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(d.name, "DEV");
    assert_eq!(d.blocks.len(), 1, "TIMER1 shares TIMER0's block");
    let block = &d.blocks[0];
    assert_eq!((block.name.as_str(), block.size), ("TIMER0", 0x100));
    assert_eq!(
        block.access_width, 16,
        "no wider than the narrowest register"
    );
    let inst: Vec<_> = d
        .instances
        .iter()
        .map(|i| {
            (
                i.name.as_str(),
                i.block.name.as_str(),
                i.base,
                i.interrupts[0].value,
            )
        })
        .collect();
    assert_eq!(
        inst,
        [
            ("TIMER0", "TIMER0", 0x4001_0000, 3),
            ("TIMER1", "TIMER0", 0x4001_1000, 4)
        ]
    );
    let names: Vec<_> = block
        .registers
        .iter()
        .map(|r| (r.name.as_str(), r.offset, r.array))
        .collect();
    assert_eq!(
        names,
        [
            ("CR", 0, None),
            (
                "CC<n>",
                0x10,
                Some(BlockArray {
                    count: 4,
                    stride: 4
                })
            ),
            ("PINA", 0x20, None),
            ("PINB", 0x24, None),
            ("PINC", 0x28, None),
        ]
    );
    assert_eq!(block.registers[1].access, RegAccess::Wo);
    assert_eq!(
        block.registers[2].layout.name,
        block.registers[4].layout.name
    );
    let cr = d.layout("TIMER0_CR").unwrap();
    assert_eq!((cr.pos.line, cr.pos.col), (20, 17));
    assert_eq!(cr.reset, Some(5));
    let f = |n: &str| cr.fields.iter().find(|f| f.name == n).unwrap();
    assert_eq!((f("EN").lsb, f("EN").width, f("EN").reset), (0, 1, Some(1)));
    assert_eq!(f("EN").pos.line, 25);
    assert_eq!((f("MODE").lsb, f("MODE").width), (1, 3));
    assert_eq!(f("MODE").enum_default.as_deref(), Some("Other"));
    let modes: Vec<_> = f("MODE")
        .enums
        .iter()
        .map(|e| (e.name.as_str(), e.value, e.usage))
        .collect();
    assert_eq!(
        modes,
        [("Off", 0, EnumUsage::Read), ("Stop", 0, EnumUsage::Write)]
    );
    assert_eq!(f("IRQ").access, FieldAccess::W1c);
    assert_eq!(f("IRQ").read_action, Some(ReadAction::Clear));
    assert_eq!(
        f("LIM").write_constraint,
        Some(WriteConstraint::Range { min: 1, max: 9 })
    );
    assert_eq!(f("ST").access, FieldAccess::Ro);
    assert_eq!(d.layout("TIMER0_PIN").unwrap().width, 16);
}

#[test]
fn clusters_become_blocks_that_flatten_into_the_old_map() {
    let (d, _) = ok(&svd(r#"
    <peripheral>
      <name>P</name>
      <baseAddress>0x1000</baseAddress>
      <registers>
        <cluster>
          <name>PSEL</name>
          <addressOffset>0x100</addressOffset>
          <register><name>TXD</name><addressOffset>0x4</addressOffset></register>
          <cluster>
            <name>IN</name><addressOffset>0x10</addressOffset>
            <register><name>A</name><addressOffset>0x0</addressOffset></register>
          </cluster>
        </cluster>
        <cluster>
          <name>CH[%s]</name>
          <dim>2</dim><dimIncrement>0x8</dimIncrement>
          <addressOffset>0x200</addressOffset>
          <register><name>EEP</name><addressOffset>0x0</addressOffset></register>
          <register><name>TEP</name><addressOffset>0x4</addressOffset></register>
        </cluster>
        <cluster>
          <name>Q_%s</name>
          <dim>2</dim><dimIncrement>0x10</dimIncrement>
          <addressOffset>0x300</addressOffset>
          <register><name>R_%s</name><dim>2</dim><dimIncrement>4</dimIncrement><addressOffset>0</addressOffset></register>
        </cluster>
      </registers>
    </peripheral>"#));
    let p = d.blocks.iter().position(|b| b.name == "P").unwrap();
    let clusters: Vec<_> = d.blocks[p]
        .clusters
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.block.name.as_str(),
                c.offset,
                c.array.map(|a| (a.count, a.stride)),
            )
        })
        .collect();
    assert_eq!(
        clusters,
        [
            ("PSEL", "P_PSEL", 0x100, None),
            ("CH<n>", "P_CH", 0x200, Some((2, 8))),
            ("Q<n>", "P_Q", 0x300, Some((2, 0x10))),
        ]
    );
    assert!(d.blocks[p].registers.is_empty());
    // What C headers, models and the site read: the map flattened as before.
    let mut flat = d.flat_registers(p, 100);
    flat.sort_by_key(|r| r.offset);
    let regs: Vec<_> = flat
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.offset,
                r.array.map(|a| (a.count, a.stride)),
            )
        })
        .collect();
    assert_eq!(
        regs,
        [
            ("PSEL_TXD", 0x104, None),
            ("PSEL_IN_A", 0x110, None),
            ("CH<n>_EEP", 0x200, Some((2, 8))),
            ("CH<n>_TEP", 0x204, Some((2, 8))),
            ("Q0_R<n>", 0x300, Some((2, 4))),
            ("Q1_R<n>", 0x310, Some((2, 4))),
        ]
    );
    assert_eq!(d.layouts.len(), 5);
}

#[test]
fn derived_registers_fields_and_enums() {
    let (d, warnings) = ok(&svd(r#"
    <peripheral>
      <name>P</name>
      <baseAddress>0</baseAddress>
      <registers>
        <register>
          <name>A</name><addressOffset>0</addressOffset>
          <fields>
            <field><name>X</name><bitRange>[1:0]</bitRange>
              <enumeratedValues><name>XV</name>
                <enumeratedValue><name>Zero</name><value>0</value></enumeratedValue>
              </enumeratedValues>
            </field>
            <field derivedFrom="X"><name>Y</name><bitRange>[3:2]</bitRange></field>
            <field><name>Z</name><bitRange>[5:4]</bitRange>
              <enumeratedValues derivedFrom="XV"/></field>
          </fields>
        </register>
        <register derivedFrom="A"><name>B</name><addressOffset>4</addressOffset></register>
        <register derivedFrom="P.A"><name>C</name><addressOffset>8</addressOffset>
          <access>read-only</access></register>
      </registers>
    </peripheral>"#));
    assert!(warnings.is_empty());
    let regs = &d.blocks[0].registers;
    assert_eq!(
        regs[0].layout.name, regs[1].layout.name,
        "B shares A's layout"
    );
    assert_ne!(
        regs[0].layout.name, regs[2].layout.name,
        "C's access differs"
    );
    assert_eq!(regs[2].access, RegAccess::Ro);
    let a = d.layout(&regs[0].layout.name).unwrap();
    for f in &a.fields {
        assert_eq!(f.enums.len(), 1, "field {}", f.name);
        assert_eq!(f.enums[0].name, "Zero");
    }
    let c = d.layout(&regs[2].layout.name).unwrap();
    assert!(c.fields.iter().all(|f| f.access == FieldAccess::Ro));
}

#[test]
fn alternates_arrays_and_names() {
    let (d, warnings) = ok(&svd(r#"
    <peripheral>
      <name>GPIO[%s]</name>
      <dim>2</dim><dimIncrement>0x100</dimIncrement>
      <baseAddress>0x5000</baseAddress>
      <registers>
        <register><name>MODE</name><addressOffset>0</addressOffset></register>
        <register><name>MODE</name><alternateGroup>ALT</alternateGroup><addressOffset>0</addressOffset></register>
        <register><name>OUT</name><addressOffset>4</addressOffset></register>
        <register><name>OUTSET</name><alternateRegister>OUT</alternateRegister><addressOffset>4</addressOffset></register>
        <register><name>DEBUG_%s</name><dim>2</dim><dimIncrement>4</dimIncrement><addressOffset>8</addressOffset></register>
      </registers>
    </peripheral>
    <peripheral derivedFrom="GPIO[%s]">
      <name>GPIOX</name>
      <baseAddress>0x6000</baseAddress>
      <registers>
        <register><name>ONLY</name><addressOffset>0</addressOffset></register>
      </registers>
    </peripheral>"#));
    assert!(warnings.is_empty(), "{warnings:?}");
    let inst: Vec<_> = d
        .instances
        .iter()
        .map(|i| (i.name.as_str(), i.block.name.as_str(), i.base))
        .collect();
    assert_eq!(
        inst,
        [
            ("GPIO0", "GPIO", 0x5000),
            ("GPIO1", "GPIO", 0x5100),
            ("GPIOX", "GPIOX", 0x6000)
        ]
    );
    let regs: Vec<_> = d.blocks[0]
        .registers
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.alias_of.as_ref().map(|a| a.name.as_str()),
            )
        })
        .collect();
    assert_eq!(
        regs,
        [
            ("MODE", None),
            ("MODE_ALT", Some("MODE")),
            ("OUT", None),
            ("OUTSET", Some("OUT")),
            ("DEBUG<n>", None),
        ]
    );
    assert_eq!(
        d.blocks[1].registers.len(),
        1,
        "GPIOX has registers of its own"
    );
}

#[test]
fn derived_from_errors_point_at_the_attribute() {
    let e = errors(&svd(r#"
    <peripheral derivedFrom="NOPE"><name>P</name><baseAddress>0</baseAddress></peripheral>
    <peripheral derivedFrom="R"><name>Q</name><baseAddress>0</baseAddress></peripheral>
    <peripheral derivedFrom="Q"><name>R</name><baseAddress>0</baseAddress></peripheral>"#));
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].starts_with("t.svd:12:30: error[derived_from_resolves]: peripheral `P` derives from `NOPE`, which is no peripheral"),
        "{}",
        e[0]
    );
    assert!(
        e[1].contains("error[derived_from_resolves]: peripheral `Q` derives from itself"),
        "{}",
        e[1]
    );
}

#[test]
fn keyword_defects_are_repaired_with_warnings() {
    let (d, warnings) = ok(&svd(r#"
    <peripheral>
      <name>P</name>
      <baseAddress>0</baseAddress>
      <registers>
        <register>
          <name>A</name><addressOffset>0</addressOffset>
          <fields>
            <field><name>X</name><bitRange>[0:0]</bitRange><access>read-writeonce</access></field>
            <field><name>Y</name><bitRange>[1:1]</bitRange><access>write</access>
              <enumeratedValues><usage>read-only</usage>
                <enumeratedValue><name>V</name><value>1</value></enumeratedValue>
              </enumeratedValues></field>
          </fields>
        </register>
      </registers>
    </peripheral>"#));
    let w: Vec<_> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(w.len(), 3, "{w:?}");
    assert!(w.iter().all(|w| w.contains("warning[keywords_are_known]")));
    assert!(warnings.iter().all(|w| w.severity == Severity::Warning));
    let a = &d.layouts[0];
    assert_eq!(a.fields[0].access, FieldAccess::RwOnce);
    assert_eq!(a.fields[1].access, FieldAccess::Wo);
    assert_eq!(a.fields[1].enums[0].usage, EnumUsage::ReadWrite);
}

#[test]
fn case_repairs_before_the_reading_give_what_the_checks_give() {
    // Only same-length, case-only misspellings of a keyword element's whole text are repaired
    // before the XML is read; the checks still warn about each, and the result is the repaired
    // file's.
    let text = svd(r#"
    <peripheral>
      <name>P</name>
      <baseAddress>0</baseAddress>
      <!-- <access>READ-ONLY</access> in a comment is read by the scan, not by the checks -->
      <registers>
        <register>
          <name>A</name><addressOffset>0</addressOffset>
          <fields>
            <field><name>X</name><bitRange>[0:0]</bitRange><access>read-writeonce</access></field>
            <field><name>Y</name><bitRange>[1:1]</bitRange><access> Read-Only </access></field>
            <field><name>Z</name><bitRange>[2:2]</bitRange><access>write</access></field>
          </fields>
        </register>
      </registers>
    </peripheral>"#);
    let repairs = super::check::case_repairs(&text);
    let repaired = super::check::repaired(&text, &repairs);
    assert_eq!(repaired.len(), text.len());
    assert!(repaired.contains("<access>read-writeOnce</access>"));
    assert!(repaired.contains("<!-- <access>read-only</access>"));
    // Surrounding white space and aliases are the checks' to repair.
    assert!(repaired.contains("<access> Read-Only </access>") && repaired.contains(">write<"));
    let (device, warnings) = ok(&text);
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    let fixed = text
        .replace("read-writeonce", "read-writeOnce")
        .replace("> Read-Only <", ">read-only<")
        .replace(">write<", ">write-only<");
    let (expected, none) = ok(&fixed);
    assert!(none.is_empty(), "{none:?}");
    let accesses = |d: &Device| {
        d.layouts[0]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.access))
            .collect::<Vec<_>>()
    };
    assert_eq!(accesses(&device), accesses(&expected));
    assert_eq!(accesses(&device)[0].1, FieldAccess::RwOnce);
    assert!(super::check::case_repairs(&fixed.replace("READ-ONLY", "read-only")).is_empty());
}

#[test]
fn value_errors_have_positions() {
    let reg = |body: &str| {
        let name = if body.contains("<dim>") { "A%s" } else { "A" };
        svd(&format!(
            "    <peripheral><name>P</name><baseAddress>0</baseAddress><registers>\n      <register><name>{name}</name>{body}</register>\n    </registers></peripheral>"
        ))
    };
    let cases = [
        (
            "<addressOffset>0x1G</addressOffset>",
            "t.svd:12:46: error[numbers_parse]: `<addressOffset>` value `0x1G` is not a number",
        ),
        (
            "<addressOffset>0</addressOffset><fields><field><name>F</name><bitRange>[2:5]</bitRange></field></fields>",
            "t.svd:12:102: error[bit_ranges_ordered]: bitRange `[2:5]` has its msb (2) below its lsb (5)",
        ),
        (
            "<addressOffset>0</addressOffset><dim>2</dim><dimIncrement>4</dimIncrement><dimIndex>0-2</dimIndex>",
            "t.svd:12:117: error[dim_index_matches_dim]: `<dimIndex>` `0-2` gives 3 index(es) but `<dim>` is 2",
        ),
        (
            "<addressOffset>0</addressOffset><size>96</size>",
            "t.svd:12:69: error[register_sizes_supported]: register size 96 is not 1 to 64 bits: no access reaches it",
        ),
        (
            "<addressOffset>0</addressOffset><access>sometimes</access>",
            "t.svd:12:71: error[keywords_are_known]: `<access>` `sometimes` is not one of",
        ),
        (
            "",
            "t.svd:12:7: error[svd_elements_valid]: Parsing register `A`: Expected a <addressOffset> tag, found none",
        ),
    ];
    for (body, want) in cases {
        let e = errors(&reg(body));
        assert!(e[0].starts_with(want), "{body}:\n{}", e.join("\n"));
    }
}

#[test]
fn xml_errors_have_positions() {
    let e = errors("<device>\n  <name>X</name>\n  <peripherals>\n</device>\n");
    assert!(
        e[0].starts_with(
            "t.svd:4:3: error[xml_well_formed]: `</device>` does not match `<peripherals>`"
        ),
        "{e:?}"
    );
    let e = errors("<device>\n  <name>X</nam");
    assert!(
        e[0].contains("error[xml_well_formed]: the file ends inside an end tag"),
        "{e:?}"
    );
    let e = errors("<registers/>");
    assert!(e[0].contains("error[svd_elements_valid]: the root element is `<registers>`"));
}

/// Every prefix of a valid file, and the file with any one byte changed, is parsed without a
/// panic (an error or a device, whatever it gives).
#[test]
fn never_panics() {
    let text = svd(TIMER);
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = parse("t.svd", &text[..end]);
    }
    let replacements = [
        "0",
        "x",
        "<",
        ">",
        "/",
        "%s",
        "[",
        "-",
        "\"",
        " ",
        "99999999999",
    ];
    for i in (0..text.len()).step_by(7) {
        for r in replacements {
            let mutated = format!("{}{r}{}", &text[..i], &text[i + 1..]);
            let _ = parse("t.svd", &mutated);
        }
    }
}

/// The `never_panics` check on a real file, through the passes and the Rust backend too:
/// `SVD_FUZZ=<file.svd> [SVD_FUZZ_STEP=<n>] cargo test -p armreg-codegen --lib fuzz_corpus_file -- --ignored`
/// parses every n-th prefix of the file and the file with every n-th byte replaced.
#[test]
#[ignore = "needs SVD_FUZZ=<file.svd>"]
fn fuzz_corpus_file() {
    let path = std::env::var("SVD_FUZZ").expect("SVD_FUZZ names an SVD file");
    let text = std::fs::read_to_string(path).expect("SVD_FUZZ is readable");
    let step: usize = std::env::var("SVD_FUZZ_STEP").map_or(97, |s| s.parse().unwrap_or(97));
    let mut n = 0;
    for end in (0..text.len())
        .step_by(step)
        .filter(|&i| text.is_char_boundary(i))
    {
        let _ = parse("t.svd", &text[..end]);
        n += 1;
    }
    let replacements = [
        "0",
        "x",
        "<",
        ">",
        "/",
        "%s",
        "[",
        "-",
        "\"",
        "derivedFrom=\"X\" ",
        "99999999999",
        "<dim>5000</dim>",
    ];
    for (k, i) in (0..text.len()).step_by(step).enumerate() {
        if !text.is_char_boundary(i) || !text.is_char_boundary(i + 1) {
            continue;
        }
        let r = replacements[k % replacements.len()];
        let mutated = format!("{}{r}{}", &text[..i], &text[i + 1..]);
        if let Ok((mut d, _)) = parse("t.svd", &mutated) {
            let diags = crate::passes::run(&mut d, crate::passes::Mode::Lenient);
            if !diags.iter().any(|d| d.is_error()) {
                let _ = crate::backend::rust::generate(
                    &d,
                    "x",
                    &["t.svd".to_string()],
                    &crate::backend::rust::Packaging::default(),
                    crate::backend::Outputs {
                        c_headers: true,
                        models: true,
                    },
                );
            }
        }
        n += 1;
    }
    eprintln!("{n} inputs");
}

#[test]
fn crlf_line_ends_read_as_lf_ones() {
    // The white space between elements is blanked before roxmltree reads it; the device and
    // every line and column are what the same file with LF line ends gives (byte spans differ
    // by a byte a line).
    let text = svd(&format!(
        "{TIMER}\n    <peripheral>\n      <name>P</name>\n      <description>Two\n        lines</description>\n      <baseAddress>0</baseAddress>\n    </peripheral>"
    ));
    let crlf = text.replace('\n', "\r\n");
    let (lf_device, lf_warnings) = ok(&text);
    let (crlf_device, crlf_warnings) = ok(&crlf);
    let without_spans = |d: &Device| {
        let text = format!("{d:?}");
        let mut out = String::new();
        for (i, part) in text.split(", span: (").enumerate() {
            out.push_str(if i == 0 {
                part
            } else {
                &part[part.find(')').unwrap() + 1..]
            });
        }
        out
    };
    assert_eq!(without_spans(&crlf_device), without_spans(&lf_device));
    assert_eq!(crlf_warnings.len(), lf_warnings.len());
    let broken = text.replace("[3:1]", "[1:3]");
    assert_eq!(errors(&broken.replace('\n', "\r\n")), errors(&broken));
}
