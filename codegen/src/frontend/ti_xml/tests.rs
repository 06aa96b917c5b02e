use super::*;
use crate::diagnostic::Severity;

/// Parses `text` as if read from `file` (relative to the current directory).
fn parse_text(file: &str, text: &str) -> Parsed {
    parse(file, Path::new(file), text, &mut Sources::default())
}

const MODULE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<module id="TIMER" HW_revision="" XML_version="1" description="A small timer">
  <register id="CTRL" acronym="CTRL" offset="0x0" width="32" description="Control">
    <bitfield id="EN" width="1" begin="0" end="0" resetval="0x0" description="Enable" rwaccess="R/W">
      <bitenum id="OFF" value="0" token="OFF" description="Stopped"/>
      <bitenum id="ON" value="1" token="ON" description="Running"/>
    </bitfield>
    <bitfield id="MODE" width="2" begin="5" end="4" resetval="2" description="Mode" rwaccess="RW"/>
    <bitfield id="RESERVED" width="26" begin="31" end="6" resetval="0" description="" rwaccess="N"/>
  </register>
  <register id="STATUS" acronym="STATUS" offset="0x4" width="32" description="Status">
    <bitfield id="OVF" width="1" begin="0" end="0" rwaccess="R/W1C" description="Overflow"/>
    <bitfield id="ARM" width="1" begin="1" end="1" rwaccess="W1S" description="Arm"/>
  </register>
  <register id="COUNT" acronym="COUNT" offset="0x8" width="64" description="Count">
    <bitfield id="VALUE" width="64" begin="63" end="0" rwaccess="R"/>
  </register>
  <register id="KICK" acronym="KICK" offset="0x10" width="32">
    <bitfield id="KEY" width="32" begin="31" end="0" rwaccess="W"/>
  </register>
</module>
"#;

fn field<'a>(d: &'a Device, layout: &str, name: &str) -> &'a Field {
    d.layout(layout)
        .and_then(|l| l.fields.iter().find(|f| f.name == name))
        .unwrap_or_else(|| panic!("{layout}.{name}"))
}

#[test]
fn module_file_gives_a_block_and_a_layout_per_register() {
    let (d, warnings) = parse_text("m/timer.xml", MODULE).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(d.name, "TIMER");
    assert_eq!(d.blocks.len(), 1);
    let b = &d.blocks[0];
    assert_eq!(
        (b.name.as_str(), b.size, b.access_width),
        ("TIMER", 0x14, 32)
    );
    let regs: Vec<(&str, u64, &RegAccess)> = b
        .registers
        .iter()
        .map(|r| (r.name.as_str(), r.offset, &r.access))
        .collect();
    assert_eq!(
        regs,
        [
            ("CTRL", 0x0, &RegAccess::Rw),
            ("STATUS", 0x4, &RegAccess::Rw),
            ("COUNT", 0x8, &RegAccess::Ro),
            ("KICK", 0x10, &RegAccess::Wo),
        ]
    );
    assert_eq!(d.layout("COUNT").unwrap().width, 64);
    let mode = field(&d, "CTRL", "MODE");
    assert_eq!((mode.lsb, mode.width, mode.reset), (4, 2, Some(2)));
    assert_eq!(field(&d, "CTRL", "RESERVED").access, FieldAccess::RazWi);
    assert_eq!(field(&d, "STATUS", "OVF").access, FieldAccess::W1c);
    assert_eq!(field(&d, "STATUS", "ARM").access, FieldAccess::W1s);
    let en = field(&d, "CTRL", "EN");
    assert_eq!(en.enums.len(), 2);
    assert_eq!((en.enums[1].name.as_str(), en.enums[1].value), ("ON", 1));
    // Positions: the register's id, line 3 column 17; the field's id on line 4.
    let ctrl = &b.registers[0];
    assert_eq!(
        (ctrl.pos.file.as_str(), ctrl.pos.line, ctrl.pos.col),
        ("m/timer.xml", 3, 17)
    );
    assert_eq!((en.pos.line, en.pos.col), (4, 19));
    assert!(d.instances.is_empty());
}

#[test]
fn device_file_places_module_instances() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("dev/Modules")).unwrap();
    std::fs::write(dir.path().join("dev/Modules/timer.xml"), MODULE).unwrap();
    let device = r#"<?xml version="1.0"?>
<device id="SOC" description="A SoC">
  <cpu id="CPU0">
    <instance id="TIMER0" href="Modules/timer.xml" baseaddr="0x0000000140000000" size="0x1000" description="first"/>
    <instance id="TIMER1" href="./Modules/../Modules/timer.xml" baseaddr="0x40001000"/>
  </cpu>
