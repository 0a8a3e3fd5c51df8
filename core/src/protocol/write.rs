//! Writing the request bodies the client sends as JSON text, field by field, in the order the
//! derived `Serialize` writes them. Each derived writer is its own serializer in the shipped
//! wasm; these few fixed pieces are less. The derives stay for the reference server and tests.

use super::{CallResult, Lifetime, RegisterRequest, ReplaceToolsRequest, ToolSpec};
use crate::json::{push_quoted, write_json};

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
        for is_error in [false, true] {
            let r = CallResult {
                text: "Row \"42\"\t✓".into(),
                is_error,
            };
            assert_eq!(r.to_json(), serde_json::to_string(&r).unwrap());
        }
    }
}
