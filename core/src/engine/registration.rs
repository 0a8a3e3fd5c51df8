//! Registration, pings, lapses, leaving, and the visibility policy.

use super::config::WhenHidden;
use super::core::{Core, LeftBy, Registration};
use super::io::{ClientState, EngineError, EngineErrorKind, Method, OpId, Output, Status};
use super::requests::{Answer, Req, ReqKind};
use super::timers::Timer;
use crate::protocol::{ClientInfo, Lifetime, PingAnswer, RegisterRequest};

impl Core {
    fn ttl_ms(&self) -> Option<u64> {
        match self.cfg.lifetime {
            Lifetime::Never => None,
            Lifetime::Ttl { seconds } => Some(u64::from(seconds) * 1000),
        }
    }

    pub(super) fn tool_specs(&self) -> Vec<crate::protocol::ToolSpec> {
        self.tools.iter().map(|t| t.spec.clone()).collect()
    }

    /// Sends the register request with the current tools, unless one is already on its way.
    pub fn register(&mut self, now: u64) {
        self.state = ClientState::Registering;
        if self.has_request(|k| matches!(k, ReqKind::Register { .. })) {
            return;
        }
        let body = RegisterRequest {
            name: self.cfg.name.clone(),
            lifetime: self.cfg.lifetime.clone(),
            tools: self.tool_specs(),
        };
        let body = serde_json::to_string(&body).expect("a register request always serializes");
        let url = self.url(&self.cfg.paths.register, "", "");
        let kind = ReqKind::Register {
            version: self.tools_version,
        };
        self.send_new(kind, Method::Post, url, Some(body), false, now);
    }

    pub(super) fn on_register_answer(&mut self, req: Req, answer: Answer, now: u64) {
        let (ReqKind::Register { version }, sent_at) = (&req.kind, req.sent_at) else {
            return;
        };
        let version = *version;
        let info = match answer {
            Answer::Ok(body) => match serde_json::from_str::<ClientInfo>(&body) {
                Ok(info) => info,
                // A proxy or captive portal may answer for the server: tell, and try again.
                Err(e) => {
                    self.error(format!("register: the answer is not a client object ({e})"));
                    return self.retry_later(req, None, now);
                }
            },
            Answer::Refused {
                status, message, ..
            } => {
                return self.fail(
                    EngineErrorKind::Rejected,
                    format!("register refused ({status}): {message}"),
                )
            }
        };
        if self.state != ClientState::Registering {
            // Left (or hid) while the register was on its way: undo it on the server.
            let url = self.url(&self.cfg.paths.leave, &info.id, "");
            self.send_new(
                ReqKind::Leave { op: None },
                Method::Delete,
                url,
                None,
                false,
                now,
            );
            return;
        }
        let reg = Registration {
            id: info.id,
            name: info.name,
            expires_at: info.expires_at,
            local_expiry: self.ttl_ms().map(|ttl| sent_at + ttl),
        };
        let status = if self.registered_once {
            Status::Reregistered {
                id: reg.id.clone(),
                name: reg.name.clone(),
                expires_at: reg.expires_at.clone(),
            }
        } else {
            Status::Registered {
                id: reg.id.clone(),
                name: reg.name.clone(),
                expires_at: reg.expires_at.clone(),
            }
        };
        self.reg = Some(reg);
        self.registered_once = true;
        self.state = ClientState::Registered;
        self.out.push_back(Output::Status(status));
        self.schedule_ping(sent_at);
        self.declared(version);
        if self.tools_version > version {
            self.put_tools(now);
        }
        self.sync_pending(now);
    }

    /// The next ping: a third of the TTL after the last successful one was sent.
    fn schedule_ping(&mut self, sent_at: u64) {
        match self.ttl_ms() {
            Some(ttl) => self.timers.set(Timer::Ping, sent_at + ttl / 3),
            None => self.timers.stop(Timer::Ping),
        }
    }

    /// Sends a ping now (TTL lifetimes, registered, none on its way).
    pub fn ping(&mut self, now: u64) {
        self.timers.stop(Timer::Ping);
        let Some(reg) = &self.reg else { return };
        if self.state != ClientState::Registered || self.ttl_ms().is_none() {
            return;
        }
        let client_id = reg.id.clone();
        if self.has_request(|k| matches!(k, ReqKind::Ping { .. })) {
            return;
        }
        let url = self.url(&self.cfg.paths.ping, &client_id, "");
        self.send_new(
            ReqKind::Ping { client_id },
            Method::Post,
            url,
            None,
            false,
            now,
        );
    }

    pub(super) fn on_ping_answer(
        &mut self,
        client_id: &str,
        answer: Answer,
        sent_at: u64,
        now: u64,
    ) {
        if self.reg.as_ref().is_none_or(|r| r.id != client_id) {
            return;
        }
        match answer {
            Answer::Ok(body) => {
                let ttl = self.ttl_ms();
                if let Some(reg) = self.reg.as_mut() {
                    if let Ok(ping) = serde_json::from_str::<PingAnswer>(&body) {
                        reg.expires_at = ping.expires_at;
                    }
                    reg.local_expiry = ttl.map(|ttl| sent_at + ttl);
                }
                self.schedule_ping(sent_at);
            }
            Answer::Refused { status: 404, .. } => self.lapse(now),
            Answer::Refused {
                status, message, ..
            } => {
                self.error(format!("ping refused ({status}): {message}"));
                self.schedule_ping(now);
            }
        }
    }

