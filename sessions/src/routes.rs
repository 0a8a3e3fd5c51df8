//! The client's routes of PROTOCOL.md as one step: a method, the path under
//! `/v1/sessions/{session_id}` and the body in, the status and JSON body out. Both drivers
//! serve the client through it: the devserver (axum reads the request and writes the answer)
//! and the SDK's in-page test agent (answering the client's `fetch`), so the two route, read
//! and refuse alike. Auth, idempotency, faults and the body size limit are the driver's.

use crate::body::parse;
use crate::{HttpError, SessionCore};
use client_tools_core::protocol::{
    AckAnswer, CallResult, PendingCalls, PingAnswer, RegisterRequest, ReplaceToolsRequest,
};
use serde::Serialize;

/// An answer: a status and its JSON body (empty for 204).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status code (`200`, `201`, `204`, or the error's).
    pub status: u16,
    /// The JSON body; empty for a `204`.
    pub body: String,
    /// Seconds for `Retry-After`.
    pub retry_after: Option<u64>,
}

impl Answer {
    fn json(status: u16, body: &impl Serialize) -> Answer {
        Answer {
            status,
            body: serde_json::to_string(body).unwrap_or_default(),
            retry_after: None,
        }
    }
}

impl From<HttpError> for Answer {
    fn from(e: HttpError) -> Answer {
        Answer {
            retry_after: e.retry_after,
            ..Answer::json(e.status, &e.body())
        }
    }
}

/// Which client route a request is, from its method and its path under the session. The ids
/// are percent-decoded: the SDK encodes each id it puts in a path (RFC 3986), so
/// `cli%5F1` and `cli_1` are the same client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `POST /clients`: register a client.
    Register,
    /// `POST /clients/{client_id}/ping`: stay registered.
    Ping {
        /// The client from the path.
        client_id: String,
    },
    /// `DELETE /clients/{client_id}`: leave.
    Leave {
        /// The client from the path.
        client_id: String,
    },
    /// `PUT /clients/{client_id}/tools`: replace the tools.
    ReplaceTools {
        /// The client from the path.
        client_id: String,
    },
    /// `GET /clients/{client_id}/calls`: the calls dispatched to the client, not settled.
    PendingCalls {
        /// The client from the path.
        client_id: String,
    },
    /// `POST /clients/{client_id}/calls/{call_id}/ack`: acknowledge a call.
    Ack {
        /// The client from the path.
        client_id: String,
        /// The call from the path.
        call_id: String,
    },
    /// `POST /clients/{client_id}/calls/{call_id}/result`: answer a call.
    Result {
        /// The client from the path.
        client_id: String,
        /// The call from the path.
        call_id: String,
    },
}

impl Route {
    /// The route of `method` on `path` (under `/v1/sessions/{session_id}`, no query, as it
    /// came: percent-encoded), or the error answer: 404 for an unknown path, 405 for a known
    /// path with another method, 400 for an id that is not percent-encoded UTF-8.
    pub fn of(method: &str, path: &str) -> Result<Route, HttpError> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        let allowed = match parts.as_slice() {
            ["clients"] => "POST",
            ["clients", _] => "DELETE",
            ["clients", _, "ping"] => "POST",
            ["clients", _, "tools"] => "PUT",
            ["clients", _, "calls"] => "GET",
            ["clients", _, "calls", _, "ack" | "result"] => "POST",
            _ => return Err(HttpError::not_found(format!("no route {path}"))),
        };
        if !allowed.eq_ignore_ascii_case(method) {
            return Err(HttpError::method_not_allowed());
        }
        let id = |raw: &str| {
            percent_decode(raw).ok_or_else(|| {
                HttpError::invalid_body(format!(
                    "the ids in the path cannot be read: {raw} is not percent-encoded UTF-8"
                ))
            })
        };
        Ok(match parts.as_slice() {
            ["clients", c] => Route::Leave { client_id: id(c)? },
            ["clients", c, "ping"] => Route::Ping { client_id: id(c)? },
            ["clients", c, "tools"] => Route::ReplaceTools { client_id: id(c)? },
            ["clients", c, "calls"] => Route::PendingCalls { client_id: id(c)? },
            ["clients", c, "calls", k, "ack"] => Route::Ack {
                client_id: id(c)?,
                call_id: id(k)?,
            },
            ["clients", c, "calls", k, "result"] => Route::Result {
                client_id: id(c)?,
                call_id: id(k)?,
            },
            ["clients"] => Route::Register,
            _ => return Err(HttpError::not_found(format!("no route {path}"))),
        })
    }
}

/// `s` with each `%XX` replaced by its byte, read as UTF-8; `None` for a `%` not followed by
/// two hex digits, or bytes that are not UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl SessionCore {
    /// Serves one client request at `now`: first what is due by then ([`Self::on_deadline`]:
    /// a request never sees a registration or a call its deadline has ended, however late the
    /// driver's timer is), then routes it, reads its body, runs the step.
    pub fn handle(&mut self, method: &str, path: &str, body: &[u8], now: u64) -> Answer {
        self.on_deadline(now);
        match self.serve(method, path, body, now) {
            Ok(answer) => answer,
            Err(e) => e.into(),
        }
    }

    fn serve(
        &mut self,
        method: &str,
        path: &str,
        body: &[u8],
        now: u64,
    ) -> Result<Answer, HttpError> {
        Ok(match Route::of(method, path)? {
            Route::Register => {
                let req: RegisterRequest = parse(body)?;
                Answer::json(201, &self.register(req, now)?)
            }
            Route::Ping { client_id } => {
                let expires_at = self.ping(&client_id, now)?;
                Answer::json(200, &PingAnswer { expires_at })
            }
            Route::Leave { client_id } => {
                self.leave(&client_id)?;
                Answer {
                    status: 204,
                    body: String::new(),
                    retry_after: None,
                }
            }
            Route::ReplaceTools { client_id } => {
                let req: ReplaceToolsRequest = parse(body)?;
                Answer::json(200, &self.replace_tools(&client_id, req.tools)?)
            }
            Route::PendingCalls { client_id } => {
                let calls = self.pending_calls(&client_id)?;
                Answer::json(200, &PendingCalls { calls })
            }
            Route::Ack { client_id, call_id } => {
                let result_deadline = self.ack(&client_id, &call_id, now)?;
                Answer::json(200, &AckAnswer { result_deadline })
            }
            Route::Result { client_id, call_id } => {
                let result: CallResult = parse(body)?;
                self.answer(&client_id, &call_id, result)?;
                Answer::json(200, &serde_json::json!({}))
            }
        })
    }
}
