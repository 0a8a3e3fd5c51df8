//! Reading the wire types the client receives out of parsed JSON, by hand, with serde's own
//! messages ("missing field `call_id`", "invalid type: integer `5`, expected a string").
//!
//! Why not the derived `Deserialize`: each derived reader is its own parser in the shipped
//! wasm (1 to 4 KB apiece, plus serde's typed error paths, which link float formatting). These
//! readers share the one `Value` parser the SDK has anyway. The derives stay for the reference
//! server and the tests, which compare the two.

use super::{
    AckAnswer, ApiError, ClientInfo, ErrorBody, ErrorType, Lifetime, PingAnswer, ToolDispatched,
    ToolSpec,
};
use crate::json::json_text;
use crate::quote::Quoted;
use serde_json::{Map, Value};

/// A wire type read from JSON the way its derived `Deserialize` reads it, with the same
/// messages (a field error carries no line and column; a text that is not JSON says what the
/// JSON parser says: serde_json's line and column, or in the browser `JSON.parse`'s message).
pub trait FromJson: Sized {
    /// Reads it from a parsed value.
    fn from_value(value: &Value) -> Result<Self, String>;

    /// Reads it from JSON text.
    fn from_json(text: &str) -> Result<Self, String> {
        Self::from_value(&parse(text)?)
    }
}

/// JSON text as a value; the error says what is wrong (and where, from serde_json).
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    crate::json::parse(text)
}

/// serde's "invalid type: integer `5`, expected a string".
pub(crate) fn invalid_type(value: &Value, expected: &str) -> String {
    let found = match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        // The number as `json_text` writes it (not its `Display`: see `crate::json`).
        Value::Number(n) if n.is_f64() => format!("floating point `{}`", json_text(value)),
        Value::Number(_) => format!("integer `{}`", json_text(value)),
        Value::String(s) => format!("string {}", Quoted(s)),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    };
    format!("invalid type: {found}, expected {expected}")
}

/// The fields of one JSON object, read one by one. Like serde's derived reader, it reports a
/// field of the wrong type before a missing one; the first of each kind counts.
pub(crate) struct Fields<'a> {
    map: &'a Map<String, Value>,
    wrong: Option<String>,
    missing: Option<&'static str>,
}

impl<'a> Fields<'a> {
    /// The fields of `value`, which must be an object (else: "…, expected `what`").
    pub(crate) fn of(value: &'a Value, what: &str) -> Result<Fields<'a>, String> {
        match value {
            Value::Object(map) => Ok(Fields {
                map,
                wrong: None,
                missing: None,
            }),
            other => Err(invalid_type(other, what)),
        }
    }

    fn wrong(&mut self, value: &Value, expected: &str) {
        if self.wrong.is_none() {
            self.wrong = Some(invalid_type(value, expected));
        }
    }

    /// A required field, read by `read` (its error is the field's).
    pub(crate) fn read<T: Default>(
        &mut self,
        name: &'static str,
        read: impl FnOnce(&Value) -> Result<T, String>,
    ) -> T {
        if !self.map.contains_key(name) {
            self.missing.get_or_insert(name);
        }
        self.read_or_default(name, read)
    }

    /// A field that is `T::default()` when absent, else read by `read`.
    pub(crate) fn read_or_default<T: Default>(
        &mut self,
        name: &str,
        read: impl FnOnce(&Value) -> Result<T, String>,
    ) -> T {
        match self.map.get(name).map(read) {
            Some(Ok(v)) => v,
            Some(Err(e)) => {
                self.wrong.get_or_insert(e);
                T::default()
            }
            None => T::default(),
        }
    }

    /// A required string.
    pub(crate) fn string(&mut self, name: &'static str) -> String {
        match self.map.get(name) {
            None => {
                self.missing.get_or_insert(name);
                String::new()
            }
            Some(value) => self.text(value),
        }
    }

    /// A string that is empty when absent (`null` is the wrong type).
    pub(crate) fn string_or_empty(&mut self, name: &str) -> String {
        match self.map.get(name) {
            None => String::new(),
            Some(value) => self.text(value),
        }
    }

    fn text(&mut self, value: &Value) -> String {
        match value {
            Value::String(s) => s.clone(),
            other => {
                self.wrong(other, "a string");
                String::new()
            }
        }
    }

    /// A string that may be absent or `null`.
    pub(crate) fn opt_string(&mut self, name: &str) -> Option<String> {
        match self.map.get(name) {
            None | Some(Value::Null) => None,
            Some(value) => Some(self.text(value)),
        }
    }

    /// A boolean that is false when absent (`null` is the wrong type).
    pub(crate) fn flag(&mut self, name: &str) -> bool {
        match self.map.get(name) {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.wrong(other, "a boolean");
                false
            }
        }
    }

