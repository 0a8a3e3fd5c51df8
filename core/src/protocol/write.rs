//! Writing the request bodies the client sends as JSON text, field by field, in the order the
//! derived `Serialize` writes them. Each derived writer is its own serializer in the shipped
//! wasm; these few fixed pieces are less. The derives stay for the reference server and tests.

use super::{CallResult, Lifetime, RegisterRequest, ReplaceToolsRequest, ToolSpec};
use serde_json::{Map, Value};

/// `s` as a JSON string, quoted and escaped.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_quoted(&mut out, s);
    out
}

/// `value` as compact JSON text: the bytes of `value.to_string()` and `serde_json::to_string`
/// (in the wasm SDK, floats as the browser writes them: the same values, see `crate::json`).
/// Written here, not through `Value`'s `Display`, which links serde_json's serializer for a
/// formatter twice (compact, and pretty for `{:#}`, which nothing uses).
pub fn json_text(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

/// [`json_text`], appended to `out`.
pub(crate) fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // As the serializer writes it (`Number`'s `Display`), but for a float in the wasm SDK,
        // which the browser writes (`crate::json`).
        Value::Number(n) => crate::json::write_number(n, out),
        Value::String(s) => push_quoted(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => write_object(map, out),
    }
}

/// A JSON object as compact text, appended to `out`.
fn write_object(map: &Map<String, Value>, out: &mut String) {
    out.push('{');
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_quoted(out, key);
        out.push(':');
        write_json(item, out);
    }
    out.push('}');
}

/// `s` as a JSON string appended to `out`: quoted, escaped as serde_json escapes (`\"`, `\\`,
/// the short escapes of backspace, tab, line feed, form feed and carriage return, `\u00XX`
/// (lowercase) for the other control characters; everything else as it is).
pub(crate) fn push_quoted(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut run = 0;
    for (i, b) in s.bytes().enumerate() {
        let short = match b {
            b'"' => '"',
            b'\\' => '\\',
            0x08 => 'b',
            b'\t' => 't',
            b'\n' => 'n',
            0x0c => 'f',
            b'\r' => 'r',
            0..=0x1f => 'u',
            _ => continue,
        };
        out.push_str(&s[run..i]);
        run = i + 1;
        out.push('\\');
        out.push(short);
        if short == 'u' {
            out.push_str("00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// A JSON object as compact text, the bytes `serde_json::to_string` writes ([`json_text`] of
/// the object), without a serializer for a byte buffer in the wasm.
pub fn object_text(map: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_object(map, &mut out);
    out
}

impl Lifetime {
    /// `{"type":"never"}` or `{"type":"ttl","data":{"seconds":N}}`.
    fn write(&self, out: &mut String) {
        match self {
            Lifetime::Never => out.push_str(r#"{"type":"never"}"#),
            Lifetime::Ttl { seconds } => {
                out.push_str(r#"{"type":"ttl","data":{"seconds":"#);
                out.push_str(&seconds.to_string());
                out.push_str("}}");
            }
        }
    }
}

/// `[{"name":…,"description":…,"parameters":…}, …]`; no `parameters` when a tool has none.
fn write_tools(tools: &[&ToolSpec], out: &mut String) {
    out.push('[');
    for (i, t) in tools.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r#"{"name":"#);
        push_quoted(out, &t.name);
        out.push_str(r#","description":"#);
        push_quoted(out, &t.description);
        if let Some(p) = &t.parameters {
            out.push_str(r#","parameters":"#);
            write_json(p, out);
        }
        out.push('}');
    }
    out.push(']');
}

impl RegisterRequest {
    /// The body as JSON text: `{"name":…,"lifetime":…,"tools":[…]}`.
    pub fn to_json(&self) -> String {
        let tools: Vec<&ToolSpec> = self.tools.iter().collect();
        register_json(&self.name, &self.lifetime, &tools)
    }
}

/// A [`RegisterRequest`]'s body written from values held elsewhere (the engine's tool
/// definitions): building the request first would clone every schema, on the path of a page's
/// first request.
pub fn register_json(name: &str, lifetime: &Lifetime, tools: &[&ToolSpec]) -> String {
    let mut out = String::from(r#"{"name":"#);
    push_quoted(&mut out, name);
    out.push_str(r#","lifetime":"#);
    lifetime.write(&mut out);
    out.push_str(r#","tools":"#);
    write_tools(tools, &mut out);
    out.push('}');
    out
}

impl ReplaceToolsRequest {
    /// The body as JSON text: `{"tools":[…]}`.
    pub fn to_json(&self) -> String {
        let tools: Vec<&ToolSpec> = self.tools.iter().collect();
        replace_tools_json(&tools)
    }
}

/// A [`ReplaceToolsRequest`]'s body written from values held elsewhere, as [`register_json`].
pub fn replace_tools_json(tools: &[&ToolSpec]) -> String {
    let mut out = String::from(r#"{"tools":"#);
    write_tools(tools, &mut out);
    out.push('}');
    out
}

impl CallResult {
    /// The body as JSON text: `{"text":…,"is_error":…}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from(r#"{"text":"#);
        push_quoted(&mut out, &self.text);
        out.push_str(if self.is_error {
            r#","is_error":true}"#
        } else {
            r#","is_error":false}"#
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_what_the_derived_serialize_writes() {
        let tools = vec![
            ToolSpec {
                name: "a\"b".into(),
                description: "line\nnext \u{1} é".into(),
                parameters: Some(
                    json!({"type": "object", "properties": {"x": {"type": "number"}}}),
                ),
            },
            ToolSpec {
                name: "c".into(),
                description: String::new(),
                parameters: None,
            },
        ];
        for lifetime in [Lifetime::Never, Lifetime::Ttl { seconds: 3600 }] {
            let req = RegisterRequest {
                name: "web".into(),
                lifetime,
                tools: tools.clone(),
            };
            assert_eq!(req.to_json(), serde_json::to_string(&req).unwrap());
        }
        let put = ReplaceToolsRequest { tools };
        assert_eq!(put.to_json(), serde_json::to_string(&put).unwrap());
        let empty = ReplaceToolsRequest { tools: vec![] };
        assert_eq!(empty.to_json(), serde_json::to_string(&empty).unwrap());
        let args = json!({"a\"": [1, 2.5, -3, null, true], "b": {"c": "d\n\u{1}é"}, "": {}});
        let args = args.as_object().unwrap();
        assert_eq!(object_text(args), serde_json::to_string(args).unwrap());
        assert_eq!(object_text(&Map::new()), "{}");
        let controls: String = (0u8..0x20).map(char::from).collect();
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([
                true,
                false,
                0,
                -1,
                u64::MAX,
                i64::MIN,
                0.1,
                -0.0,
                1e300,
                2.5e-8,
                1.0
            ]),
            json!({"s": controls, "q": "\"\\/\u{7f}\u{80}é✓😀", "n": {"a": [{"b": null}]}}),
            json!("plain"),
        ];
        for v in values {
            assert_eq!(json_text(&v), v.to_string());
            assert_eq!(json_text(&v), serde_json::to_string(&v).unwrap());
        }
        for is_error in [false, true] {
            let r = CallResult {
                text: "Row \"42\"\t✓".into(),
                is_error,
            };
            assert_eq!(r.to_json(), serde_json::to_string(&r).unwrap());
        }
    }
}
