//! The check of a schema when its tool is declared: each keyword's own value of the type the
//! draft needs ([`Want`]), every reference found inside the schema, every pattern one the
//! host's engine compiles.

use super::draft::{each_subschema, Draft};
use super::index::Index;
use super::text::{brief, push_key};
use super::{count, pattern, Options};
use crate::json::json_type_name;
use crate::quote::Quoted;
use serde_json::Value;

/// A schema that is not valid JSON Schema: where (`properties.id.pattern`, empty for the root)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaFault {
    /// Where in the schema (`properties.id.pattern`); empty for the root.
    pub path: String,
    /// What is wrong there, for a person.
    pub message: String,
}

/// Checks that `schema` is a JSON Schema the validator can run (see the module docs).
pub fn check(schema: &Value, options: &Options) -> Result<(), SchemaFault> {
    let draft = Draft::of(schema, options.draft);
    let index = Index::new(schema, draft, options.documents);
    let checker = Checker { index: &index };
    let fault = |(path, message)| SchemaFault { path, message };
    checker
        .schema(schema, &mut String::new(), 0, 0)
        .map_err(fault)?;
    // The documents too, each named by its URI: `documents["https://…"].properties…`.
    for (uri, doc) in options.documents {
        let mut path = String::new();
        push_key(&mut path, "documents");
        push_key(&mut path, uri);
        checker.schema(doc, &mut path, 0, 0).map_err(fault)?;
    }
    Ok(())
}

/// What a keyword's value must be.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    Number,
    AboveZero,
    /// A non-negative integer (`2.0` too).
    Count,
    Bool,
    Text,
    Object,
    Array,
    /// An array of strings.
    Names,
    /// A non-empty array of schemas.
    Schemas,
    /// `type`: a type name or an array of them.
    Types,
    /// `dependentRequired`: names mapped to arrays of names.
    NamesByName,
    /// Draft-07's `dependencies`: names mapped to schemas or arrays of names.
    Dependencies,
    /// An anchor's name.
    Anchor,
    /// 2020-12's `items`: one schema (checked where it sits), not an array.
    Items,
}

impl Want {
    /// What the value of keyword `k` must be in `draft`; `None` for an annotation (any other
    /// keyword).
    fn of(k: &str, draft: Draft) -> Option<Want> {
        let v2020 = draft == Draft::V2020_12;
        Some(match k {
            "type" => Want::Types,
            "enum" => Want::Array,
            "multipleOf" => Want::AboveZero,
            "maximum" | "minimum" | "exclusiveMaximum" | "exclusiveMinimum" => Want::Number,
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" => Want::Count,
            "maxContains" | "minContains" if v2020 => Want::Count,
            "uniqueItems" => Want::Bool,
            "required" => Want::Names,
            "dependentRequired" if v2020 => Want::NamesByName,
            "dependencies" if !v2020 => Want::Dependencies,
            "properties" | "patternProperties" | "$defs" | "definitions" => Want::Object,
            "dependentSchemas" if v2020 => Want::Object,
            "allOf" | "anyOf" | "oneOf" => Want::Schemas,
            "prefixItems" if v2020 => Want::Schemas,
            "items" if v2020 => Want::Items,
            "pattern" | "$ref" | "$dynamicRef" | "$schema" | "$comment" | "format" | "$id" => {
                Want::Text
            }
            "$anchor" | "$dynamicAnchor" if v2020 => Want::Anchor,
            _ => return None,
        })
    }
}

const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

impl Want {
    fn fits(self, v: &Value) -> bool {
        let names = |v: &Value| v.as_array().is_some_and(|a| a.iter().all(Value::is_string));
        match self {
            Want::Number => v.is_number(),
            Want::AboveZero => v.as_f64().is_some_and(|x| x > 0.0),
            Want::Count => count(v).is_some(),
            Want::Bool => v.is_boolean(),
            Want::Text => v.is_string(),
            Want::Object => v.is_object(),
            Want::Array => v.is_array(),
            Want::Names => names(v),
            Want::Schemas => v.as_array().is_some_and(|a| !a.is_empty()),
            Want::Types => v.is_string() || v.is_array(),
            Want::NamesByName => v.as_object().is_some_and(|m| m.values().all(names)),
            Want::Dependencies => v.as_object().is_some_and(|m| {
                m.values()
                    .all(|d| names(d) || d.is_object() || d.is_boolean())
            }),
            Want::Anchor => v.as_str().is_some_and(|s| {
                let mut chars = s.chars();
                chars
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            }),
            Want::Items => !v.is_array(),
        }
    }

