//! The error answer of PROTOCOL.md: `{"error": {"type", "message", "param"}}` with its status.
//! With the feature `axum`, an [`HttpError`] is also an axum response.

use client_tools_core::protocol::{ApiError, ErrorBody, ErrorType, ValidationError};

/// An error answer: a status, a snake_case type, a message a person can act on, and the field
/// at fault (`tools[3].name`) when there is one.
#[derive(Debug, Clone)]
pub struct HttpError {
    /// The HTTP status, 400 to 599.
    pub status: u16,
    /// The error's `type`, snake_case: `invalid_request`, `not_found`, `call_settled`, ….
    pub kind: &'static str,
    /// What went wrong, for a person.
    pub message: String,
    /// The field at fault (`tools[3].name`), sent as `param`; `None` (sent as `null`) when
    /// the error is not about one field.
    pub param: Option<String>,
    /// Seconds for `Retry-After` (sent with 429 and 503).
    pub retry_after: Option<u64>,
}

impl HttpError {
    fn new(status: u16, kind: &'static str, message: impl Into<String>) -> Self {
        HttpError {
            status,
            kind,
            message: message.into(),
            param: None,
            retry_after: None,
        }
    }

    /// 400 `invalid_request` about the field `param`.
    pub fn invalid(param: impl Into<String>, message: impl Into<String>) -> Self {
        HttpError {
            param: Some(param.into()),
            ..Self::new(400, "invalid_request", message)
        }
    }

    /// 400 `invalid_request` about the body as a whole (not JSON, not an object).
    pub fn invalid_body(message: impl Into<String>) -> Self {
        Self::new(400, "invalid_request", message)
    }

    /// 401 `unauthorized`.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(401, "unauthorized", message)
    }

    /// 403 `forbidden`.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(403, "forbidden", message)
    }

    /// 404 `not_found`.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(404, "not_found", message)
    }

    /// 409 with one of the conflict types (`client_limit_reached`, `call_not_acked`,
    /// `call_settled`).
    pub fn conflict(kind: &'static str, message: impl Into<String>) -> Self {
        Self::new(409, kind, message)
    }

    /// 413 `payload_too_large`.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(413, "payload_too_large", message)
    }

    /// 429 `rate_limited`, retry after `seconds`.
    pub fn rate_limited(seconds: u64, message: impl Into<String>) -> Self {
        HttpError {
            retry_after: Some(seconds),
            ..Self::new(429, "rate_limited", message)
        }
    }

    /// 405 for a known path with a method it does not take.
    pub fn method_not_allowed() -> Self {
        Self::new(
            405,
            "invalid_request",
            "this path does not take this method",
        )
    }

    /// Any status, with the type the error table gives it (used by fault injection).
    pub fn with_status(status: u16, message: impl Into<String>) -> Self {
        let kind = match status {
            400 => "invalid_request",
            401 => "unauthorized",
            403 => "forbidden",
            404 => "not_found",
            413 => "payload_too_large",
            429 => "rate_limited",
            s if s >= 500 => "server_error",
            _ => "injected_fault",
        };
        Self::new(status, kind, message)
    }
}

impl From<ValidationError> for HttpError {
    fn from(e: ValidationError) -> Self {
        let message = e.to_string();
        HttpError::invalid(e.field, message)
    }
}

impl HttpError {
    /// The JSON body of the answer.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ApiError {
                kind: ErrorType::parse(self.kind),
                message: self.message.clone(),
                param: self.param.clone(),
            },
        }
    }
}

#[cfg(feature = "axum")]
impl axum::response::IntoResponse for HttpError {
    fn into_response(self) -> axum::response::Response {
        use axum::http::{header, HeaderValue, StatusCode};
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, axum::Json(self.body())).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
