//! The operations one by one, on SVD, native, TI XML and Linux sysreg inputs.
use super::{device, errors, field, patched, register, svd};
use crate::frontend::Format;
use crate::ir::{EnumUsage, FieldAccess, ReadAction, RegAccess};
use crate::rules::{PATCHES_DO_NOT_CONFLICT, PATCH_OPERATIONS_APPLY};

#[test]
fn modify_sets_attributes_at_every_level() {
    let mut d = svd();
    let log = patched(
        &mut d,
        r#"
[[modify]]
block = "UART0"
set = { doc = "Serial port", size = 0x200 }

[[modify]]
instance = "UART1"
set = { base = 0x50000000 }

[[modify]]
block = "TIMER0"
register = "STATUS"
set = { access = "rw", offset = 0x44, reset = 0x1 }

[[modify]]
block = "TIMER0"
register = "CH*_CR"
field = "MODE"
set = { bits = "3:2", access = "w1c", read_action = "clear" }

[[modify]]
block = "UART0"
register = "CTRL"
field = "PARITY"
value = "ODD"
set = { value = 3, doc = "Odd parity", usage = "write" }
"#,
    );
    let uart = d.blocks.iter().find(|b| b.name == "UART0").unwrap();
    assert_eq!(
        (uart.doc.as_deref(), uart.size),
        (Some("Serial port"), 0x200)
    );
    let uart1 = d.instances.iter().find(|i| i.name == "UART1").unwrap();
    assert_eq!(uart1.base, 0x5000_0000);
    let status = register(&d, "TIMER0", "STATUS");
    assert_eq!(
        (status.access.clone(), status.offset),
        (RegAccess::Rw, 0x44)
    );
    assert_eq!(d.layout(&status.layout.name).unwrap().reset, Some(1));
    for ch in ["CH0_CR", "CH3_CR"] {
        let mode = field(&d, "TIMER0", ch, "MODE");
        assert_eq!((mode.lsb, mode.width), (2, 2));
        assert_eq!(mode.access, FieldAccess::W1c);
        assert_eq!(mode.read_action, Some(ReadAction::Clear));
    }
    let odd = &field(&d, "UART0", "CTRL", "PARITY").enums[1];
    assert_eq!((odd.value, odd.usage), (3, EnumUsage::Write));
    assert!(
        log.iter()
            .any(|l| l.contains("TIMER0.CH0_CR.MODE: bits 2:1 → 3:2")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.contains("p.toml:2:1: [[modify]] UART0: doc")),
        "{log:?}"
    );
}

#[test]
fn delete_removes_elements_and_a_block_with_its_instances() {
    let mut d = svd();
    patched(
        &mut d,
        r#"
[[delete]]
block = "TIMER0"
register = "CH?_DATA"

[[delete]]
block = "TIMER0"
register = "STATUS"
field = "LEVEL"

[[delete]]
block = "UART0"
register = "CTRL"
field = "PARITY"
value = "ODD"

[[delete]]
block = "UART1"
"#,
    );
    let timer = d.blocks.iter().find(|b| b.name == "TIMER0").unwrap();
    assert!(timer.registers.iter().all(|r| !r.name.ends_with("_DATA")));
    assert_eq!(timer.registers.len(), 5);
    let status = d
        .layout(&register(&d, "TIMER0", "STATUS").layout.name)
        .unwrap();
    assert_eq!(status.fields.len(), 1);
    assert_eq!(field(&d, "UART0", "CTRL", "PARITY").enums.len(), 1);
    assert!(d.blocks.iter().all(|b| b.name != "UART1"));
    assert!(d.instances.iter().all(|i| i.name != "UART1"));
    // The deleted registers' layouts go with them.
    assert!(d.layout("TIMER0_CH0_DATA").is_none());
}

#[test]
fn add_creates_blocks_instances_registers_fields_values_and_interrupts() {
    let mut d = svd();
    patched(
        &mut d,
        r#"
[[add]]
new_block = { name = "WDOG", size = 0x10, base = 0x40010000, doc = "Watchdog", registers = [
  { name = "LOAD", offset = 0, reset = 0xFFFF, fields = [ { name = "VALUE", bits = "15:0" } ] },
] }

[[add]]
new_instance = { name = "UART2", block = "UART0", base = 0x40005000 }

[[add]]
block = "TIMER0"
new_register = { name = "PRESCALE", offset = 0x44, access = "wo" }

[[add]]
block = "TIMER0"
register = "STATUS"
new_field = { name = "DONE", bits = "8", access = "w1c", enum = [ { name = "CLEAR", value = 1 } ] }

[[add]]
block = "UART0"
register = "CTRL"
field = "PARITY"
new_value = { name = "EVEN", value = 2, usage = "read" }

[[add]]
instance = "UART*"
new_interrupt = { name = "IRQ", value = 20 }
"#,
    );
    let wdog = d.blocks.iter().find(|b| b.name == "WDOG").unwrap();
    assert_eq!(wdog.registers[0].name, "LOAD");
    let load = d.layout(&wdog.registers[0].layout.name).unwrap();
    assert_eq!((load.reset, load.fields[0].width), (Some(0xFFFF), 16));
    let inst = d.instances.iter().find(|i| i.name == "WDOG").unwrap();
    assert_eq!((inst.base, inst.block.name.as_str()), (0x4001_0000, "WDOG"));
    let uart2 = d.instances.iter().find(|i| i.name == "UART2").unwrap();
    assert_eq!(uart2.block.name, "UART0");
    assert_eq!(register(&d, "TIMER0", "PRESCALE").access, RegAccess::Wo);
    let done = field(&d, "TIMER0", "STATUS", "DONE");
    assert_eq!(
        (done.lsb, done.access, done.enums.len()),
        (8, FieldAccess::W1c, 1)
    );
    let even = &field(&d, "UART0", "CTRL", "PARITY").enums[2];
    assert_eq!((even.name.as_str(), even.usage), ("EVEN", EnumUsage::Read));
    // Every instance the glob matched, the one added by this file excepted (selectors see the
    // device as the file finds it).
    let irqs: Vec<&str> = d
        .instances
        .iter()
        .filter(|i| !i.interrupts.is_empty())
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(irqs, ["UART0", "UART1"]);
}

