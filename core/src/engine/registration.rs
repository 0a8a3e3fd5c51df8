//! Registration: the client's state (registering, registered, left, failed), the register
//! request and its answer, pings and lapses, and what visibility means under each
//! [`WhenHidden`] policy. It decides; the engine carries out what touches other parts
//! (the stream, the calls, the timers).

use super::backoff::{Backoff, Rng};
use super::config::{Config, ToolDef, WhenHidden};
use super::io::{ClientState, LeftBy, Output, Status};
use super::outbox::{Outbox, Topic};
use super::requests::{Answer, ReqKind, Requests};
use crate::protocol::{register_json, ClientInfo, FromJson, Lifetime, PingAnswer, ToolSpec};
use crate::time::{Duration, Instant};

/// A lapse this soon after the registration it ends is a quick lapse: the next registration
/// waits [`REREGISTER_BACKOFF`], so a server that keeps forgetting the client is not flooded.
pub(crate) const QUICK_LAPSE: Duration = Duration::from_ms(30_000);
/// Registering again after quick lapses: 1 s doubling to 30 s, jittered in its upper half.
pub(crate) const REREGISTER_BACKOFF: Backoff = Backoff {
    base_ms: 1_000,
    cap_ms: 30_000,
};

/// The registration the server gave.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Current {
    id: String,
    name: String,
    expires_at: Option<String>,
    /// When the registration runs out by the local clock (last successful ping's send time
    /// plus the TTL); immune to a skew between the page's and the server's clocks.
    local_expiry: Option<Instant>,
}

/// What a register answer leads to.
pub(super) enum Registered {
    /// The client left while it was on its way: undo it on the server (this client id).
    Undo(String),
    /// Registered: ping at `ping_at` (TTL lifetimes).
    Now { ping_at: Option<Instant> },
}

/// What a ping answer leads to.
pub(super) enum Pinged {
    /// Not the current registration's ping.
    Stale,
    /// Ping next at this time (`None`: no pings).
    Next(Option<Instant>),
    /// 404: the registration lapsed.
    Lapsed,
}

/// What a visibility change asks for.
pub(super) enum Visibility {
    Unchanged,
    /// Hidden with `whenHidden: leave`.
    Leave,
    /// Visible again with `whenHidden: leave`.
    ComeBack,
    /// Visible again: see [`Registration::on_visible`].
    Visible,
}

/// What becoming visible (or resuming) asks for.
pub(super) enum OnVisible {
    Nothing,
    /// It lapsed while hidden and paused: register again.
    Register,
    /// The TTL ran out while paused: the registration lapsed.
    Lapse,
    /// Ping at once.
    Ping,
}

/// What a leave asks for.
pub(super) enum Leaving {
    /// The engine stopped for good.
    Failed,
    /// Left already.
    AlreadyLeft,
    /// Leave now; the client id of the registration to delete on the server, if any.
    Now(Option<String>),
}

/// The client's registration and its policy.
#[derive(Debug)]
pub(super) struct Registration {
    name: String,
    lifetime: Lifetime,
    when_hidden: WhenHidden,
    state: ClientState,
    left_by: Option<LeftBy>,
    current: Option<Current>,
    registered_once: bool,
    hidden: bool,
    /// Lapsed while hidden with `whenHidden: pause`: register again once visible.
    register_when_visible: bool,
    /// When the latest registration was asked for, and how many quick lapses came in a row.
    registered_at: Option<Instant>,
    quick_lapses: u32,
}

impl Registration {
    pub(super) fn new(cfg: &Config) -> Registration {
        Registration {
            name: cfg.name.clone(),
            lifetime: cfg.lifetime.clone(),
            when_hidden: cfg.when_hidden,
            state: ClientState::Registering,
            left_by: None,
            current: None,
            registered_once: false,
            hidden: false,
            register_when_visible: false,
            registered_at: None,
            quick_lapses: 0,
        }
    }

    pub(super) fn state(&self) -> ClientState {
        self.state
    }

    /// Who made the client leave, while it is left.
    pub(super) fn left_by(&self) -> Option<LeftBy> {
        self.left_by
    }

    /// The name the server gave the current registration.
    pub(super) fn name(&self) -> Option<&str> {
        self.current.as_ref().map(|r| r.name.as_str())
    }

    /// The current registration's client id.
    pub(super) fn id(&self) -> Option<&str> {
        self.current.as_ref().map(|r| r.id.as_str())
    }