    /// Any JSON value, `null` when absent.
    pub(crate) fn value(&self, name: &str) -> Value {
        self.map.get(name).cloned().unwrap_or(Value::Null)
    }

    /// The value read, or the first error: a wrong type, else a missing field.
    pub(crate) fn done<T>(self, value: T) -> Result<T, String> {
        match (self.wrong, self.missing) {
            (Some(wrong), _) => Err(wrong),
            (None, Some(name)) => Err(format!("missing field `{name}`")),
            (None, None) => Ok(value),
        }
    }
}

impl FromJson for ToolDispatched {
    fn from_value(value: &Value) -> Result<ToolDispatched, String> {
        let mut f = Fields::of(value, "struct ToolDispatched")?;
        let call = ToolDispatched {
            session_id: f.string_or_empty("session_id"),
            run_id: f.string_or_empty("run_id"),
            client_id: f.string("client_id"),
            call_id: f.string("call_id"),
            tool: f.string("tool"),
            arguments: f.value("arguments"),
            ack_deadline: f.opt_string("ack_deadline"),
        };
        f.done(call)
    }
}

impl FromJson for ToolSpec {
    fn from_value(value: &Value) -> Result<ToolSpec, String> {
        let mut f = Fields::of(value, "struct ToolSpec")?;
        let spec = ToolSpec {
            name: f.string("name"),
            description: f.string_or_empty("description"),
            parameters: Some(f.value("parameters")).filter(|p| !p.is_null()),
        };
        f.done(spec)
    }
}

impl FromJson for Lifetime {
    /// `{"type": "never"}` or `{"type": "ttl", "data": {"seconds": N}}`, in any field order;
    /// `[type, data]` too, as serde reads a struct.
    fn from_value(value: &Value) -> Result<Lifetime, String> {
        let (kind, data) = match value {
            Value::Object(_) => {
                let mut f = Fields::of(value, "")?;
                let kind = f.string("type");
                let data = f.read_or_default("data", ttl);
                f.done((kind, data))?
            }
            Value::Array(items) if !items.is_empty() => match &items[0] {
                Value::String(kind) => (kind.clone(), ttl(items.get(1).unwrap_or(&Value::Null))?),
                other => return Err(invalid_type(other, "a string")),
            },
            other => return Err(invalid_type(other, "adjacently tagged enum Lifetime")),
        };
        match (kind.as_str(), data) {
            ("never", None) => Ok(Lifetime::Never),
            ("never", Some(_)) => {
                Err("invalid type: map, expected unit variant Lifetime::Never".into())
            }
            ("ttl", Some(seconds)) => Ok(Lifetime::Ttl { seconds }),
            ("ttl", None) => Err("missing field `data`".into()),
            (other, _) => Err(format!(
                "unknown variant `{other}`, expected `never` or `ttl`"
            )),
        }
    }
}

/// A lifetime's `data`, `{"seconds": N}`, or `None` for `null`: its seconds.
fn ttl(data: &Value) -> Result<Option<u32>, String> {
    if data.is_null() {
        return Ok(None);
    }
    let mut f = Fields::of(data, "struct Ttl")?;
    let seconds = f.read("seconds", seconds);
    f.done(Some(seconds))
}

