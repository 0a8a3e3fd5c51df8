//! Writing the request bodies the client sends as JSON text, field by field, in the order the
//! derived `Serialize` writes them. Each derived writer is its own serializer in the shipped
//! wasm; these few fixed pieces are less. The derives stay for the reference server and tests.

use super::{CallResult, Lifetime, RegisterRequest, ReplaceToolsRequest, ToolSpec};
use serde_json::{Map, Value};

/// `s` as a JSON string, quoted and escaped.
pub(crate) fn quoted(s: &str) -> String {
    Value::from(s).to_string()
}

/// A JSON object as compact text, the bytes `serde_json::to_string` writes, through `Value`'s
/// `Display` (which the SDK has anyway) rather than a second serializer for a byte buffer.
pub fn object_text(map: &Map<String, Value>) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&quoted(key));
        out.push(':');
        out.push_str(&value.to_string());
    }
    out.push('}');
    out
}

/// An app event (`onStatus`, `onCall`) written as JSON text field by field, as the derived
/// `Serialize` of an internally tagged enum writes it: `{"type":…,"key":value,…}`. One
/// writer for every event type instead of one derived serializer each.
pub(crate) struct EventJson(String);

impl EventJson {
    /// `{"type":"<kind>"`.
    pub(crate) fn new(kind: &str) -> EventJson {
        let mut out = String::from(r#"{"type":""#);
        out.push_str(kind);
        out.push('"');
        EventJson(out)
    }

    fn key(&mut self, key: &str) -> &mut String {
        self.0.push_str(",\"");
        self.0.push_str(key);
        self.0.push_str("\":");
        &mut self.0
    }

    /// `,"key":"value"`, escaped.
    pub(crate) fn str(mut self, key: &str, value: &str) -> EventJson {
        let v = quoted(value);
        self.key(key).push_str(&v);
        self
    }

    /// `,"key":"value"` or `,"key":null`.
    pub(crate) fn opt_str(self, key: &str, value: Option<&str>) -> EventJson {
        match value {
            Some(v) => self.str(key, v),
            None => self.raw(key, "null"),
        }
    }

    /// `,"key":N`.
    pub(crate) fn num(self, key: &str, value: u64) -> EventJson {
        self.raw(key, &value.to_string())
    }

    /// `,"key":true` or `,"key":false`.
    pub(crate) fn bool(self, key: &str, value: bool) -> EventJson {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// `,"key":<JSON text as given>`, e.g. a name known to need no escaping, already quoted.
    pub(crate) fn raw(mut self, key: &str, json: &str) -> EventJson {
        self.key(key).push_str(json);
        self
    }

    /// The closing `}` and the text.
    pub(crate) fn end(mut self) -> String {
        self.0.push('}');
        self.0
    }
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
fn write_tools(tools: &[ToolSpec], out: &mut String) {
    out.push('[');
    for (i, t) in tools.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r#"{"name":"#);
        out.push_str(&quoted(&t.name));
        out.push_str(r#","description":"#);
        out.push_str(&quoted(&t.description));
        if let Some(p) = &t.parameters {
            out.push_str(r#","parameters":"#);
            out.push_str(&p.to_string());
        }
        out.push('}');
    }
    out.push(']');
}

impl RegisterRequest {
    /// The body as JSON text: `{"name":…,"lifetime":…,"tools":[…]}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from(r#"{"name":"#);
        out.push_str(&quoted(&self.name));
        out.push_str(r#","lifetime":"#);
        self.lifetime.write(&mut out);
        out.push_str(r#","tools":"#);
        write_tools(&self.tools, &mut out);
        out.push('}');
        out
    }
}

impl ReplaceToolsRequest {
    /// The body as JSON text: `{"tools":[…]}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from(r#"{"tools":"#);
        write_tools(&self.tools, &mut out);
        out.push('}');
        out
    }
}

impl CallResult {
    /// The body as JSON text: `{"text":…,"is_error":…}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from(r#"{"text":"#);
        out.push_str(&quoted(&self.text));
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
        for is_error in [false, true] {
            let r = CallResult {
                text: "Row \"42\"\t✓".into(),
                is_error,
            };
            assert_eq!(r.to_json(), serde_json::to_string(&r).unwrap());
        }
    }
}
