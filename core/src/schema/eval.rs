//! Running a schema over a value: every keyword of the applicator and validation
//! vocabularies, in the draft the schema is read by, within the caps.

use super::draft::Draft;
use super::index::{split_fragment, Index};
use super::text::{brief, cut, Path};
use super::{count, format, json_eq, pattern, Options, SchemaError};
use super::{ALTERNATIVES_LISTED, ALTERNATIVE_TEXT_MAX, MAX_DEPTH, MAX_STEPS};
use crate::json::json_text;
use crate::quote::Quoted;
use serde_json::{Map, Value};

/// Why a check stopped: the value broke a rule, or a cap was reached (which no `not` or
/// `anyOf` may turn into a success).
pub(super) enum Stop {
    Invalid(Box<SchemaError>),
    Cap(Box<SchemaError>),
}

type Res = Result<(), Stop>;

fn invalid(path: &Path, rule: &'static str, message: String) -> Res {
    Err(Stop::Invalid(Box::new(SchemaError {
        path: path.text(),
        rule,
        message,
    })))
}

fn cap(path: &Path, rule: &'static str, message: String) -> Stop {
    Stop::Cap(Box::new(SchemaError {
        path: path.text(),
        rule,
        message,
    }))
}

/// The resources entered on the way to a subschema, innermost first: the dynamic scope
/// `$dynamicRef` looks through.
#[derive(Clone, Copy)]
struct Scope<'a> {
    resource: usize,
    outer: Option<&'a Scope<'a>>,
}

/// Which members of an object (by their place in its order) or items of an array some
/// keyword evaluated, for `unevaluatedProperties` and `unevaluatedItems`. Kept only when the
/// schema has either.
#[derive(Default)]
struct Seen(Vec<bool>);

impl Seen {
    fn mark(&mut self, i: usize, len: usize) {
        if self.0.len() < len {
            self.0.resize(len, false);
        }
        self.0[i] = true;
    }
    fn has(&self, i: usize) -> bool {
        self.0.get(i).copied().unwrap_or(false)
    }
    fn merge(&mut self, other: Seen) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), false);
        }
        for (i, s) in other.0.into_iter().enumerate() {
            self.0[i] |= s;
        }
    }
}

pub(super) struct Eval<'s, 'o> {
    index: Index<'s>,
    /// The draft of the resource being checked.
    draft: Draft,
    options: &'o Options<'s>,
    steps: u64,
    depth: usize,
    /// What the patterns run so far may have cost, in the host engine's steps (see pattern).
    pub pattern_cost: u64,
}

impl<'s, 'o> Eval<'s, 'o> {
    pub fn new(schema: &'s Value, options: &'o Options<'s>) -> Self {
        let draft = Draft::of(schema, options.draft);
        Eval {
            index: Index::new(schema, draft, options.documents),
            draft,
            options,
            steps: 0,
            depth: 0,
            pattern_cost: 0,
        }
    }

    pub fn run(&mut self, schema: &'s Value, value: &Value) -> Result<(), SchemaError> {
        let scope = Scope {
            resource: 0,
            outer: None,
        };
        match self.eval(schema, value, &Path::Root, &scope, &mut Seen::default()) {
            Ok(()) => Ok(()),
            Err(Stop::Invalid(e) | Stop::Cap(e)) => Err(*e),
        }
    }

    fn step(&mut self, n: u64, path: &Path) -> Res {
        self.steps += n;
        if self.steps > MAX_STEPS {
            return Err(cap(
                path,
                "step limit",
                format!("checking the arguments took more than {MAX_STEPS} steps"),
            ));
        }
        Ok(())
    }