/// A number of seconds as a `u32`.
fn seconds(value: &Value) -> Result<u32, String> {
    match value {
        Value::Number(n) if !n.is_f64() => match n.as_u64().and_then(|s| u32::try_from(s).ok()) {
            Some(s) => Ok(s),
            None => Err(format!(
                "invalid value: integer `{}`, expected u32",
                json_text(value)
            )),
        },
        other => Err(invalid_type(other, "u32")),
    }
}

impl FromJson for Vec<ToolSpec> {
    fn from_value(value: &Value) -> Result<Vec<ToolSpec>, String> {
        match value {
            Value::Array(items) => {
                let mut specs = Vec::with_capacity(items.len());
                for item in items {
                    specs.push(ToolSpec::from_value(item)?);
                }
                Ok(specs)
            }
            other => Err(invalid_type(other, "a sequence")),
        }
    }
}

impl FromJson for ClientInfo {
    fn from_value(value: &Value) -> Result<ClientInfo, String> {
        let mut f = Fields::of(value, "struct ClientInfo")?;
        let info = ClientInfo {
            id: f.string("id"),
            name: f.string("name"),
            lifetime: f.read("lifetime", Lifetime::from_value),
            expires_at: f.opt_string("expires_at"),
            tools: f.read_or_default("tools", Vec::from_value),
        };
        f.done(info)
    }
}

impl FromJson for PingAnswer {
    fn from_value(value: &Value) -> Result<PingAnswer, String> {
        let mut f = Fields::of(value, "struct PingAnswer")?;
        let expires_at = f.opt_string("expires_at");
        f.done(PingAnswer { expires_at })
    }
}

impl FromJson for AckAnswer {
    fn from_value(value: &Value) -> Result<AckAnswer, String> {
        let mut f = Fields::of(value, "struct AckAnswer")?;
        let result_deadline = f.string("result_deadline");
        f.done(AckAnswer { result_deadline })
    }
}

impl FromJson for ApiError {
    fn from_value(value: &Value) -> Result<ApiError, String> {
        let mut f = Fields::of(value, "struct ApiError")?;
        let kind = f.string("type");
        let error = ApiError {
            kind: ErrorType::parse(&kind),
            message: f.string("message"),
            param: f.opt_string("param"),
        };
        f.done(error)
    }
}

