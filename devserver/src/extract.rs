//! The ids in a route's path, read so that a path that cannot be read (bad percent-encoding,
//! not UTF-8) is a JSON `400` like every other error, not axum's plain-text rejection.

use crate::error::HttpError;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// The path parameters of a route, deserialized into `T` by name.
pub struct Ids<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Ids<T> {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, HttpError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(ids)) => Ok(Ids(ids)),
            Err(e) => Err(HttpError::invalid_body(format!(
                "the ids in the path cannot be read: {e}"
            ))),
        }
    }
}