    /// Whether `client_id` is the current registration.
    pub(super) fn is_current(&self, client_id: &str) -> bool {
        self.id() == Some(client_id)
    }

    /// The client id, when registered (not left, not waiting to register again).
    pub(super) fn registered_id(&self) -> Option<&str> {
        (self.state == ClientState::Registered)
            .then(|| self.id())
            .flatten()
    }

    /// Left for good or stopped: no stream, no registering again.
    pub(super) fn is_out(&self) -> bool {
        matches!(self.state, ClientState::Left | ClientState::Failed)
    }

    fn ttl(&self) -> Option<Duration> {
        match self.lifetime {
            Lifetime::Never => None,
            Lifetime::Ttl { seconds } => Some(Duration::from_secs(u64::from(seconds))),
        }
    }

    /// Whether pings wait: `whenHidden: pause` while hidden.
    pub(super) fn pings_paused(&self) -> bool {
        self.hidden && self.when_hidden == WhenHidden::Pause
    }

    /// The next ping: a third of the TTL after `from`; `None` for a `never` lifetime.
    fn next_ping(&self, from: Instant) -> Option<Instant> {
        self.ttl()
            .map(|ttl| from + Duration::from_ms(ttl.as_ms() / 3))
    }

    /// The engine stopped for good.
    pub(super) fn fail(&mut self) {
        self.state = ClientState::Failed;
    }

    /// Sends the register request declaring `tools` (version `version`), unless one is on its
    /// way.
    pub(super) fn register(
        &mut self,
        tools: &[ToolDef],
        version: u64,
        requests: &mut Requests,
        now: Instant,
        out: &mut Outbox,
    ) {
        self.state = ClientState::Registering;
        if requests.has(&|k| matches!(k, ReqKind::Register { .. })) {
            return;
        }
        let specs: Vec<&ToolSpec> = tools.iter().map(|t| &t.spec).collect();
        let body = register_json(&self.name, &self.lifetime, &specs);
        requests.send(ReqKind::Register { version }, Some(body), false, now, out);
    }

    /// The server registered the client as `info` (the request went out at `sent_at`).
    pub(super) fn on_registered(
        &mut self,
        info: ClientInfo,
        sent_at: Instant,
        out: &mut Outbox,
    ) -> Registered {
        if self.state != ClientState::Registering {
            // Left (or hid) while the register was on its way.
            return Registered::Undo(info.id);
        }
        let reg = Current {
            id: info.id,
            name: info.name,
            expires_at: info.expires_at,
            local_expiry: self.ttl().map(|ttl| sent_at + ttl),
        };
        let (id, name, expires_at) = (reg.id.clone(), reg.name.clone(), reg.expires_at.clone());
        let status = if self.registered_once {
            Status::Reregistered {
                id,
                name,
                expires_at,
            }
        } else {
            Status::Registered {
                id,
                name,
                expires_at,
            }
        };
        self.current = Some(reg);
        self.registered_once = true;
        self.registered_at = Some(sent_at);
        self.state = ClientState::Registered;
        out.push(Output::Status(status));
        Registered::Now {
            ping_at: self.next_ping(sent_at),
        }
    }

    /// Sends a ping (TTL lifetimes, registered, none on its way).
    pub(super) fn ping(&self, requests: &mut Requests, now: Instant, out: &mut Outbox) {
        let Some(client_id) = self.registered_id() else {
            return;
        };
        if self.ttl().is_none() || requests.has(&|k| matches!(k, ReqKind::Ping { .. })) {
            return;
        }
        let kind = ReqKind::Ping {
            client_id: client_id.to_owned(),
        };
        requests.send(kind, None, false, now, out);
    }

    /// The answer to a ping of `client_id` sent at `sent_at`.
    pub(super) fn on_ping_answer(
        &mut self,
        client_id: &str,
        answer: Answer,
        sent_at: Instant,
        now: Instant,
        out: &mut Outbox,
    ) -> Pinged {
        if !self.is_current(client_id) {
            return Pinged::Stale;
        }
        match answer {
            Answer::Ok(body) => {
                let ttl = self.ttl();
                if let Some(reg) = self.current.as_mut() {
                    if let Ok(ping) = PingAnswer::from_json(&body) {
                        reg.expires_at = ping.expires_at;
                    }
                    reg.local_expiry = ttl.map(|ttl| sent_at + ttl);
                }
                Pinged::Next(self.next_ping(sent_at))
            }
            Answer::Refused { status: 404, .. } => Pinged::Lapsed,
            Answer::Refused {
                status, message, ..
            } => {
                out.error(
                    Topic::PingRefused,
                    format!("ping refused ({status}): {message}"),
                );
                Pinged::Next(self.next_ping(now))
            }
        }
    }

