//! The client's routes of PROTOCOL.md as one step: a method, the path under
//! `/v1/sessions/{session_id}` and the body in, the status and JSON body out. What an in-page
//! driver (the SDK's test agent, answering the client's `fetch`) serves; the devserver routes
//! the same paths with axum and calls the same [`SessionCore`] steps. Auth, idempotency and
//! the body size limit are the driver's.

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

/// Which client route a request is, from its method and its path under the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route<'a> {
    /// `POST /clients`: register a client.
    Register,
    /// `POST /clients/{client_id}/ping`: stay registered.
    Ping {
        /// The client from the path.
        client_id: &'a str,
    },
    /// `DELETE /clients/{client_id}`: leave.
    Leave {
        /// The client from the path.
        client_id: &'a str,
    },
    /// `PUT /clients/{client_id}/tools`: replace the tools.
    ReplaceTools {
        /// The client from the path.
        client_id: &'a str,
    },
    /// `GET /clients/{client_id}/calls`: the calls dispatched to the client, not settled.
    PendingCalls {
        /// The client from the path.
        client_id: &'a str,
    },
    /// `POST /clients/{client_id}/calls/{call_id}/ack`: acknowledge a call.
    Ack {
        /// The client from the path.
        client_id: &'a str,
        /// The call from the path.
        call_id: &'a str,
    },
    /// `POST /clients/{client_id}/calls/{call_id}/result`: answer a call.
    Result {
        /// The client from the path.
        client_id: &'a str,
        /// The call from the path.
        call_id: &'a str,
    },
}

impl<'a> Route<'a> {
    /// The route of `method` on `path` (under `/v1/sessions/{session_id}`, no query), or the
    /// error answer: 404 for an unknown path, 405 for a known path with another method.
    pub fn of(method: &str, path: &'a str) -> Result<Route<'a>, HttpError> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        let route = match parts.as_slice() {
            ["clients"] => Some(("POST", Route::Register)),
            ["clients", c] => Some(("DELETE", Route::Leave { client_id: c })),
            ["clients", c, "ping"] => Some(("POST", Route::Ping { client_id: c })),
            ["clients", c, "tools"] => Some(("PUT", Route::ReplaceTools { client_id: c })),
            ["clients", c, "calls"] => Some(("GET", Route::PendingCalls { client_id: c })),
            ["clients", c, "calls", k, "ack"] => Some((
                "POST",
                Route::Ack {
                    client_id: c,
                    call_id: k,
                },
            )),
            ["clients", c, "calls", k, "result"] => Some((
                "POST",
                Route::Result {
                    client_id: c,
                    call_id: k,
                },
            )),
            _ => None,
        };
        match route {
            Some((m, route)) if m.eq_ignore_ascii_case(method) => Ok(route),
            Some(_) => Err(HttpError::method_not_allowed()),
            None => Err(HttpError::not_found(format!("no route {path}"))),
        }
    }
}

impl SessionCore {
    /// Serves one client request at `now`: routes it, reads its body, runs the step.
    pub fn handle(&mut self, method: &str, path: &str, body: &str, now: u64) -> Answer {
        match self.serve(method, path, body, now) {
            Ok(answer) => answer,
            Err(e) => e.into(),
        }
    }

    fn serve(
        &mut self,
        method: &str,
        path: &str,
        body: &str,
        now: u64,
    ) -> Result<Answer, HttpError> {
        Ok(match Route::of(method, path)? {
            Route::Register => {
                let req: RegisterRequest = parse(body.as_bytes())?;
                Answer::json(201, &self.register(req, now)?)
            }
            Route::Ping { client_id } => {
                let expires_at = self.ping(client_id, now)?;
                Answer::json(200, &PingAnswer { expires_at })
            }
            Route::Leave { client_id } => {
                self.leave(client_id)?;
                Answer {
                    status: 204,
                    body: String::new(),
                    retry_after: None,
                }
            }
            Route::ReplaceTools { client_id } => {
                let req: ReplaceToolsRequest = parse(body.as_bytes())?;
                Answer::json(200, &self.replace_tools(client_id, req.tools)?)
            }
            Route::PendingCalls { client_id } => {
                let calls = self.pending_calls(client_id)?;
                Answer::json(200, &PendingCalls { calls })
            }
            Route::Ack { client_id, call_id } => {
                let result_deadline = self.ack(client_id, call_id, now)?;
                Answer::json(200, &AckAnswer { result_deadline })
            }
            Route::Result { client_id, call_id } => {
                let result: CallResult = parse(body.as_bytes())?;
                self.answer(client_id, call_id, result)?;
                Answer::json(200, &serde_json::json!({}))
            }
        })
    }
}
