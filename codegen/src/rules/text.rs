//! The registry as text: one rule explained (`armreg-codegen explain <rule>`), the list of every
//! rule (`explain` alone), and the README's table of rules.
use super::{InputFormat, Rule, RuleSeverity, ALL, DESCRIPTIONS, EVERY_INPUT};

/// What a severity means, for `explain`.
fn meaning(severity: RuleSeverity) -> &'static str {
    match severity {
        RuleSeverity::Error => "error: nothing is generated until it is mended",
        RuleSeverity::Defect => "defect: an error in strict mode (native descriptions, --strict); in lenient mode it is repaired, with a warning saying how",
    }
}

/// The inputs a rule applies to, in words.
fn inputs(formats: &[InputFormat]) -> String {
    if formats == EVERY_INPUT {
        "every input".to_string()
    } else if formats == DESCRIPTIONS {
        "every description".to_string()
    } else {
        let names: Vec<&str> = formats.iter().map(|f| f.as_str()).collect();
        names.join(", ")
    }
}

/// One rule, explained: what it checks, how it is treated, where it applies, and an input that
/// breaks it.
pub fn explain(rule: &Rule) -> String {
    let example: String = rule
        .example
        .lines()
        .map(|line| format!("    {line}\n"))
        .collect();
    format!(
        "rule:       {}\nseverity:   {}\nchecks:     {}\napplies to: {}\n\nAn input that breaks it:\n\n{example}",
        rule.name,
        meaning(rule.severity),
        rule.summary,
        inputs(rule.formats),
    )
}

/// Every rule on a line of its own: name, severity, what it checks.
pub fn list() -> String {
    let width = ALL.iter().map(|rule| rule.name.len()).max().unwrap_or(0);
    let mut out = format!(
        "{} rules (`armreg-codegen explain <rule>` explains one):\n\n",
        ALL.len()
    );
    for rule in ALL {
        out.push_str(&format!(
            "  {:width$}  {:6}  {}\n",
            rule.name,
            rule.severity.as_str(),
            rule.summary
        ));
    }
    out
}

/// The README's table of rules (Markdown).
pub fn readme_table() -> String {
    let mut out = String::from("| rule | checks | inputs | broken |\n|---|---|---|---|\n");
    for rule in ALL {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            rule.name,
            rule.summary,
            inputs(rule.formats),
            rule.severity.as_str()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{INPUT_READABLE, NO_OVERLAPPING_FIELDS};

    #[test]
    fn an_explanation_gives_every_part() {
        let text = explain(NO_OVERLAPPING_FIELDS);
        assert!(text.starts_with("rule:       no_overlapping_fields\nseverity:   defect: "));
        assert!(
            text.contains("applies to: native TOML, CMSIS-SVD, TI XML, Linux sysreg, AARCHMRS\n")
        );
        assert!(text.ends_with("    fields = [ { name = \"MODE\", bits = \"3:0\" }, { name = \"EN\", bits = \"2\" } ]\n"));
        assert!(explain(INPUT_READABLE).contains("applies to: every input\n"));
    }

    #[test]
    fn the_table_has_a_row_per_rule_and_no_stray_bar() {
        let table = readme_table();
        assert_eq!(table.lines().count(), ALL.len() + 2);
        for line in table.lines() {
            assert_eq!(line.matches('|').count(), 5, "{line}");
        }
    }
}