    /// The registration ran out: tell the app and register again with the current tools.
    pub fn lapse(&mut self, now: u64) {
        let Some(old) = self.reg.take() else { return };
        self.forget_requests(|k| match k {
            ReqKind::Ping { client_id }
            | ReqKind::Pending { client_id }
            | ReqKind::PutTools { client_id, .. } => *client_id == old.id,
            _ => false,
        });
        self.timers.stop(Timer::Ping);
        self.out.push_back(Output::Status(Status::Lapsed));
        if self.pings_paused() {
            // `pause` lets a hidden page lapse; it registers again once visible, not before.
            self.state = ClientState::Registering;
            self.register_when_visible = true;
            return;
        }
        self.register(now);
    }

    /// Whether pings wait: `whenHidden: pause` while hidden.
    pub fn pings_paused(&self) -> bool {
        self.hidden && self.cfg.when_hidden == WhenHidden::Pause
    }

    pub fn on_visibility(&mut self, hidden: bool, now: u64) {
        if self.hidden == hidden {
            return;
        }
        self.hidden = hidden;
        match (self.cfg.when_hidden, hidden) {
            (WhenHidden::Leave, true) => self.leave(LeftBy::Hidden, None, false, now),
            (WhenHidden::Leave, false) => self.come_back(LeftBy::Hidden, now),
            (_, false) => self.on_visible(now),
            // Keep goes on pinging; pause is `pings_paused` now.
            (_, true) => {}
        }
    }

    /// Visible again (or resumed): ping at once, or register again if the TTL ran out.
    fn on_visible(&mut self, now: u64) {
        if std::mem::take(&mut self.register_when_visible) && self.state == ClientState::Registering
        {
            return self.register(now);
        }
        if self.state != ClientState::Registered {
            return;
        }
        let expired = self
            .reg
            .as_ref()
            .and_then(|r| r.local_expiry)
            .is_some_and(|e| now >= e);
        if expired && self.cfg.when_hidden == WhenHidden::Pause {
            self.lapse(now);
        } else {
            self.ping(now);
        }
    }

    pub fn on_resume(&mut self, now: u64) {
        if !self.pings_paused() {
            self.on_visible(now);
        }
    }

    /// Registers again and reopens the stream if the client left for reason `by`.
    pub fn come_back(&mut self, by: LeftBy, now: u64) {
        if self.state != ClientState::Left || self.left_by != Some(by) {
            return;
        }
        self.left_by = None;
        self.register(now);
        self.open_stream();
    }

    pub fn leave_by_app(&mut self, now: u64) -> OpId {
        let op = self.new_op();
        self.leave(LeftBy::App, Some(op), false, now);
        op
    }

    /// Leaves: aborts handlers, closes the stream, sends the `DELETE` if registered.
    pub fn leave(&mut self, by: LeftBy, op: Option<OpId>, keepalive: bool, now: u64) {
        let done = |core: &mut Core, result| {
            if let Some(op) = op {
                core.out.push_back(Output::OpDone { op, result });
            }
        };
        match self.state {
            ClientState::Failed => {
                let err =
                    EngineError::new(EngineErrorKind::NotRegistered, "the client has stopped");
                return done(self, Err(err));
            }
            ClientState::Left => {
                // An app's leave is final even if the page had left for a while.
                if by == LeftBy::App {
                    self.left_by = Some(LeftBy::App);
                }
                return done(self, Ok(()));
            }
            ClientState::Registering | ClientState::Registered => {}
        }
        self.state = ClientState::Left;
        self.left_by = Some(by);
        self.register_when_visible = false;
        self.timers.stop(Timer::Ping);
        self.forget_requests(|k| {
            matches!(
                k,
                ReqKind::Ping { .. } | ReqKind::Pending { .. } | ReqKind::PutTools { .. }
            )
        });
        self.drop_all_calls("client left".to_owned());
        let err = EngineError::new(EngineErrorKind::NotRegistered, "the client left");
        self.finish_tool_ops(u64::MAX, Err(err));
        self.close_stream();
        match self.reg.take() {
            Some(reg) => {
                let url = self.url(&self.cfg.paths.leave, &reg.id, "");
                self.send_new(
                    ReqKind::Leave { op },
                    Method::Delete,
                    url,
                    None,
                    keepalive,
                    now,
                );
            }
            // A register on its way is undone when its answer comes.
            None => done(self, Ok(())),
        }
        self.out.push_back(Output::Status(Status::Left));
    }

    pub(super) fn on_leave_answer(&mut self, op: Option<OpId>, answer: Answer) {
        let result = match answer {
            // 404: already gone (lapsed); the client is not registered either way.
            Answer::Ok(_) | Answer::Refused { status: 404, .. } => Ok(()),
            Answer::Refused {
                status, message, ..
            } => Err(EngineError::new(
                EngineErrorKind::Rejected,
                format!("leave refused ({status}): {message}"),
            )),
        };
        if let Some(op) = op {
            self.out.push_back(Output::OpDone { op, result });
        }
    }
}