#[test]
fn rename_takes_captures_and_keeps_references() {
    let mut d = svd();
    let log = patched(
        &mut d,
        r#"
[[rename]]
block = "TIMER0"
register = "CH?_CR"
field = "MODE"
value = "VAL_0x*"
to = "MODE_{1}"

[[rename]]
block = "TIMER0"
to = "TIMER"

[[rename]]
block = "TIMER0"
register = "CH?_DATA"
to = "DATA{1}"
"#,
    );
    let names: Vec<&str> = field(&d, "TIMER", "CH2_CR", "MODE")
        .enums
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["MODE_00", "MODE_01"]);
    register(&d, "TIMER", "DATA3");
    // The instances of the renamed block follow it.
    let of_timer = d
        .instances
        .iter()
        .filter(|i| i.block.name == "TIMER")
        .count();
    assert_eq!(of_timer, 2);
    assert!(log.iter().any(|l| l.ends_with("TIMER0 → TIMER")), "{log:?}");
}

#[test]
fn copy_and_derive_share_blocks() {
    let mut d = svd();
    patched(
        &mut d,
        r#"
[[copy]]
block = "TIMER0"
to = "LPTIMER"
base = 0x40020000

[[copy]]
instance = "UART0"
to = "UART3"
base = 0x40006000

[[derive]]
instance = "UART1"
from = "UART0"
"#,
    );
    let lp = d.blocks.iter().find(|b| b.name == "LPTIMER").unwrap();
    let timer = d.blocks.iter().find(|b| b.name == "TIMER0").unwrap();
    assert_eq!(lp.registers, timer.registers);
    let block_of = |name: &str| {
        d.instances
            .iter()
            .find(|i| i.name == name)
            .map(|i| i.block.name.clone())
            .unwrap()
    };
    assert_eq!(block_of("LPTIMER"), "LPTIMER");
    assert_eq!(block_of("UART3"), "UART0");
    assert_eq!(block_of("UART1"), "UART0");
}

#[test]
fn array_folds_numbered_registers() {
    let mut d = svd();
    let log = patched(
        &mut d,
        r#"
[[array]]
block = "TIMER0"
register = "CH<n>_CR"

[[array]]
block = "TIMER0"
register = "CH<n>_DATA"
name = "DATA<n>"
layout = "TIMER_DATA"
"#,
    );
    let cr = register(&d, "TIMER0", "CH<n>_CR");
    assert_eq!(
        cr.array,
        Some(crate::ir::BlockArray {
            count: 4,
            stride: 8
        })
    );
    assert_eq!((cr.offset, cr.layout.name.as_str()), (0, "TIMER0_CH_CR"));
    let data = register(&d, "TIMER0", "DATA<n>");
    assert_eq!((data.offset, data.layout.name.as_str()), (4, "TIMER_DATA"));
    assert_eq!(d.blocks[0].registers.len(), 3);
    for gone in ["TIMER0_CH1_CR", "TIMER0_CH3_DATA", "TIMER0_CH0_CR"] {
        assert!(d.layout(gone).is_none(), "{gone}");
    }
    assert!(
        log.iter().any(|l| l.contains("count 4, stride 0x8")),
        "{log:?}"
    );
}

#[test]
fn array_needs_alike_registers() {
    let mut d = svd();
    let e = errors(
        &mut d,
        r#"
[[modify]]
block = "TIMER0"
register = "CH2_CR"
field = "EN"
set = { access = "ro" }

[[array]]
block = "TIMER0"
register = "CH<n>_CR"
"#,
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].rule, PATCH_OPERATIONS_APPLY);
    assert!(
        e[0].message.contains("field `EN` differs in its access"),
        "{}",
        e[0].message
    );
    let mut d = svd();
    let e = errors(
        &mut d,
        "[[delete]]\nblock = \"TIMER0\"\nregister = \"CH1_CR\"\n\n[[array]]\nblock = \"TIMER0\"\nregister = \"CH<n>_CR\"\n",
    );
    assert_eq!(e[0].rule, PATCHES_DO_NOT_CONFLICT, "{e:?}");
}

