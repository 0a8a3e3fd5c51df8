//! Tool replacement: the `PUT` of a new tool list, one at a time, newest last; and holding
//! results back while the server does not have the list yet.

use super::core::{Core, LeftBy};
use super::io::{ClientState, EngineError, EngineErrorKind, Method, OpId, Output};
use super::requests::{Answer, ReqKind};
use crate::protocol::ReplaceToolsRequest;

impl Core {
    pub fn set_tools(&mut self, tools: Vec<super::ToolDef>, now: u64) -> OpId {
        self.tools = tools;
        self.tools_version += 1;
        let op = self.new_op();
        match (self.state, self.left_by) {
            (ClientState::Failed, _) | (ClientState::Left, Some(LeftBy::App)) => {
                let err = EngineError::new(
                    EngineErrorKind::NotRegistered,
                    "the client is not registered",
                );
                self.out.push_back(Output::OpDone {
                    op,
                    result: Err(err),
                });
            }
            // Declared by the next registration.
            (ClientState::Left, _) | (ClientState::Registering, _) => {
                self.tool_ops.push((op, self.tools_version))
            }
            (ClientState::Registered, _) => {
                self.tool_ops.push((op, self.tools_version));
                self.put_tools(now);
            }
        }
        op
    }

    /// Sends the `PUT` of the current tools, unless one is on its way (its answer sends the
    /// newer list then).
    pub(super) fn put_tools(&mut self, now: u64) {
        let Some(reg) = &self.reg else { return };
        let client_id = reg.id.clone();
        if self.has_request(|k| matches!(k, ReqKind::PutTools { .. })) {
            return;
        }
        let body = ReplaceToolsRequest {
            tools: self.tool_specs(),
        };
        let body = serde_json::to_string(&body).expect("a tools request always serializes");
        let url = self.url(&self.cfg.paths.tools, &client_id, "");
        let kind = ReqKind::PutTools {
            client_id,
            version: self.tools_version,
        };
        self.send_new(kind, Method::Put, url, Some(body), false, now);
    }

    pub(super) fn on_tools_answer(
        &mut self,
        client_id: &str,
        version: u64,
        answer: Answer,
        now: u64,
    ) {
        if self.reg.as_ref().is_none_or(|r| r.id != client_id) {
            return;
        }
        match answer {
            Answer::Ok(_) => self.declared(version),
            Answer::Refused { status: 404, .. } => return self.lapse(now),
            Answer::Refused {
                status, message, ..
            } => {
                self.refused_version = self.refused_version.max(version);
                let message = format!("replacing the tools refused ({status}): {message}");
                self.error(message.clone());
                let err = EngineError::new(EngineErrorKind::Rejected, message);
                self.finish_tool_ops(version, Err(err));
            }
        }
        if self.tools_version > version {
            self.put_tools(now);
        }
        self.post_waiting_results(now);
    }

    /// The server now has tool list `version`: settle the ops that asked for it.
    pub(super) fn declared(&mut self, version: u64) {
        self.declared_version = self.declared_version.max(version);
        self.finish_tool_ops(version, Ok(()));
    }

    pub(super) fn finish_tool_ops(&mut self, upto: u64, result: Result<(), EngineError>) {
        let (done, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.tool_ops)
            .into_iter()
            .partition(|&(_, v)| v <= upto);
        self.tool_ops = rest;
        for (op, _) in done {
            self.out.push_back(Output::OpDone {
                op,
                result: result.clone(),
            });
        }
    }

    /// Whether results must wait: a tool list the server does not have yet is on its way.
    pub fn tools_pending(&self) -> bool {
        self.state == ClientState::Registered
            && self.tools_version > self.declared_version
            && self.tools_version > self.refused_version
    }
}