    /// The registration ran out: tells the app; returns the old client id (its requests are
    /// void now) and whether to register again at once (not while paused and hidden).
    pub(super) fn lapse(&mut self, out: &mut Outbox) -> Option<(String, bool)> {
        let old = self.current.take()?;
        self.state = ClientState::Registering;
        out.status(Status::Lapsed);
        if self.pings_paused() {
            // `pause` lets a hidden page lapse; it registers again once visible, not before.
            self.state = ClientState::Registering;
            self.register_when_visible = true;
            return Some((old.id, false));
        }
        Some((old.id, true))
    }

    /// When to register again after a lapse at `now`: `None` for at once, or, from the second
    /// lapse in a row that came within [`QUICK_LAPSE`] of its registration, after a backoff
    /// that grows with each.
    pub(super) fn reregister_at(&mut self, now: Instant, rng: &mut Rng) -> Option<Instant> {
        let quick = self
            .registered_at
            .is_some_and(|at| now.since(at) < QUICK_LAPSE);
        if !quick {
            self.quick_lapses = 0;
            return None;
        }
        // The first quick lapse registers again at once; the ones after it back off.
        self.quick_lapses = self.quick_lapses.saturating_add(1);
        let attempt = self.quick_lapses - 1;
        if attempt == 0 {
            return None;
        }
        // Half the ceiling at least: a hard bound on the rate, whatever the draws.
        let half = Duration::from_ms(REREGISTER_BACKOFF.ceiling(attempt) / 2);
        Some(now + REREGISTER_BACKOFF.delay(attempt, half, rng))
    }

    /// `visibilitychange`.
    pub(super) fn on_visibility(&mut self, hidden: bool) -> Visibility {
        if self.hidden == hidden {
            return Visibility::Unchanged;
        }
        self.hidden = hidden;
        match (self.when_hidden, hidden) {
            (WhenHidden::Leave, true) => Visibility::Leave,
            (WhenHidden::Leave, false) => Visibility::ComeBack,
            (_, false) => Visibility::Visible,
            // Keep goes on pinging; pause is `pings_paused` now.
            (_, true) => Visibility::Unchanged,
        }
    }

    /// Visible again (or resumed): ping at once, or register again if the TTL ran out.
    pub(super) fn on_visible(&mut self, now: Instant) -> OnVisible {
        if std::mem::take(&mut self.register_when_visible) && self.state == ClientState::Registering
        {
            return OnVisible::Register;
        }
        if self.state != ClientState::Registered {
            return OnVisible::Nothing;
        }
        let expired = (self.current.as_ref())
            .and_then(|r| r.local_expiry)
            .is_some_and(|e| now >= e);
        if expired && self.when_hidden == WhenHidden::Pause {
            OnVisible::Lapse
        } else {
            OnVisible::Ping
        }
    }

    /// Whether the client left by `by` and may come back now (it then registers again).
    pub(super) fn come_back(&mut self, by: LeftBy) -> bool {
        if self.state != ClientState::Left || self.left_by != Some(by) {
            return false;
        }
        self.left_by = None;
        true
    }

    /// Leaves by `by`, if registered or registering.
    pub(super) fn leave(&mut self, by: LeftBy) -> Leaving {
        match self.state {
            ClientState::Failed => return Leaving::Failed,
            ClientState::Left => {
                // An app's leave is final even if the page had left for a while.
                if by == LeftBy::App {
                    self.left_by = Some(LeftBy::App);
                }
                return Leaving::AlreadyLeft;
            }
            ClientState::Registering | ClientState::Registered => {}
        }
        self.state = ClientState::Left;
        self.left_by = Some(by);
        self.register_when_visible = false;
        Leaving::Now(self.current.take().map(|r| r.id))
    }

    /// When the registration runs out, by the server's word (RFC 3339).
    pub(super) fn expires_at(&self) -> Option<&str> {
        self.current.as_ref().and_then(|r| r.expires_at.as_deref())
    }
}
