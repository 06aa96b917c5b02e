//! The specification's expression trees, as conditions in the IR and as text.
use serde_json::Value;

use super::schema::Ast;
use crate::ir::Condition;

/// The condition an expression states, or `None` where it always holds (`AST.Bool` true).
pub fn lower(ast: &Ast) -> Option<Condition> {
    match (ast.kind.as_str(), ast.name.as_deref()) {
        ("AST.Bool", _) if ast.value == Some(Value::Bool(true)) => None,
        ("AST.Function", Some("IsFeatureImplemented")) => match ast.arguments.as_slice() {
            [feature] => Some(Condition::Feature {
                name: text(feature),
            }),
            _ => Some(other(ast)),
        },
        ("AST.Function", Some("HaveEL")) => {
            let level = ast.arguments.first().map(text);
            match level.as_deref().and_then(|l| l.strip_prefix("EL")) {
                Some(n @ ("1" | "2" | "3")) => Some(Condition::HaveEl {
                    level: n.parse().unwrap_or(1),
                }),
                _ => Some(other(ast)),
            }
        }
        ("AST.Function", Some("HaveAArch32")) if ast.arguments.is_empty() => {
            Some(Condition::HaveAArch32)
        }
        ("AST.Function", Some("HaveAArch64")) if ast.arguments.is_empty() => {
            Some(Condition::HaveAArch64)
        }
        ("AST.UnaryOp", _) if ast.op.as_deref() == Some("!") => {
            let of = ast.expr.as_deref().map(lower);
            match of {
                Some(Some(of)) => Some(Condition::Not { of: Box::new(of) }),
                _ => Some(other(ast)),
            }
        }
        ("AST.BinaryOp", _) if matches!(ast.op.as_deref(), Some("&&" | "||")) => {
            let and = ast.op.as_deref() == Some("&&");
            let sides = [ast.left.as_deref(), ast.right.as_deref()];
            let mut of = Vec::new();
            for side in sides.into_iter().flatten() {
                match lower(side) {
                    // `true && x` is `x`; `true || x` always holds.
                    None if and => {}
                    None => return None,
                    Some(Condition::All { of: inner }) if and => of.extend(inner),
                    Some(Condition::Any { of: inner }) if !and => of.extend(inner),
                    Some(c) => of.push(c),
                }
            }
            match of.len() {
                0 => None,
                1 => of.pop(),
                _ if and => Some(Condition::All { of }),
                _ => Some(Condition::Any { of }),
            }
        }
        _ => Some(other(ast)),
    }
}

/// Whether a condition is decided by the implemented features and exception levels alone,
/// rather than by the contents of another register or by prose.
pub fn is_static(condition: Option<&Condition>) -> bool {
    match condition {
        None => true,
        Some(Condition::Other { .. }) => false,
        Some(Condition::Not { of }) => is_static(Some(of)),
        Some(Condition::All { of } | Condition::Any { of }) => {
            of.iter().all(|c| is_static(Some(c)))
        }
        Some(_) => true,
    }
}

fn other(ast: &Ast) -> Condition {
    Condition::Other { text: text(ast) }
}

/// An expression in the Arm ARM's pseudocode notation.
pub fn text(ast: &Ast) -> String {
    let value = || match &ast.value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Object(o)) => {
            // `Types.Field`: {name, field, ...}.
            let part = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
            format!("{}.{}", part("name"), part("field"))
        }
        _ => "?".to_string(),
    };
    match ast.kind.as_str() {
        "AST.Function" => {
            let args: Vec<String> = ast.arguments.iter().map(text).collect();
            format!(
                "{}({})",
                ast.name.as_deref().unwrap_or("?"),
                args.join(", ")
            )
        }
        "AST.BinaryOp" => format!(
            "({} {} {})",
            ast.left.as_deref().map_or_else(|| "?".into(), text),
            ast.op.as_deref().unwrap_or("?"),
            ast.right.as_deref().map_or_else(|| "?".into(), text)
        ),
        "AST.UnaryOp" => format!(
            "{}{}",
            ast.op.as_deref().unwrap_or("?"),
            ast.expr.as_deref().map_or_else(|| "?".into(), text)
        ),
        "AST.DotAtom" => ast.values.iter().map(text).collect::<Vec<_>>().join("."),
        "AST.Set" => format!(
            "{{{}}}",
            ast.values.iter().map(text).collect::<Vec<_>>().join(", ")
        ),
        "Types.String" => format!("\"{}\"", value()),
        _ => value(),
    }
}
