//! Which keywords hold subschemas, and the check of a schema when its tool is declared: each
//! keyword's own value of the type the draft needs, every reference found inside the schema,
//! every pattern one the host's engine compiles.

use super::draft::{each_subschema, Draft};
use super::index::Index;
use super::text::push_key;
use super::{pattern, Options};
use serde_json::Value;

/// A schema that is not valid JSON Schema: where (`properties.id.pattern`, empty for the root)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaFault {
    pub path: String,
    pub message: String,
}

/// Checks that `schema` is a JSON Schema the validator can run (see the module docs).
pub fn check(schema: &Value, options: &Options) -> Result<(), SchemaFault> {
    let draft = Draft::of(schema, options.draft);
    let index = Index::new(schema, draft);
    let mut checker = Checker {
        index: &index,
        draft,
    };
    checker.schema(schema, &mut String::new(), 0, 0)
}

struct Checker<'i, 's> {
    index: &'i Index<'s>,
    draft: Draft,
}

const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

impl<'s> Checker<'_, 's> {
    fn schema(
        &mut self,
        node: &'s Value,
        path: &mut String,
        depth: usize,
        mut base: usize,
    ) -> Result<(), SchemaFault> {
        let fault = |path: &str, key: &str, message: String| {
            let mut p = path.to_owned();
            if !key.is_empty() {
                push_key(&mut p, key);
            }
            Err(SchemaFault {
                path: p.trim_start_matches('.').to_owned(),
                message,
            })
        };
        let s = match node {
            Value::Bool(_) => return Ok(()),
            Value::Object(s) => s,
            other => {
                return fault(
                    path,
                    "",
                    format!(
                        "a schema must be an object or a boolean, not {}",
                        crate::protocol::validate::json_type_name(other)
                    ),
                )
            }
        };
        if depth > super::MAX_DEPTH {
            return fault(
                path,
                "",
                format!("schemas nested more than {} deep", super::MAX_DEPTH),
            );
        }
        if let Some(r) = self.index.resource_of(node) {
            base = r;
        }
        for (k, v) in s {
            let bad = match k.as_str() {
                "type" => match v {
                    Value::String(t) => (!TYPES.contains(&t.as_str()))
                        .then(|| format!("{} is not a type name", super::text::brief(v))),
                    Value::Array(ts) => ts
                        .iter()
                        .any(|t| !t.as_str().is_some_and(|t| TYPES.contains(&t)))
                        .then(|| "must be an array of type names".to_owned()),
                    _ => Some("must be a type name or an array of them".into()),
                },
                "enum" => (!v.is_array()).then(|| "must be an array".into()),
                "multipleOf" => (!v.as_f64().is_some_and(|x| x > 0.0))
                    .then(|| "must be a number above 0".into()),
                "maximum" | "minimum" | "exclusiveMaximum" | "exclusiveMinimum" => {
                    (!v.is_number()).then(|| "must be a number".into())
                }
                "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
                | "minProperties" | "minContains" | "maxContains" => {
                    (super::count(v).is_none()).then(|| "must be a non-negative integer".into())
                }
                "uniqueItems" => (!v.is_boolean()).then(|| "must be a boolean".into()),
                "required" => (!names(v)).then(|| "must be an array of strings".into()),
                "dependentRequired" if self.draft == Draft::V2020_12 => {
                    (!v.as_object().is_some_and(|m| m.values().all(names)))
                        .then(|| "must map names to arrays of strings".into())
                }
                "dependencies" if self.draft == Draft::V7 => (!v.as_object().is_some_and(|m| {
                    m.values()
                        .all(|d| names(d) || d.is_object() || d.is_boolean())
                }))
                .then(|| "must map names to schemas or arrays of strings".into()),
                "pattern" => match v {
                    Value::String(p) => pattern::check(p).err(),
                    _ => Some("must be a string".into()),
                },
                "patternProperties" => match v {
                    Value::Object(m) => m.keys().find_map(|p| {
                        pattern::check(p)
                            .err()
                            .map(|e| format!("the key {}: {e}", crate::quote::Quoted(p)))
                    }),
                    _ => Some("must be an object".into()),
                },
                "properties" | "$defs" | "definitions" | "dependentSchemas" => {
                    (!v.is_object()).then(|| "must be an object".into())
                }
                "allOf" | "anyOf" | "oneOf" => (v.as_array().is_none_or(|a| a.is_empty()))
                    .then(|| "must be a non-empty array of schemas".into()),
                "prefixItems" if self.draft == Draft::V2020_12 => {
                    (v.as_array().is_none_or(|a| a.is_empty()))
                        .then(|| "must be a non-empty array of schemas".into())
                }
                "items" if self.draft == Draft::V2020_12 && v.is_array() => {
                    Some("must be a schema (an array of schemas is prefixItems)".into())
                }
                "$ref" | "$dynamicRef" | "$schema" | "$comment" | "format" | "$id" => match v {
                    Value::String(r) if k == "$ref" || k == "$dynamicRef" => {
                        let applies = k == "$ref" || self.draft == Draft::V2020_12;
                        (applies && self.index.lookup(base, r).is_none()).then(|| {
                            format!(
                                "{} points nowhere in this schema (only references \
                                     inside the tool's own schema are followed)",
                                crate::quote::Quoted(r)
                            )
                        })
                    }
                    Value::String(_) => None,
                    _ => Some("must be a string".into()),
                },
                "$anchor" | "$dynamicAnchor" if self.draft == Draft::V2020_12 => (!v
                    .as_str()
                    .is_some_and(anchor_name))
                .then(|| "must be a name: a letter or _, then letters, digits, - _ .".into()),
                _ => None,
            };
            if let Some(message) = bad {
                return fault(path, k, message);
            }
        }
        let mut result = Ok(());
        each_subschema(s, self.draft, &mut |place, sub| {
            if result.is_err() {
                return;
            }
            let len = path.len();
            place.write(path);
            result = self.schema(sub, path, depth + 1, base);
            path.truncate(len);
        });
        result
    }
}

/// An array of strings.
fn names(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
}

fn anchor_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}