#[test]
fn merged_enums_are_one_set_of_values() {
    let mut d = svd();
    patched(
        &mut d,
        r#"
[[merge_enums]]
block = "TIMER0"
register = "*"
field = "*"
"#,
    );
    let values = |reg: &str, f: &str| -> Vec<(String, u64, Option<String>)> {
        field(&d, "TIMER0", reg, f)
            .enums
            .iter()
            .map(|e| (e.name.clone(), e.value, e.doc.clone()))
            .collect()
    };
    let first = values("CH0_CR", "MODE");
    assert_eq!(first[0].2.as_deref(), Some("Off (channel 0)"));
    for reg in ["CH1_CR", "CH3_CR"] {
        assert_eq!(values(reg, "MODE"), first);
    }
    // STATUS.LEVEL has the same names and values: its descriptions become the channels'.
    assert_eq!(values("STATUS", "LEVEL"), first);
}

#[test]
fn a_shared_layout_is_copied_before_one_of_its_registers_changes() {
    let native = r#"
[device]
name = "d"
[[layout]]
name = "CTRL"
width = 32
fields = [ { name = "EN", bits = "0", access = "rw" } ]
[[block]]
name = "B"
size = 0x10
[[block.register]]
name = "A"
layout = "CTRL"
offset = 0
[[block.register]]
name = "C"
layout = "CTRL"
offset = 4
"#;
    let mut d = device(Format::Native, "d.toml", native);
    let log = patched(
        &mut d,
        "[[modify]]\nblock = \"B\"\nregister = \"C\"\nfield = \"EN\"\nset = { access = \"ro\" }\n",
    );
    assert_eq!(field(&d, "B", "A", "EN").access, FieldAccess::Rw);
    assert_eq!(field(&d, "B", "C", "EN").access, FieldAccess::Ro);
    assert_eq!(register(&d, "B", "C").layout.name, "B_C");
    assert!(
        log.iter().any(|l| l.contains("layout `CTRL` is shared")),
        "{log:?}"
    );
}

#[test]
fn the_same_language_acts_on_ti_xml_and_linux_sysreg() {
    let ti = r#"<?xml version="1.0" encoding="UTF-8"?>
<module id="TIMER" description="A timer module">
  <register id="CTRL" acronym="CTRL" offset="0x0" width="32" description="Control">
    <bitfield id="EN" width="1" begin="0" end="0" rwaccess="RW" description="Enable"/>
  </register>
</module>
"#;
    let mut d = device(Format::TiXml, "t.xml", ti);
    patched(
        &mut d,
        "[[modify]]\nblock = \"TIMER\"\nregister = \"CTRL\"\nfield = \"EN\"\nset = { access = \"w1c\" }\n",
    );
    assert_eq!(field(&d, "TIMER", "CTRL", "EN").access, FieldAccess::W1c);

    let sysreg = "Sysreg\tCTRL_EL1\t3\t0\t15\t0\t0\nRes0\t63:8\nUnsignedEnum\t7:0\tMODE\n\t0b0000\tOFF\n\t0b0001\tON\nEndEnum\nEndSysreg\n";
    let mut d = device(Format::LinuxSysreg, "s.sysreg", sysreg);
    patched(
        &mut d,
        "[[rename]]\nsysreg = \"CTRL_EL1\"\nfield = \"MODE\"\nvalue = \"ON\"\nto = \"ENABLED\"\n\n[[modify]]\nsysreg = \"CTRL_EL1\"\nset = { doc = \"Control\" }\n",
    );
    let reg = &d.sysregs[0];
    assert_eq!(reg.doc.as_deref(), Some("Control"));
    let layout = d.layout(&reg.layout.name).unwrap();
    let mode = layout.fields.iter().find(|f| f.name == "MODE").unwrap();
    assert_eq!(mode.enums[1].name, "ENABLED");
}

#[test]
fn a_field_array_follows_its_fields_past_a_deleted_one() {
    let native = r#"
[device]
name = "d"
[[layout]]
name = "OUT"
width = 32
fields = [
  { name = "A", bits = "0", access = "rw" },
  { name = "PIN0", bits = "1", access = "rw" },
  { name = "PIN1", bits = "2", access = "rw" },
  { name = "PIN2", bits = "3", access = "rw" },
]
[[block]]
name = "GPIO"
size = 0x10
[[block.register]]
name = "OUT"
layout = "OUT"
offset = 0
"#;
    let mut d = device(Format::Native, "d.toml", native);
    // The field before the array goes first: the array's fields are found where they went.
    patched(
        &mut d,
        "[[delete]]\nblock = \"GPIO\"\nregister = \"OUT\"\nfield = \"A\"\n\n[[field_array]]\nblock = \"GPIO\"\nregister = \"OUT\"\nfield = \"PIN<n>\"\n",
    );
    let layout = d.layout(&register(&d, "GPIO", "OUT").layout.name).unwrap();
    assert_eq!(layout.fields.len(), 3);
    assert_eq!(layout.field_arrays[0].members, ["PIN0", "PIN1", "PIN2"]);
}
