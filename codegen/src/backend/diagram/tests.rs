use super::*;
use crate::ir::{Field, Pos};

fn field(name: &str, lsb: u32, width: u32, access: FieldAccess) -> Field {
    Field {
        name: name.to_string(),
        lsb,
        width,
        access,
        reset: None,
        doc: None,
        source: None,
        pos: Pos::default(),
        enums: Vec::new(),
        enum_default: None,
        enum_name: None,
        read_action: None,
        write_constraint: None,
        condition: None,
    }
}

fn layout(width: u32, fields: Vec<Field>) -> Layout {
    Layout {
        name: "CTRL".to_string(),
        width,
        doc: None,
        source: None,
        reset: None,
        reset_mask: None,
        pos: Pos::default(),
        fields,
        field_arrays: Vec::new(),
        derive: None,
    }
}

/// Checks `svg` is well-formed XML and returns the text of every `<text>`/`<tspan>`.
fn texts(svg: &str) -> Vec<String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out = Vec::new();
    let mut depth = 0i32;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth -= 1,
            Event::Text(t) => out.push(t.decode().unwrap().into_owned()),
            Event::GeneralRef(r) => {
                let name = r.decode().unwrap().into_owned();
                let c = match name.as_str() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "#39" => "'",
                    other => panic!("unexpected reference &{other};"),
                };
                match out.last_mut() {
                    Some(last) => last.push_str(c),
                    None => out.push(c.to_string()),
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0, "every element is closed");
    out
}

#[test]
fn names_are_escaped_and_the_result_is_xml() {
    let svg = svg(&layout(
        32,
        vec![
            field("A<&\"'>", 0, 16, FieldAccess::Rw),
            field("B", 16, 1, FieldAccess::W1c),
        ],
    ));
    let all = texts(&svg).join("\n");
    assert!(all.contains("A<&\"'>"), "{all}");
    assert!(!svg.contains("A<&"));
}

#[test]
fn wide_registers_wrap_into_two_rows() {
    let svg = svg(&layout(64, vec![field("CCNT", 0, 64, FieldAccess::Rw)]));
    let all = texts(&svg);
    // One box per row, both named; bit numbers 63..32 above 31..0.
    assert_eq!(all.iter().filter(|t| *t == "CCNT").count(), 2);
    let numbers: Vec<&String> = all.iter().filter(|t| t.parse::<u32>().is_ok()).collect();
    assert_eq!(numbers.first().map(|s| s.as_str()), Some("63"));
    assert_eq!(numbers.len(), 64);
    assert!(svg.lines().filter(|l| l.starts_with("<text y=")).count() == 2);
}

#[test]
fn reserved_and_undescribed_bits_are_shaded_and_explained() {
    let svg = svg(&layout(
        16,
        vec![
            field("EN", 0, 1, FieldAccess::Rw),
            field("RES0_7_4", 4, 4, FieldAccess::Res0),
            field("RES1_8", 8, 1, FieldAccess::Res1),
        ],
    ));
    let all = texts(&svg);
    assert!(all.iter().any(|t| t == "RES0"));
    assert!(all.iter().any(|t| t == "RES1"));
    assert!(svg.contains(Kind::Access(FieldAccess::Res0).fill()));
    assert!(svg.contains(Kind::Undescribed.fill()));
    for legend in ["rw: read/write", "res0: reserved, 0", "not described"] {
        assert!(all.iter().any(|t| t == legend), "legend lacks {legend}");
    }
    // The legend shows only what the layout has.
    assert!(!all.iter().any(|t| t.starts_with("ro:")));
}

#[test]
fn narrow_boxes_get_upright_labels_and_long_names_are_shortened() {
    let svg = svg(&layout(
        32,
        vec![
            field("HPME", 0, 1, FieldAccess::Rw),
            field("AVERYLONGFIELDNAME", 1, 1, FieldAccess::Ro),
        ],
    ));
    assert!(svg.contains(r#"transform="rotate(-90"#));
    let all = texts(&svg);
    assert!(all.iter().any(|t| t == "HPME"));
    assert!(all.iter().any(|t| t == "AVERYLONGFI…"));
    // The full name stays in the tooltip.
    assert!(all
        .iter()
        .any(|t| t.starts_with("AVERYLONGFIELDNAME [1] read-only")));
}

#[test]
fn reset_bits_are_drawn_when_given() {
    let mut l = layout(8, vec![field("V", 0, 8, FieldAccess::Rw)]);
    l.reset = Some(0xa5);
    let svg = svg(&l);
    let all = texts(&svg);
    assert!(all.iter().any(|t| t.contains("reset 0xa5")));
    // One character per bit, most significant first, each at its bit's centre.
    assert!(all.iter().any(|t| t == "10100101"), "{all:?}");
    let line = svg
        .lines()
        .find(|l| l.ends_with(">10100101</text>"))
        .unwrap();
    let xs = line.split('"').nth(1).unwrap();
    let centres: Vec<String> = (0..8)
        .map(|k| num(PAD + f64::from(k) * CELL + CELL / 2.0))
        .collect();
    assert_eq!(xs, centres.join(" "));
}

#[test]
fn deterministic() {
    let l = layout(32, vec![field("E", 0, 1, FieldAccess::Rw)]);
    assert_eq!(svg(&l), svg(&l));
}
