//! A tool registry: one list of tool definitions, exported as every agent API declares tools
//! (OpenAI Chat Completions and Responses, Anthropic Messages, MCP) and run through the
//! [call runtime](crate::calls) by name.
//!
//! Names follow the agent-tools rule `^[a-zA-Z_][a-zA-Z0-9_]*$`, at most 64 characters: the
//! strictest of the targets (OpenAI allows `-`, MCP more), so a registered name is valid for
//! each of them and for the Sessions API.

use crate::calls::{Answer, Content, ToolDef};
use crate::json::{push_quoted, quoted};
use crate::protocol::validate::{self, ErrorKind as RuleKind, ValidationError};
use crate::quote::{Quoted, QuotedChar};

/// A registry tool name is at most 64 characters.
pub const REGISTRY_NAME_MAX: usize = 64;

/// The agent-tools name rule, as the error messages state it.
pub const NAME_RULE: &str = "^[a-zA-Z_][a-zA-Z0-9_]*$";

/// Checks `name` at `field` against the agent-tools rule: 1 to 64 characters, a letter or `_`
/// first, then letters, digits and `_`.
pub fn check_name(field: &str, name: &str) -> Result<(), ValidationError> {
    let rule = |kind, message: String| Err(ValidationError::new(field, kind, message));
    let n = name.chars().count();
    if n == 0 {
        return rule(
            RuleKind::Empty,
            format!("empty, a tool name matches {NAME_RULE}"),
        );
    }
    if n > REGISTRY_NAME_MAX {
        return rule(
            RuleKind::TooLong,
            format!("{n} characters, at most {REGISTRY_NAME_MAX}"),
        );
    }
    for (i, c) in name.chars().enumerate() {
        let ok = c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit());
        if !ok {
            return rule(
                RuleKind::BadCharacter,
                format!(
                    "{}: character {} at position {i} breaks the tool name rule {NAME_RULE}",
                    Quoted(name),
                    QuotedChar(c)
                ),
            );
        }
    }
    Ok(())
}

/// Tools in the order they were registered, each with the app's handler `H` (a JS function in
/// the browser, a closure natively).
#[derive(Clone, Debug)]
pub struct Registry<H> {
    defs: Vec<ToolDef>,
    handlers: Vec<H>,
}

impl<H> Default for Registry<H> {
    fn default() -> Self {
        Registry {
            defs: Vec::new(),
            handlers: Vec::new(),
        }
    }
}

impl<H: Clone> Registry<H> {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a tool. Refuses, naming the rule, a name that breaks [`NAME_RULE`] or is taken, a
    /// description over 4,096 characters or parameters that are not a JSON Schema object.
    /// `field` names the definition in errors (`tools[2]`).
    pub fn register(
        &mut self,
        field: &str,
        def: ToolDef,
        handler: H,
    ) -> Result<(), ValidationError> {
        let name = &def.spec.name;
        check_name(&format!("{field}.name"), name)?;
        // The protocol's own checks (description length, parameters' root), renamed to `field`.
        validate::tool(0, &def.spec).map_err(|mut e| {
            if let Some(rest) = e.field.strip_prefix("tools[0]") {
                e.field = format!("{field}{rest}");
            }
            e
        })?;
        if self.has(name) {
            return Err(ValidationError::new(
                format!("{field}.name"),
                RuleKind::Duplicate,
                format!(
                    "{} is already registered; tool names are unique in a registry",
                    Quoted(name)
                ),
            ));
        }
        self.defs.push(def);
        self.handlers.push(handler);
        Ok(())
    }

    /// Whether a tool of that name is registered.
    pub fn has(&self, name: &str) -> bool {
        self.index(name).is_some()
    }

    /// The tool of that name and its handler.
    pub fn get(&self, name: &str) -> Option<(&ToolDef, &H)> {
        self.index(name).map(|i| (&self.defs[i], &self.handlers[i]))
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.defs.iter().position(|d| d.spec.name == name)
    }

    /// The tools' names, in registration order.
    pub fn names(&self) -> Vec<&str> {
        self.defs.iter().map(|d| d.spec.name.as_str()).collect()
    }

    /// The tools as the call runtime reads them.
    pub fn defs(&self) -> &[ToolDef] {
        &self.defs
    }

    /// The handlers, in the order of [`Registry::defs`].
    pub fn handlers(&self) -> &[H] {
        &self.handlers
    }

