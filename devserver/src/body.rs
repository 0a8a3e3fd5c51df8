//! Request bodies: at most 1 MiB (413 over it), JSON (400 if not), and of the right shape
//! (400 with `param` naming the field, e.g. `tools[3].name` or `lifetime.data.seconds`).

use crate::error::HttpError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use client_tools_core::protocol::limits::BODY_MAX_BYTES;
use serde::de::DeserializeOwned;

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

/// The body's bytes; 413 over 1 MiB, 400 when it cannot be read.
pub async fn read<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, HttpError> {
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

pub use client_tools_sessions::body::parse;
