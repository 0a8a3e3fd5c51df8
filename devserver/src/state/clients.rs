//! Registrations: register, ping, leave, replace the tools, and lapse. A name is held only by a
//! live client; a lapsed or departed client is gone (404) and every call it owed fails with
//! `client_gone`.

use super::{Client, Session, SessionState};
use crate::error::HttpError;
use crate::ids::new_id;
use client_tools_core::protocol::limits::CLIENT_NAME_MAX;
use client_tools_core::protocol::validate::{self, ErrorKind, ValidationError};
use client_tools_core::protocol::{ClientInfo, FailReason, Lifetime, RegisterRequest, ToolSpec};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The answer to `GET …/tools`: one entry per tool of every live client, as the model sees it.
#[derive(serde::Serialize)]
pub struct ModelTool {
    /// `client__<client name>__<tool name>`.
    pub name: String,
    pub description: String,
    pub parameters: Value,
    pub client_id: String,
}

impl Session {
    /// Registers a client: checks the request, picks a free name, starts the TTL.
    ///
    /// Fails with 400 naming the field that breaks a rule, or 409 `client_limit_reached`.
    pub fn register(self: &Arc<Self>, req: RegisterRequest) -> Result<ClientInfo, HttpError> {
        validate::client_name(&req.name)?;
        self.check_lifetime(&req.lifetime)?;
        validate::tools(&req.tools)?;
        let now = Instant::now();
        let mut st = self.lock();
        if st.clients.len() >= self.config.max_clients {
            return Err(HttpError::conflict(
                "client_limit_reached",
                format!(
                    "the session already holds {} live clients, its limit",
                    st.clients.len()
                ),
            ));
        }
        let name = free_name(&st, &req.name);
        let id = new_id("cli");
        let expires = ttl(&req.lifetime).map(|d| now + d);
        let seq = st.next_seq();
        let mut client = Client {
            id: id.clone(),
            name,
            lifetime: req.lifetime,
            tools: req.tools,
            expires,
            seq,
            ttl_timer: None,
        };
        if expires.is_some() {
            client.ttl_timer = Some(crate::timers::watch_ttl(self.clone(), id.clone()));
        }
        let info = client.info(&self.clock);
        st.log.emit(
            "client_registered",
            json!({"client_id": id, "name": client.name}),
        );
        st.clients.insert(id, client);
        Ok(info)
    }

