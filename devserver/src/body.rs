//! Request bodies: at most 1 MiB (413 over it), JSON (400 if not), and of the right shape
//! (400 with `param` naming the field, e.g. `tools[3].name` or `lifetime.data.seconds`).

use crate::error::HttpError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use client_tools_core::json::json_type_name;
use client_tools_core::protocol::limits::BODY_MAX_BYTES;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A JSON body read into `T`; every way it can be wrong is an [`HttpError`].
pub struct JsonBody<T>(pub T);

/// A JSON body that may also be empty (then `T::default()`), for routes whose body is optional.
pub struct OptionalJsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, HttpError> {
        let bytes = read(req, state).await?;
        parse(&bytes).map(JsonBody)
    }
}

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, HttpError> {
        let bytes = read(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJsonBody(T::default()));
        }
        parse(&bytes).map(OptionalJsonBody)
    }
}

async fn read<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, HttpError> {
    // The router's DefaultBodyLimit makes a longer body fail here with 413.
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            HttpError::invalid_body(format!("could not read the body: {rejection}"))
        }
    })
}

/// The 413 answer for a body over 1 MiB.
pub fn too_large() -> HttpError {
    HttpError::too_large(format!("the body is over {BODY_MAX_BYTES} bytes (1 MiB)"))
}

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