    /// What a value that does not fit is told.
    fn said(self) -> &'static str {
        match self {
            Want::Number => "must be a number",
            Want::AboveZero => "must be a number above 0",
            Want::Count => "must be a non-negative integer",
            Want::Bool => "must be a boolean",
            Want::Text => "must be a string",
            Want::Object => "must be an object",
            Want::Array => "must be an array",
            Want::Names => "must be an array of strings",
            Want::Schemas => "must be a non-empty array of schemas",
            Want::Types => "must be a type name or an array of them",
            Want::NamesByName => "must map names to arrays of strings",
            Want::Dependencies => "must map names to schemas or arrays of strings",
            Want::Anchor => "must be a name: a letter or _, then letters, digits, - _ .",
            Want::Items => "must be a schema (an array of schemas is prefixItems)",
        }
    }
}

fn type_name(t: &str) -> bool {
    TYPES.contains(&t)
}

struct Checker<'i, 's> {
    index: &'i Index<'s>,
}

/// Where (a path from the schema's root) and what.
type Fault = (String, String);

impl<'s> Checker<'_, 's> {
    fn schema(
        &self,
        node: &'s Value,
        path: &mut String,
        depth: usize,
        mut base: usize,
    ) -> Result<(), Fault> {
        let fault = |key: &str, message: String| {
            let mut at = path.clone();
            if !key.is_empty() {
                push_key(&mut at, key);
            }
            Err((at, message))
        };
        let s = match node {
            Value::Bool(_) => return Ok(()),
            Value::Object(s) => s,
            other => {
                let message = format!(
                    "a schema must be an object or a boolean, not {}",
                    json_type_name(other)
                );
                return fault("", message);
            }
        };
        if depth > super::MAX_DEPTH {
            let message = format!("schemas nested more than {} deep", super::MAX_DEPTH);
            return fault("", message);
        }
        if let Some(r) = self.index.resource_of(node) {
            base = r;
        }
        let draft = self.index.resources[base].draft;
        for (k, v) in s {
            let Some(want) = Want::of(k, draft) else {
                continue;
            };
            let wrong = if want.fits(v) {
                self.value(k, v, base, draft)
            } else {
                Some(want.said().to_owned())
            };
            if let Some(message) = wrong {
                return fault(k, message);
            }
        }
        let mut result = Ok(());
        each_subschema(s, draft, &mut |place, sub| {
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

    /// What is wrong with a keyword's value of the right type, if anything: a type name, a
    /// pattern, a reference.
    fn value(&self, k: &str, v: &'s Value, base: usize, draft: Draft) -> Option<String> {
        match (k, v) {
            ("type", Value::String(t)) if !type_name(t) => {
                Some(format!("{} is not a type name", brief(v)))
            }
            ("type", Value::Array(ts)) if !ts.iter().all(|t| t.as_str().is_some_and(type_name)) => {
                Some("must be an array of type names".into())
            }
            ("pattern", Value::String(p)) => pattern::check(p).err(),
            ("patternProperties", Value::Object(m)) => m.keys().find_map(|p| {
                let e = pattern::check(p).err()?;
                Some(format!("the key {}: {e}", Quoted(p)))
            }),
            ("$ref" | "$dynamicRef", Value::String(r))
                if (k == "$ref" || draft == Draft::V2020_12)
                    && self.index.lookup(base, r).is_none() =>
            {
                Some(format!(
                    "{} points nowhere in this schema (only references inside the tool's own \
                     schema are followed)",
                    Quoted(r)
                ))
            }
            _ => None,
        }
    }
}