    fn eval(
        &mut self,
        schema: &'s Value,
        value: &Value,
        path: &Path,
        scope: &Scope,
        out: &mut Seen,
    ) -> Res {
        self.step(1, path)?;
        let s = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => return invalid(path, "false", "no value is allowed here".into()),
            Value::Object(s) => s,
            _ => return Ok(()),
        };
        if self.depth >= MAX_DEPTH {
            return Err(cap(
                path,
                "depth limit",
                format!("schemas nested more than {MAX_DEPTH} deep while checking"),
            ));
        }
        self.depth += 1;
        let inner;
        let scope = match self.index.resource_of(schema) {
            Some(r) if r != scope.resource => {
                inner = Scope {
                    resource: r,
                    outer: Some(scope),
                };
                &inner
            }
            _ => scope,
        };
        let mut seen = Seen::default();
        let outer = std::mem::replace(&mut self.draft, self.index.resources[scope.resource].draft);
        let result = self.keywords(s, value, path, scope, &mut seen);
        self.draft = outer;
        self.depth -= 1;
        result?;
        out.merge(seen);
        Ok(())
    }

    /// A subschema applied to the same value, its annotations kept.
    fn in_place(
        &mut self,
        sub: &'s Value,
        value: &Value,
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
    ) -> Res {
        self.eval(sub, value, path, scope, seen)
    }

    fn reference(
        &mut self,
        reference: &str,
        value: &Value,
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
        dynamic: bool,
    ) -> Res {
        let Some((mut r, mut target)) = self.index.lookup(scope.resource, reference) else {
            return Err(cap(
                path,
                "$ref",
                format!("{} points nowhere in the schema", Quoted(reference)),
            ));
        };
        if dynamic {
            let name = split_fragment(reference).1;
            // Only a target that is itself a dynamic anchor of that name makes the reference
            // dynamic: then the outermost resource in scope with such an anchor wins.
            if !name.starts_with('/') && self.index.dynamic_anchor(r, name).is_some() {
                let mut at = Some(scope);
                while let Some(s) = at {
                    if let Some(node) = self.index.dynamic_anchor(s.resource, name) {
                        (r, target) = (s.resource, node);
                    }
                    at = s.outer;
                }
            }
        }
        let jump = Scope {
            resource: r,
            outer: Some(scope),
        };
        self.in_place(target, value, path, &jump, seen)
    }

    fn keywords(
        &mut self,
        s: &'s Map<String, Value>,
        value: &Value,
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
    ) -> Res {
        if let Some(Value::String(r)) = s.get("$ref") {
            self.reference(r, value, path, scope, seen, false)?;
            if self.draft == Draft::V7 {
                return Ok(());
            }
        }
        if self.draft == Draft::V2020_12 {
            if let Some(Value::String(r)) = s.get("$dynamicRef") {
                self.reference(r, value, path, scope, seen, true)?;
            }
        }
        check_type(s, value, path)?;
        if let Some(Value::Array(options)) = s.get("enum") {
            self.step(options.len() as u64, path)?;
            if !options.iter().any(|o| json_eq(o, value)) {
                let mut list = String::new();
                for (i, o) in options.iter().enumerate() {
                    if i > 0 {
                        list.push_str(", ");
                    }
                    list.push_str(&json_text(o));
                }
                let list = cut(&list, ALTERNATIVE_TEXT_MAX);
                return invalid(
                    path,
                    "enum",
                    format!("{} is not one of {list}", brief(value)),
                );
            }
        }
        if let Some(expected) = s.get("const") {
            if !json_eq(expected, value) {
                let text = cut(&json_text(expected), ALTERNATIVE_TEXT_MAX);
                return invalid(path, "const", format!("{} is not {text}", brief(value)));
            }
        }
        match value {
            Value::Object(map) => self.object(s, value, map, path, scope, seen)?,
            Value::Array(items) => self.array(s, items, path, scope, seen)?,
            Value::String(text) => self.string(s, text, value, path)?,
            Value::Number(n) => {
                if let Some(x) = n.as_f64() {
                    number(s, x, value, path)?;
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
        self.combinators(s, value, path, scope, seen)?;
        if self.draft == Draft::V2020_12 {
            self.unevaluated(s, value, path, scope, seen)?;
        }
        Ok(())
    }

    fn combinators(
        &mut self,
        s: &'s Map<String, Value>,
        value: &Value,
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
    ) -> Res {
        if let Some(Value::Array(all)) = s.get("allOf") {
            for sub in all {
                self.in_place(sub, value, path, scope, seen)?;
            }
        }
        if let Some(Value::Array(any)) = s.get("anyOf") {
            let mut failed = Vec::new();
            let mut matched = false;
            for sub in any {
                let mut mine = Seen::default();
                match self.eval(sub, value, path, scope, &mut mine) {
                    Ok(()) => {
                        matched = true;
                        seen.merge(mine);
                        // Every matching alternative's annotations count, so go on only
                        // when they are tracked.
                        if !self.index.tracks {
                            break;
                        }
                    }
                    Err(Stop::Invalid(e)) => failed.push(*e),
                    Err(cap) => return Err(cap),
                }
            }
            if !matched {
                let message = format!(
                    "matches none of the {} alternatives: {}",
                    any.len(),
                    reasons(&failed, path)
                );
                return invalid(path, "anyOf", message);
            }
        }
        if let Some(Value::Array(one)) = s.get("oneOf") {
            let mut failed = Vec::new();
            let mut matched = Vec::new();
            let mut kept = Seen::default();
            for (i, sub) in one.iter().enumerate() {
                let mut mine = Seen::default();
                match self.eval(sub, value, path, scope, &mut mine) {
                    Ok(()) => {
                        matched.push(i);
                        kept = mine;
                    }
                    Err(Stop::Invalid(e)) => failed.push(*e),
                    Err(cap) => return Err(cap),
                }
            }
            match matched.len() {
                1 => seen.merge(kept),
                0 => {
                    let message = format!(
                        "matches none of the {} alternatives, needs exactly one: {}",
                        one.len(),
                        reasons(&failed, path)
                    );
                    return invalid(path, "oneOf", message);
                }
                _ => {
                    let mut list = String::new();
                    for (n, i) in matched.iter().enumerate() {
                        if n > 0 {
                            list.push_str(", ");
                        }
                        list.push_str(&format!("[{i}]"));
                    }
                    let message = format!(
                        "matches {} of the alternatives ({}), needs exactly one",
                        matched.len(),
                        cut(&list, ALTERNATIVE_TEXT_MAX)
                    );
                    return invalid(path, "oneOf", message);
                }
            }
        }
        if let Some(not) = s.get("not") {
            match self.eval(not, value, path, scope, &mut Seen::default()) {
                Ok(()) => {
                    return invalid(
                        path,
                        "not",
                        format!("{} matches the schema under not", brief(value)),
                    )
                }
                Err(Stop::Invalid(_)) => {}
                Err(cap) => return Err(cap),
            }
        }
        if let Some(cond) = s.get("if") {
            let mut mine = Seen::default();
            let branch = match self.eval(cond, value, path, scope, &mut mine) {
                Ok(()) => {
                    seen.merge(mine);
                    s.get("then").map(|t| (t, "then"))
                }
                Err(Stop::Invalid(_)) => s.get("else").map(|e| (e, "else")),
                Err(cap) => return Err(cap),
            };
            if let Some((sub, _)) = branch {
                self.in_place(sub, value, path, scope, seen)?;
            }
        }
        Ok(())
    }

    fn object(
        &mut self,
        s: &'s Map<String, Value>,
        value: &Value,
        map: &Map<String, Value>,
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
    ) -> Res {
        let (min, max) = bounds(s, "minProperties", "maxProperties");
        within(map.len(), "properties", min, max, path)?;
        if let Some(Value::Array(required)) = s.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(name) {
                    return invalid(
                        path,
                        "required",
                        format!("the property {} is required but missing", Quoted(name)),
                    );
                }
            }
        }
        let (dep_req, dep_schemas, dep_rule) = match self.draft {
            Draft::V2020_12 => (
                s.get("dependentRequired"),
                s.get("dependentSchemas"),
                "dependentRequired",
            ),
            Draft::V7 => (s.get("dependencies"), s.get("dependencies"), "dependencies"),
        };
        if let Some(Value::Object(deps)) = dep_req {
            for (name, needs) in deps {
                let Value::Array(needs) = needs else { continue };
                if !map.contains_key(name) {
                    continue;
                }
                for need in needs.iter().filter_map(Value::as_str) {
                    if !map.contains_key(need) {
                        return invalid(
                            path,
                            dep_rule,
                            format!(
                                "the property {} is required when {} is present",
                                Quoted(need),
                                Quoted(name)
                            ),
                        );
                    }
                }
            }
        }
        if let Some(Value::Object(deps)) = dep_schemas {
            for (name, sub) in deps {
                if map.contains_key(name) && !sub.is_array() {
                    self.in_place(sub, value, path, scope, seen)?;
                }
            }
        }
        let properties = match s.get("properties") {
            Some(Value::Object(p)) => Some(p),
            _ => None,
        };
        let patterns = match s.get("patternProperties") {
            Some(Value::Object(p)) => Some(p),
            _ => None,
        };
        let additional = s.get("additionalProperties");
        let len = map.len();
        for (i, (name, item)) in map.iter().enumerate() {
            let at = Path::Key(path, name);
            let mut covered = false;
            if let Some(sub) = properties.and_then(|p| p.get(name)) {
                covered = true;
                self.eval(sub, item, &at, scope, &mut Seen::default())?;
            }
            for (p, sub) in patterns.into_iter().flatten() {
                if self.pattern_matches(p, name, &at)? {
                    covered = true;
                    self.eval(sub, item, &at, scope, &mut Seen::default())?;
                }
            }
            if !covered {
                match additional {
                    Some(Value::Bool(false)) => {
                        let allowed = allowed_names(properties, patterns);
                        return invalid(
                            path,
                            "additionalProperties",
                            format!(
                                "the property {} is not allowed; allowed: {allowed}",
                                Quoted(name)
                            ),
                        );
                    }
                    Some(sub) => {
                        covered = true;
                        self.eval(sub, item, &at, scope, &mut Seen::default())?;
                    }
                    None => {}
                }
            }
            if covered && self.index.tracks {
                seen.mark(i, len);
            }
        }
        if let Some(names) = s.get("propertyNames") {
            for name in map.keys() {
                let key = Value::String(name.clone());
                self.eval(
                    names,
                    &key,
                    &Path::Key(path, name),
                    scope,
                    &mut Seen::default(),
                )
                .map_err(|e| property_name(e, name))?;
            }
        }
        Ok(())
    }

    fn array(
        &mut self,
        s: &'s Map<String, Value>,
        items: &[Value],
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
    ) -> Res {
        let len = items.len();
        let (min, max) = bounds(s, "minItems", "maxItems");
        within(len, "items", min, max, path)?;
        if matches!(s.get("uniqueItems"), Some(Value::Bool(true))) {
            for i in 1..len {
                self.step(i as u64, path)?;
                if let Some(j) = (0..i).find(|&j| json_eq(&items[i], &items[j])) {
                    return invalid(
                        path,
                        "uniqueItems",
                        format!("items [{j}] and [{i}] are equal, each must be unique"),
                    );
                }
            }
        }
        let (prefix, rest) = match (self.draft, s.get("items")) {
            (Draft::V2020_12, rest) => (s.get("prefixItems"), rest),
            (Draft::V7, Some(tuple @ Value::Array(_))) => (Some(tuple), s.get("additionalItems")),
            (Draft::V7, rest) => (None, rest),
        };
        let mut from = 0;
        if let Some(Value::Array(prefix)) = prefix {
            for (i, (sub, item)) in prefix.iter().zip(items).enumerate() {
                self.eval(
                    sub,
                    item,
                    &Path::Index(path, i),
                    scope,
                    &mut Seen::default(),
                )?;
                if self.index.tracks {
                    seen.mark(i, len);
                }
            }
            from = prefix.len();
        }
        if let Some(sub) = rest {
            for (i, item) in items.iter().enumerate().skip(from) {
                if let Value::Bool(false) = sub {
                    let rule = if self.draft == Draft::V7 {
                        "additionalItems"
                    } else {
                        "items"
                    };
                    return invalid(path, rule, format!("{len} items, at most {from}"));
                }
                self.eval(
                    sub,
                    item,
                    &Path::Index(path, i),
                    scope,
                    &mut Seen::default(),
                )?;
                if self.index.tracks {
                    seen.mark(i, len);
                }
            }
        }
        if let Some(contains) = s.get("contains") {
            let (min, max) = match self.draft {
                Draft::V2020_12 => bounds(s, "minContains", "maxContains"),
                Draft::V7 => (None, None),
            };
            let mut found = 0;
            for (i, item) in items.iter().enumerate() {
                match self.eval(
                    contains,
                    item,
                    &Path::Index(path, i),
                    scope,
                    &mut Seen::default(),
                ) {
                    Ok(()) => {
                        found += 1;
                        if self.index.tracks {
                            seen.mark(i, len);
                        }
                    }
                    Err(Stop::Invalid(_)) => {}
                    Err(cap) => return Err(cap),
                }
            }
            // Without minContains, at least one.
            let min = min.or(Some(("contains", 1)));
            within(
                found,
                "items match the schema under contains",
                min,
                max,
                path,
            )?;
        }
        Ok(())
    }

    fn string(&mut self, s: &Map<String, Value>, text: &str, value: &Value, path: &Path) -> Res {
        let (min, max) = bounds(s, "minLength", "maxLength");
        if min.is_some() || max.is_some() {
            within(text.chars().count(), "characters", min, max, path)?;
        }
        if let Some(Value::String(p)) = s.get("pattern") {
            if !self.pattern_matches(p, text, path)? {
                return invalid(
                    path,
                    "pattern",
                    format!("{} does not match {p}", brief(value)),
                );
            }
        }
        if self.options.assert_formats {
            if let Some(Value::String(f)) = s.get("format") {
                if let Some(false) = format::check(f, text) {
                    return invalid(
                        path,
                        "format",
                        format!("{} is not a valid {f}", brief(value)),
                    );
                }
            }
        }
        Ok(())
    }

    fn pattern_matches(&mut self, p: &str, text: &str, path: &Path) -> Result<bool, Stop> {
        pattern::matches(p, text, &mut self.pattern_cost)
            .map_err(|message| cap(path, "pattern limit", message))
    }

    fn unevaluated(
        &mut self,
        s: &'s Map<String, Value>,
        value: &Value,
        path: &Path,
        scope: &Scope,
        seen: &mut Seen,
    ) -> Res {
        match value {
            Value::Array(items) => {
                let Some(sub) = s.get("unevaluatedItems") else {
                    return Ok(());
                };
                let len = items.len();
                for (i, item) in items.iter().enumerate() {
                    if seen.has(i) {
                        continue;
                    }
                    if let Value::Bool(false) = sub {
                        return invalid(
                            &Path::Index(path, i),
                            "unevaluatedItems",
                            "no item is allowed here: no other keyword covers it".into(),
                        );
                    }
                    self.eval(
                        sub,
                        item,
                        &Path::Index(path, i),
                        scope,
                        &mut Seen::default(),
                    )?;
                    seen.mark(i, len);
                }
            }
            Value::Object(map) => {
                let Some(sub) = s.get("unevaluatedProperties") else {
                    return Ok(());
                };
                let len = map.len();
                for (i, (name, item)) in map.iter().enumerate() {
                    if seen.has(i) {
                        continue;
                    }
                    if let Value::Bool(false) = sub {
                        return invalid(
                            path,
                            "unevaluatedProperties",
                            format!(
                                "the property {} is not allowed: no other keyword covers it",
                                Quoted(name)
                            ),
                        );
                    }
                    self.eval(
                        sub,
                        item,
                        &Path::Key(path, name),
                        scope,
                        &mut Seen::default(),
                    )?;
                    seen.mark(i, len);
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The bounds keywords `min` and `max` set in `s`, each with its keyword.
type Bound = Option<(&'static str, u64)>;

fn bounds(s: &Map<String, Value>, min: &'static str, max: &'static str) -> (Bound, Bound) {
    let read = |k: &'static str| Some((k, s.get(k).and_then(count)?));
    (read(min), read(max))
}

/// A count (`n` of `what`) within its bounds: `3 items, at most 2`.
fn within(n: usize, what: &str, min: Bound, max: Bound, path: &Path) -> Res {
    let n = n as u64;
    if let Some((rule, min)) = min.filter(|&(_, m)| n < m) {
        return invalid(path, rule, format!("{n} {what}, needs at least {min}"));
    }
    if let Some((rule, max)) = max.filter(|&(_, m)| n > m) {
        return invalid(path, rule, format!("{n} {what}, at most {max}"));
    }
    Ok(())
}

/// A propertyNames failure, said of the name.
fn property_name(e: Stop, name: &str) -> Stop {
    match e {
        Stop::Invalid(mut e) => {
            e.message = format!("the property name {}: {}", Quoted(name), e.message);
            Stop::Invalid(e)
        }
        cap => cap,
    }
}

fn allowed_names(
    properties: Option<&Map<String, Value>>,
    patterns: Option<&Map<String, Value>>,
) -> String {
    if properties.is_none_or(Map::is_empty) && patterns.is_none_or(Map::is_empty) {
        return "none".into();
    }
    let names = properties.into_iter().flat_map(Map::keys).map(|n| ("", n));
    let matching = patterns.into_iter().flat_map(Map::keys);
    let mut allowed = String::new();
    for (i, (prefix, name)) in names
        .chain(matching.map(|p| ("names matching ", p)))
        .enumerate()
    {
        if i > 0 {
            allowed.push_str(", ");
        }
        allowed.push_str(prefix);
        allowed.push_str(name);
    }
    cut(&allowed, ALTERNATIVE_TEXT_MAX)
}

/// Why each alternative failed, each cut short, at most a few of them.
fn reasons(failed: &[SchemaError], path: &Path) -> String {
    let here = path.text();
    let mut out = String::new();
    for (i, e) in failed.iter().enumerate().take(ALTERNATIVES_LISTED) {
        if i > 0 {
            out.push_str("; ");
        }
        let text = if e.path == here {
            format!("{} ({})", e.message, e.rule)
        } else {
            e.to_string()
        };
        out.push_str(&format!("[{i}] {}", cut(&text, ALTERNATIVE_TEXT_MAX)));
    }
    if failed.len() > ALTERNATIVES_LISTED {
        out.push_str(&format!(
            "; and {} more",
            failed.len() - ALTERNATIVES_LISTED
        ));
    }
    out
}

/// The JSON Schema type names `value` belongs to (an integer is also a number).
fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|x| x.fract() == 0.0)
            }
            _ => false,
        },
        _ => true,
    }
}

fn check_type(s: &Map<String, Value>, value: &Value, path: &Path) -> Res {
    let (wanted, fits) = match s.get("type") {
        Some(Value::String(name)) => (name.clone(), is_type(value, name)),
        Some(Value::Array(names)) => {
            let (mut wanted, mut fits, mut any) = (String::new(), false, false);
            for name in names {
                let Some(name) = name.as_str() else { continue };
                if any {
                    wanted.push_str(" or ");
                }
                wanted.push_str(name);
                any = true;
                fits = fits || is_type(value, name);
            }
            (wanted, fits || !any)
        }
        _ => return Ok(()),
    };
    if fits {
        return Ok(());
    }
    let shown = match value {
        Value::Object(_) | Value::Array(_) => brief(value),
        _ => format!("{} {}", crate::json::json_type_name(value), brief(value)),
    };
    invalid(path, "type", format!("{shown}, needs {wanted}"))
}

fn number(s: &Map<String, Value>, x: f64, value: &Value, path: &Path) -> Res {
    let bound = |k: &str| s.get(k).filter(|v| v.is_number());
    let shown = || json_text(value);
    if let Some(m) = bound("multipleOf") {
        if !multiple_of(value, x, m) {
            return invalid(
                path,
                "multipleOf",
                format!("{} is not a multiple of {}", shown(), json_text(m)),
            );
        }
    }
    if let Some(min) = bound("minimum") {
        if x < min.as_f64().unwrap_or(f64::MIN) {
            return invalid(
                path,
                "minimum",
                format!("{} is less than the minimum {}", shown(), json_text(min)),
            );
        }
    }
    if let Some(max) = bound("maximum") {
        if x > max.as_f64().unwrap_or(f64::MAX) {
            return invalid(
                path,
                "maximum",
                format!("{} is more than the maximum {}", shown(), json_text(max)),
            );
        }
    }
    if let Some(min) = bound("exclusiveMinimum") {
        if x <= min.as_f64().unwrap_or(f64::MIN) {
            return invalid(
                path,
                "exclusiveMinimum",
                format!("{} must be more than {}", shown(), json_text(min)),
            );
        }
    }
    if let Some(max) = bound("exclusiveMaximum") {
        if x >= max.as_f64().unwrap_or(f64::MAX) {
            return invalid(
                path,
                "exclusiveMaximum",
                format!("{} must be less than {}", shown(), json_text(max)),
            );
        }
    }
    Ok(())
}

/// Whether `value` (`x` as a float) is a whole multiple of `m`: exactly for integers, within
/// a float's rounding otherwise (`0.0075` is a multiple of `0.0001`).
fn multiple_of(value: &Value, x: f64, m: &Value) -> bool {
    if let (Some(a), Some(b)) = (value.as_i64(), m.as_i64()) {
        return b != 0 && a % b == 0;
    }
    let Some(m) = m.as_f64().filter(|&m| m > 0.0) else {
        return true;
    };
    let q = x / m;
    if !q.is_finite() {
        return false;
    }
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}
