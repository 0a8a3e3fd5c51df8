//! The error answer of PROTOCOL.md: `{"error": {"type", "message", "param"}}` with its status.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use client_tools_core::protocol::{ApiError, ErrorBody, ErrorType, ValidationError};

/// An error answer: a status, a snake_case type, a message a person can act on, and the field
/// at fault (`tools[3].name`) when there is one.
#[derive(Debug, Clone)]
pub struct HttpError {
    pub status: StatusCode,
    pub kind: &'static str,
    pub message: String,
    pub param: Option<String>,
    /// Seconds for `Retry-After` (sent with 429 and 503).
    pub retry_after: Option<u64>,
}

impl HttpError {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
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
            ..Self::new(StatusCode::BAD_REQUEST, "invalid_request", message)
        }
    }

    /// 400 `invalid_request` about the body as a whole (not JSON, not an object).
    pub fn invalid_body(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", message)
    }

    /// 401 `unauthorized`.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 403 `forbidden`.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 404 `not_found`.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 409 with one of the conflict types (`client_limit_reached`, `call_not_acked`,
    /// `call_settled`).
    pub fn conflict(kind: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, kind, message)
    }

    /// 413 `payload_too_large`.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", message)
    }

    /// 429 `rate_limited`, retry after `seconds`.
    pub fn rate_limited(seconds: u64, message: impl Into<String>) -> Self {
        HttpError {
            retry_after: Some(seconds),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message)
        }
    }

    /// 405 for a known path with a method it does not take.
    pub fn method_not_allowed() -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "invalid_request",
            "this path does not take this method",
        )
    }

    /// Any status, with the type the error table gives it (used by fault injection).
    pub fn with_status(status: StatusCode, message: impl Into<String>) -> Self {
        let kind = match status.as_u16() {
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

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ApiError {
                kind: ErrorType::parse(self.kind),
                message: self.message,
                param: self.param,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
