//! Request bodies as the session rules read them: JSON (400 if not), a JSON object, and of the
//! right shape (400 with `param` naming the field, e.g. `tools[3].name` or
//! `lifetime.data.seconds`). The size limit (413) is the driver's: it reads the bytes.

use crate::HttpError;
use client_tools_core::json::json_type_name;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Parses a body: first as JSON at all, then as a `T`, naming the field that does not fit.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, HttpError> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| HttpError::invalid_body(format!("the body is not JSON: {e}")))?;
    if !value.is_object() {
        return Err(HttpError::invalid_body(format!(
            "the body must be a JSON object, got {}",
            json_type_name(&value)
        )));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let field = field_of(&path, &inner);
        HttpError::invalid(field, inner)
    })
}

/// The field an error is about: serde reports a missing field at its parent, so the name in
/// "missing field `x`" is appended to the path.
fn field_of(path: &str, message: &str) -> String {
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match (path, missing) {
        (".", Some(field)) => field.to_owned(),
        (_, Some(field)) => format!("{path}.{field}"),
        (".", None) => String::new(),
        (_, None) => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_tools_core::protocol::RegisterRequest;

    fn param_of(body: &str) -> Option<String> {
        parse::<RegisterRequest>(body.as_bytes()).unwrap_err().param
    }

    #[test]
    fn names_the_field_that_does_not_fit() {
        assert_eq!(param_of(r#"{"name": 5}"#).as_deref(), Some("name"));
        assert_eq!(param_of(r#"{"tools": []}"#).as_deref(), Some("name"));
        assert_eq!(
            param_of(r#"{"name": "w", "tools": [{"name": "a"}, {"name": 1}]}"#).as_deref(),
            Some("tools[1].name")
        );
        assert_eq!(
            param_of(r#"{"name": "w", "tools": [{"description": "x"}]}"#).as_deref(),
            Some("tools[0].name")
        );
    }

    #[test]
    fn refuses_what_is_not_a_json_object() {
        for body in ["", "{", "[1]", "\"x\"", "nul"] {
            let e = parse::<RegisterRequest>(body.as_bytes()).unwrap_err();
            assert_eq!(e.status, 400, "{body:?}");
            assert_eq!(e.param, None, "{body:?}");
        }
    }
}