</device>
"#;
    let file = dir.path().join("dev/soc.xml");
    std::fs::write(&file, device).unwrap();
    let shown = file.display().to_string();
    let (d, warnings) = parse_text(&shown, device).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(d.name, "SOC");
    assert_eq!(d.blocks.len(), 1, "one module file, read once");
    assert_eq!(d.blocks[0].size, 0x1000, "the instance's size");
    let inst: Vec<(&str, u64, &str)> = d
        .instances
        .iter()
        .map(|i| (i.name.as_str(), i.base, i.block.name.as_str()))
        .collect();
    assert_eq!(
        inst,
        [
            ("TIMER1", 0x4000_1000, "TIMER"),
            ("TIMER0", 0x1_4000_0000, "TIMER")
        ]
    );
    assert_eq!(d.instances[1].doc.as_deref(), Some("first"));
    assert_eq!(d.instances[1].pos.line, 4);
    // Module elements carry the module file's own name.
    let module_file = dir
        .path()
        .join("dev/Modules/timer.xml")
        .display()
        .to_string();
    assert_eq!(d.blocks[0].registers[0].pos.file, module_file);
}

#[test]
fn device_file_reports_module_errors_in_the_module_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = MODULE.replace("begin=\"5\" end=\"4\"", "begin=\"4\" end=\"5\"");
    std::fs::write(dir.path().join("timer.xml"), bad).unwrap();
    let device = "<device id=\"SOC\">\n  <instance id=\"T\" href=\"timer.xml\" baseaddr=\"0x0\"/>\n  <instance id=\"U\" href=\"missing.xml\" baseaddr=\"0x0\"/>\n</device>\n";
    let file = dir.path().join("soc.xml");
    std::fs::write(&file, device).unwrap();
    let shown = file.display().to_string();
    let errors = parse_text(&shown, device).unwrap_err();
    let module_file = dir.path().join("timer.xml").display().to_string();
    let found: Vec<(&str, &str, u32)> = errors
        .iter()
        .map(|e| (e.rule.name, e.pos.file.as_str(), e.pos.line))
        .collect();
    assert!(
        found.contains(&("description_syntax", module_file.as_str(), 8)),
        "{errors:?}"
    );
    assert!(
        found.contains(&("input_readable", shown.as_str(), 3)),
        "{errors:?}"
    );
}

#[test]
fn access_names_and_repairs() {
    let text = |access: &str| {
        format!(
            "<module id=\"M\">\n<register id=\"R\" offset=\"0\" width=\"32\">\n<bitfield id=\"F\" begin=\"0\" end=\"0\" rwaccess=\"{access}\"/>\n</register>\n</module>\n"
        )
    };
    for (spelling, expected) in [
        ("R", FieldAccess::Ro),
        ("WO", FieldAccess::Wo),
        ("RW1C", FieldAccess::W1c),
        ("R/W1S", FieldAccess::W1s),
    ] {
        let (d, w) = parse_text("m.xml", &text(spelling)).unwrap();
        assert!(w.is_empty());
        assert_eq!(d.layouts[0].fields[0].access, expected, "{spelling}");
    }
    let (d, w) = parse_text("m.xml", &text("r/w")).unwrap();
    assert_eq!(d.layouts[0].fields[0].access, FieldAccess::Rw);
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].severity, Severity::Warning);
    assert_eq!((w[0].pos.line, w[0].pos.col), (3, 46));
    let e = parse_text("m.xml", &text("RX")).unwrap_err();
    assert_eq!(e[0].rule, DESCRIPTION_SYNTAX);
    assert!(e[0].is_error());
}

#[test]
fn byte_order_mark_is_skipped() {
    let text = format!("\u{feff}{MODULE}");
    let (d, _) = parse_text("m.xml", &text).unwrap();
    assert_eq!(d.blocks[0].registers.len(), 4);
    assert_eq!(d.blocks[0].registers[0].pos.line, 3);
}

#[test]
fn numbers() {
    assert_eq!(parse_number("0x1F"), Some(31));
    assert_eq!(parse_number(" 12 "), Some(12));
    assert_eq!(parse_number("0x0000000730130000"), Some(0x7_3013_0000));
    for bad in ["", "0x", "+1", "1G", "0x1G", "-1", "99999999999999999999"] {
        assert_eq!(parse_number(bad), None, "{bad}");
    }
}

#[test]
fn shown_paths_are_normalised() {
    assert_eq!(shown_path("a/b/dev.xml", "../m/x.xml"), "a/m/x.xml");
    assert_eq!(shown_path("dev.xml", "./m/x.xml"), "m/x.xml");
    assert_eq!(shown_path("dev.xml", "../x.xml"), "../x.xml");
}

#[test]
fn nothing_panics_on_odd_input() {
    for text in [
        "",
        "<",
        "<module",
        "<module id=\"M\"><register/></module>",
        "<module><register id=\"R\" offset=\"0\" width=\"32\"><bitfield/></register></module>",
        "<device><instance/></device>",
        "<other/>",
        "\u{feff}<module id=\"M\"/>",
        "<module id=\"M\"><register id=\"R\" offset=\"0xFFFFFFFF\" width=\"64\"><bitfield id=\"F\" begin=\"1023\" end=\"0\" rwaccess=\"R\"/></register></module>",
    ] {
        let _ = parse_text("x.xml", text);
    }
}