    fn check_lifetime(&self, lifetime: &Lifetime) -> Result<(), ValidationError> {
        let (min, max) = (self.config.ttl_min_seconds, self.config.ttl_max_seconds);
        match *lifetime {
            Lifetime::Ttl { seconds } if !(min..=max).contains(&seconds) => {
                Err(ValidationError::new(
                    "lifetime.data.seconds",
                    ErrorKind::OutOfRange,
                    format!("{seconds} seconds, must be {min} to {max}"),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Extends a TTL registration to its lifetime from now; answers the new `expires_at`
    /// (`None` for `never`). Fails with 404 when the client left or lapsed.
    pub fn ping(&self, client_id: &str) -> Result<Option<String>, HttpError> {
        let now = Instant::now();
        let mut st = self.lock();
        let client = live_client(&mut st, client_id)?;
        if let Some(d) = ttl(&client.lifetime) {
            // The TTL timer wakes at the old time, sees the new one, and sleeps again.
            client.expires = Some(now + d);
        }
        Ok(client.expires.map(|at| self.clock.rfc3339(at)))
    }

    /// Removes a client: frees its name, fails the calls it owed with `client_gone`, and
    /// emits `client_left`. Fails with 404 when it is not live.
    pub fn leave(&self, client_id: &str) -> Result<(), HttpError> {
        let mut st = self.lock();
        live_client(&mut st, client_id)?;
        self.remove_client(&mut st, client_id, "client_left");
        Ok(())
    }

    /// Replaces a client's tools and emits `client_tools_replaced`; calls already dispatched
    /// stay answerable. Fails with 400 naming the bad tool, or 404.
    pub fn replace_tools(
        &self,
        client_id: &str,
        tools: Vec<ToolSpec>,
    ) -> Result<ClientInfo, HttpError> {
        validate::tools(&tools)?;
        let mut st = self.lock();
        let client = live_client(&mut st, client_id)?;
        client.tools = tools;
        let info = client.info(&self.clock);
        st.log.emit(
            "client_tools_replaced",
            json!({"client_id": info.id, "name": info.name}),
        );
        Ok(info)
    }

    /// The live clients, in registration order.
    pub fn clients(&self) -> Vec<ClientInfo> {
        let st = self.lock();
        let mut clients: Vec<_> = st.clients.values().collect();
        clients.sort_by_key(|c| c.seq);
        clients.iter().map(|c| c.info(&self.clock)).collect()
    }

    /// What the model sees now: every live client's tools as `client__<name>__<tool>`.
    pub fn model_tools(&self) -> Vec<ModelTool> {
        let st = self.lock();
        let mut clients: Vec<_> = st.clients.values().collect();
        clients.sort_by_key(|c| c.seq);
        clients
            .iter()
            .flat_map(|c| {
                c.tools.iter().map(move |t| ModelTool {
                    name: format!("client__{}__{}", c.name, t.name),
                    description: t.description.clone(),
                    parameters: t
                        .parameters
                        .clone()
                        .unwrap_or_else(|| json!({"type": "object", "properties": {}})),
                    client_id: c.id.clone(),
                })
            })
            .collect()
    }

    /// The TTL timer's step: lapses the client if its time has come (emitting
    /// `client_expired`), else says when to look again. `None`: nothing left to watch.
    pub(crate) fn lapse_if_due(&self, client_id: &str, now: Instant) -> Option<Instant> {
        let mut st = self.lock();
        let expires = st.clients.get(client_id)?.expires?;
        if now < expires {
            return Some(expires);
        }
        self.remove_client(&mut st, client_id, "client_expired");
        None
    }

    fn remove_client(&self, st: &mut SessionState, client_id: &str, event: &'static str) {
        let Some(client) = st.clients.remove(client_id) else {
            return;
        };
        if let Some(timer) = &client.ttl_timer {
            timer.abort();
        }
        let mut owed: Vec<(u64, String)> = st
            .calls
            .values()
            .filter(|c| c.client_id == client_id && c.outcome.is_none())
            .map(|c| (c.seq, c.id.clone()))
            .collect();
        owed.sort();
        for (_, call_id) in owed {
            self.fail(st, &call_id, FailReason::ClientGone);
        }
        st.log
            .emit(event, json!({"client_id": client.id, "name": client.name}));
    }
}

/// The live client with this id, or 404.
pub(crate) fn live_client<'a>(
    st: &'a mut SessionState,
    client_id: &str,
) -> Result<&'a mut Client, HttpError> {
    st.clients.get_mut(client_id).ok_or_else(|| {
        HttpError::not_found(format!(
            "no live client {client_id} in this session (it left, lapsed, or never was): register again"
        ))
    })
}

fn ttl(lifetime: &Lifetime) -> Option<Duration> {
    match lifetime {
        Lifetime::Never => None,
        Lifetime::Ttl { seconds } => Some(Duration::from_secs(u64::from(*seconds))),
    }
}

/// `base` if no live client holds it, else `base-2`, `base-3`, … with the base cut so the
/// whole stays within 32 characters.
fn free_name(st: &SessionState, base: &str) -> String {
    let taken = |n: &str| st.clients.values().any(|c| c.name == n);
    if !taken(base) {
        return base.to_owned();
    }
    (2u32..)
        .map(|k| {
            let suffix = format!("-{k}");
            // Names are ASCII (validated), so a byte cut is a character cut.
            let keep = base.len().min(CLIENT_NAME_MAX - suffix.len());
            format!("{}{suffix}", &base[..keep])
        })
        .find(|n| !taken(n))
        .expect("at most max-clients names are taken, so a free counter exists")
}