    /// A new registry with only the tools whose names `keep` accepts, in the same order.
    pub fn retain(&self, keep: impl Fn(&str) -> bool) -> Self {
        let mut out = Registry::new();
        for (d, h) in self.defs.iter().zip(&self.handlers) {
            if keep(&d.spec.name) {
                out.defs.push(d.clone());
                out.handlers.push(h.clone());
            }
        }
        out
    }

    /// A new registry with the tools named in `names` (the others left out).
    pub fn filtered(&self, names: &[String]) -> Self {
        self.retain(|n| names.iter().any(|k| k == n))
    }

    /// A new registry without the tools named in `names`.
    pub fn without(&self, names: &[String]) -> Self {
        self.retain(|n| !names.iter().any(|k| k == n))
    }

    /// The message of an unknown tool: it names the tool and lists the registry's.
    pub fn unknown(&self, name: &str) -> String {
        let names = self.names();
        if names.is_empty() {
            format!("Unknown tool {}: the registry has no tools.", Quoted(name))
        } else {
            format!(
                "Unknown tool {}: the registry has {}.",
                Quoted(name),
                crate::text::join(&names, ", ")
            )
        }
    }

    /// `[{ type: "function", function: { name, description, parameters } }]`: OpenAI Chat
    /// Completions' `tools`, as JSON text.
    pub fn to_openai(&self) -> String {
        self.export(
            r#"{"type":"function","function":{"name":"#,
            r#","parameters":"#,
            "}}",
        )
    }

    /// `[{ type: "function", name, description, parameters }]`: OpenAI Responses' `tools`,
    /// as JSON text.
    pub fn to_openai_responses(&self) -> String {
        self.export(r#"{"type":"function","name":"#, r#","parameters":"#, "}")
    }

    /// `[{ name, description, input_schema }]`: Anthropic Messages' `tools`, as JSON text.
    pub fn to_anthropic(&self) -> String {
        self.export(r#"{"name":"#, r#","input_schema":"#, "}")
    }

    /// `[{ name, description, inputSchema }]`: MCP's `tools/list` (and WebMCP's
    /// `registerTool`), as JSON text.
    pub fn to_mcp(&self) -> String {
        self.export(r#"{"name":"#, r#","inputSchema":"#, "}")
    }

    /// Each tool as `{open}"name","description":"…"{schema}{…}{close}`: one writer for every
    /// shape (written as text: a `json!` tree per shape costs the wasm build kilobytes).
    fn export(&self, open: &str, schema: &str, close: &str) -> String {
        let mut out = String::from("[");
        for (i, d) in self.defs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(open);
            push_quoted(&mut out, &d.spec.name);
            out.push_str(r#","description":"#);
            push_quoted(&mut out, &d.spec.description);
            out.push_str(schema);
            match &d.spec.parameters {
                Some(p) => out.push_str(&crate::json::json_text(p)),
                None => out.push_str(EMPTY_SCHEMA),
            }
            out.push_str(close);
        }
        out.push(']');
        out
    }
}

/// The schema of a tool without parameters: it takes an empty object.
pub const EMPTY_SCHEMA: &str = r#"{"type":"object","properties":{}}"#;

/// A tool's parameters as every target needs them: a tool with none takes an empty object.
pub fn input_schema(def: &ToolDef) -> String {
    match &def.spec.parameters {
        Some(p) => crate::json::json_text(p),
        None => EMPTY_SCHEMA.to_owned(),
    }
}

/// An answer as the agent-tools `ToolResult`, as JSON text: `{"success":true,"data":…}` (text
/// stays text, JSON stays JSON with its keys in the handler's order) or
/// `{"success":false,"data":null,"error":"…"}`.
pub fn tool_result(answer: Answer) -> String {
    let (mut out, value) = match answer {
        Answer::Ok(content) => (
            String::from(r#"{"success":true,"data":"#),
            json_text(content),
        ),
        Answer::Err { message, .. } => (
            String::from(r#"{"success":false,"data":null,"error":"#),
            quoted(&message),
        ),
    };
    out.push_str(&value);
    out.push('}');
    out
}

/// Content as JSON text: text as a JSON string, JSON as written.
pub fn json_text(content: Content) -> String {
    match content {
        Content::Text(text) => quoted(&text),
        Content::Json(json) => json,
    }
}