impl FromJson for ErrorBody {
    fn from_value(value: &Value) -> Result<ErrorBody, String> {
        let mut f = Fields::of(value, "struct ErrorBody")?;
        let error = f.read("error", |e| ApiError::from_value(e).map(Some));
        f.done(())?;
        let error = error.ok_or_else(|| "missing field `error`".to_owned())?;
        Ok(ErrorBody { error })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;

    /// Reads each text by hand and with the derived `Deserialize`: the same value, or the same
    /// message (a field error without serde's position; text that is not JSON with it).
    fn same<T: FromJson + DeserializeOwned + PartialEq + Debug>(texts: &[&str]) {
        for text in texts {
            let derived = serde_json::from_str::<T>(text).map_err(|e| {
                let message = e.to_string();
                if !e.is_data() {
                    return message;
                }
                let position = format!(" at line {} column {}", e.line(), e.column());
                message
                    .strip_suffix(&position)
                    .unwrap_or(&message)
                    .to_owned()
            });
            assert_eq!(T::from_json(text), derived, "{text}");
        }
    }

    #[test]
    fn reads_as_the_derived_deserialize_reads() {
        same::<ToolDispatched>(&[
            r#"{"client_id":"c","call_id":"k","tool":"t"}"#,
            r#"{"session_id":"s","run_id":"r","client_id":"c","call_id":"k","tool":"t","arguments":{"a":[1,2.5]},"ack_deadline":"2026-11-29T12:00:00Z","extra":1}"#,
            r#"{"client_id":"c","call_id":"k","tool":"t","arguments":null,"ack_deadline":null}"#,
            r#"{"client_id":"c","call_id":"k"}"#,
            r#"{"client_id":"c","call_id":"k","tool":5}"#,
            r#"{"client_id":"c","call_id":"k","tool":-5}"#,
            r#"{"client_id":"c","call_id":"k","tool":1.5}"#,
            r#"{"client_id":"c","call_id":"k","tool":1e300}"#,
            r#"{"client_id":"c","call_id":"k","tool":true}"#,
            r#"{"client_id":"c","call_id":"k","tool":"t","run_id":null}"#,
            r#"{"client_id":"c","call_id":"k","tool":"t","ack_deadline":{}}"#,
            r#"{"client_id":"c","call_id":["k"],"tool":"t"}"#,
            r#"{"client_id":"c","call_id":"k","tool":"t\"\u0001é"}"#,
            r#"{"call_id":5}"#,
            r#""not an object""#,
            "null",
            "7",
            "{",
            r#"{"client_id":"c",}"#,
        ]);
        same::<ClientInfo>(&[
            r#"{"id":"cli_1","name":"web","lifetime":{"type":"never"},"expires_at":null}"#,
            r#"{"id":"cli_1","name":"web","lifetime":{"data":{"seconds":60},"type":"ttl"},"expires_at":"2026-11-29T12:00:00Z","tools":[{"name":"a","description":"d","parameters":{"type":"object"}},{"name":"b"}]}"#,
            r#"{"id":"cli_1","name":"web"}"#,
            r#"{"id":5,"name":"web","lifetime":{"type":"never"}}"#,
            r#"{"id":"cli_1","name":"web","lifetime":{"type":"never"},"tools":null}"#,
            r#"{"id":"cli_1","name":"web","lifetime":{"type":"never"},"tools":{}}"#,
            r#"{"id":"cli_1","name":"web","lifetime":{"type":"never"},"tools":[5]}"#,
            r#"{"id":"cli_1","name":"web","lifetime":{"type":"never"},"tools":[{"description":"d"}]}"#,
            r#"{"id":"cli_1","name":"web","lifetime":{"type":"never"},"tools":[{"name":"a","description":null}]}"#,
            r#"{"id":"cli_1","name":"web","lifetime":"never"}"#,
        ]);
        same::<Lifetime>(&[
            r#"{"type":"never"}"#,
            r#"{"type":"never","data":null}"#,
            r#"{"type":"never","data":{"seconds":5}}"#,
            r#"{"type":"ttl","data":{"seconds":5}}"#,
            r#"{"data":{"seconds":3600},"type":"ttl"}"#,
            r#"["ttl",{"seconds":5}]"#,
            r#"["never"]"#,
            r#"{"type":"ttl"}"#,
            r#"{"type":"ttl","data":{}}"#,
            r#"{"type":"ttl","data":5}"#,
            r#"{"type":"ttl","data":{"seconds":-1}}"#,
            r#"{"type":"ttl","data":{"seconds":5000000000}}"#,
            r#"{"type":"ttl","data":{"seconds":1.5}}"#,
            r#"{"type":"ttl","data":{"seconds":"5"}}"#,
            r#"{"type":"forever"}"#,
            r#"{"type":5}"#,
            r#"{}"#,
            "5",
            "null",
        ]);
        same::<PingAnswer>(&[
            r#"{"expires_at":"2026-11-29T12:00:00Z"}"#,
            r#"{"expires_at":null}"#,
            r#"{}"#,
            r#"{"expires_at":5}"#,
        ]);
        same::<AckAnswer>(&[
            r#"{"result_deadline":"2026-11-29T12:00:00Z"}"#,
            r#"{}"#,
            r#"{"result_deadline":false}"#,
            "",
        ]);
        same::<ErrorBody>(&[
            r#"{"error":{"type":"not_found","message":"unknown client","param":null}}"#,
            r#"{"error":{"type":"something_new","message":"m","param":"tools[3].name"}}"#,
            r#"{"error":{"type":"not_found"}}"#,
            r#"{"error":{"type":7,"message":"m"}}"#,
            r#"{"error":"nope"}"#,
            r#"{}"#,
            "<html>",
        ]);
    }

    #[test]
    fn an_answer_is_an_object_not_serdes_array_form_of_a_struct() {
        assert_eq!(
            ClientInfo::from_json(r#"["cli_1","web",{"type":"never"},null,[]]"#),
            Err("invalid type: sequence, expected struct ClientInfo".to_owned())
        );
    }
}
