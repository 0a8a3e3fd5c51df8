//! The tool list: the tools on offer, the `PUT` of a new list (one at a time, newest last),
//! the app's operations waiting for the server to have their list, and holding results back
//! while it does not.

use super::config::ToolDef;
use super::io::{EngineError, EngineErrorKind, OpId, Output};
use super::outbox::{Outbox, Topic};
use super::requests::{Answer, ReqKind, Requests};
use crate::protocol::{replace_tools_json, ToolSpec};
use crate::time::Instant;

/// What a `PUT` answer means for the engine.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PutAnswered {
    /// Taken or refused (the app was told); send a newer list and waiting results now.
    Done,
    /// 404: the registration lapsed.
    Lapsed,
}

/// The tools on offer and the versions the server has.
#[derive(Debug)]
pub(super) struct ToolList {
    tools: Vec<ToolDef>,
    /// Bumped by every replacement; the server has `declared`.
    version: u64,
    declared: u64,
    /// The newest version the server refused; results stop waiting for it.
    refused: u64,
    /// The app's `set_tools` operations and the version each waits for.
    ops: Vec<(OpId, u64)>,
}

impl ToolList {
    pub(super) fn new(tools: Vec<ToolDef>) -> ToolList {
        ToolList {
            tools,
            version: 0,
            declared: 0,
            refused: 0,
            ops: Vec::new(),
        }
    }

    pub(super) fn defs(&self) -> &[ToolDef] {
        &self.tools
    }

    /// The version of the current list.
    pub(super) fn version(&self) -> u64 {
        self.version
    }

    /// Whether the server has `version` (it took it or a newer one).
    pub(super) fn is_declared(&self, version: u64) -> bool {
        version <= self.declared
    }

    /// Replaces the list; returns its version.
    pub(super) fn replace(&mut self, tools: Vec<ToolDef>) -> u64 {
        self.tools = tools;
        self.version += 1;
        self.version
    }

    /// Settles `op` once the server has `version` (or refused it).
    pub(super) fn wait(&mut self, op: OpId, version: u64) {
        self.ops.push((op, version));
    }

    /// Sends the `PUT` of the current tools to `client_id`, unless one is on its way (its
    /// answer sends the newer list then).
    pub(super) fn put(
        &self,
        client_id: &str,
        requests: &mut Requests,
        now: Instant,
        out: &mut Outbox,
    ) {
        if requests.has(&|k| matches!(k, ReqKind::PutTools { .. })) {
            return;
        }
        let specs: Vec<&ToolSpec> = self.tools.iter().map(|t| &t.spec).collect();
        let body = replace_tools_json(&specs);
        let kind = ReqKind::PutTools {
            client_id: client_id.to_owned(),
            version: self.version,
        };
        requests.send(kind, Some(body), false, now, out);
    }

    /// The answer to the `PUT` of `version`.
    pub(super) fn on_put_answer(
        &mut self,
        version: u64,
        answer: Answer,
        out: &mut Outbox,
    ) -> PutAnswered {
        match answer {
            Answer::Ok(_) => self.declared(version, out),
            Answer::Refused { status: 404, .. } => return PutAnswered::Lapsed,
            Answer::Refused {
                status, message, ..
            } => {
                self.refused = self.refused.max(version);
                let message = format!("replacing the tools refused ({status}): {message}");
                out.error(Topic::ToolsRefused, message.clone());
                let err = EngineError::new(EngineErrorKind::Rejected, message);
                self.finish_ops(version, Err(err), out);
            }
        }
        PutAnswered::Done
    }

    /// The server now has tool list `version`: settle the ops that asked for it.
    pub(super) fn declared(&mut self, version: u64, out: &mut Outbox) {
        self.declared = self.declared.max(version);
        self.finish_ops(version, Ok(()), out);
    }

    /// Settles the ops waiting for `upto` or an older version.
    pub(super) fn finish_ops(
        &mut self,
        upto: u64,
        result: Result<(), EngineError>,
        out: &mut Outbox,
    ) {
        let mut i = 0;
        while i < self.ops.len() {
            if self.ops[i].1 > upto {
                i += 1;
                continue;
            }
            let (op, _) = self.ops.remove(i);
            out.push(Output::OpDone {
                op,
                result: result.clone(),
            });
        }
    }

    /// Takes every waiting op (the engine stopped).
    pub(super) fn take_ops(&mut self) -> Vec<OpId> {
        let mut ops = Vec::with_capacity(self.ops.len());
        for (op, _) in self.ops.drain(..) {
            ops.push(op);
        }
        ops
    }

    /// Whether results must wait: registered, and a tool list the server does not have yet is
    /// on its way.
    pub(super) fn holds_results(&self, registered: bool) -> bool {
        registered && self.version > self.declared && self.version > self.refused
    }
}
