//! Registrations: register, ping, leave, replace the tools, and lapse. A name is held only by a
//! live client; a lapsed or departed client is gone (404) and every call it owed fails with
//! `client_gone`.

use crate::{Client, HttpError, SessionCore};
use client_tools_core::protocol::limits::CLIENT_NAME_MAX;
use client_tools_core::protocol::time::format_rfc3339;
use client_tools_core::protocol::validate::{self, ErrorKind, ValidationError};
use client_tools_core::protocol::{ClientInfo, FailReason, Lifetime, RegisterRequest, ToolSpec};
use serde_json::{json, Value};

/// The answer to `GET …/tools`: one entry per tool of every live client, as the model sees it.
#[derive(serde::Serialize)]
pub struct ModelTool {
    /// `client__<client name>__<tool name>`.
    pub name: String,
    /// The tool's description as the client declared it (empty if it gave none).
    pub description: String,
    /// The tool's JSON Schema; `{"type": "object", "properties": {}}` when the client declared
    /// none.
    pub parameters: Value,
    /// The client that offers the tool (`cli_…`).
    pub client_id: String,
}

impl SessionCore {
    /// Registers a client: checks the request, picks a free name, starts the TTL.
    ///
    /// Fails with 400 naming the field that breaks a rule, or 409 `client_limit_reached`.
    pub fn register(&mut self, req: RegisterRequest, now: u64) -> Result<ClientInfo, HttpError> {
        validate::client_name(&req.name)?;
        self.check_lifetime(&req.lifetime)?;
        validate::tools(&req.tools)?;
        let st = self;
        if st.clients.len() >= st.limits.max_clients {
            return Err(HttpError::conflict(
                "client_limit_reached",
                format!(
                    "the session already holds {} live clients, its limit",
                    st.clients.len()
                ),
            ));
        }
        let name = free_name(st, &req.name);
        let id = st.new_id("cli");
        let expires = ttl_ms(&req.lifetime).map(|d| now.saturating_add(d));
        let seq = st.next_seq();
        let client = Client {
            id: id.clone(),
            name,
            lifetime: req.lifetime,
            tools: req.tools,
            expires,
            seq,
        };
        let info = client.info();
        st.log.emit(
            "client_registered",
            json!({"client_id": id, "name": client.name}),
        );
        st.clients.insert(id, client);
        Ok(info)
    }

    fn check_lifetime(&self, lifetime: &Lifetime) -> Result<(), ValidationError> {
        let (min, max) = (self.limits.ttl_min_seconds, self.limits.ttl_max_seconds);
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
    pub fn ping(&mut self, client_id: &str, now: u64) -> Result<Option<String>, HttpError> {
        let client = live_client(self, client_id)?;
        if let Some(d) = ttl_ms(&client.lifetime) {
            // A driver's TTL timer wakes at the old time, sees the new one, and sleeps again.
            client.expires = Some(now.saturating_add(d));
        }
        Ok(client.expires.map(format_rfc3339))
    }

    /// Removes a client: frees its name, fails the calls it owed with `client_gone`, and
    /// emits `client_left`. Fails with 404 when it is not live.
    pub fn leave(&mut self, client_id: &str) -> Result<(), HttpError> {
        live_client(self, client_id)?;
        self.remove_client(client_id, "client_left");
        Ok(())
    }

    /// Lapses a live client now, as if its TTL ran out: emits `client_expired`, frees its
    /// name and fails what it owed with `client_gone`. Fails with 404 when it is not live.
    pub fn lapse(&mut self, client_id: &str) -> Result<(), HttpError> {
        live_client(self, client_id)?;
        self.remove_client(client_id, "client_expired");
        Ok(())
    }

    /// Replaces a client's tools and emits `client_tools_replaced`; calls already dispatched
    /// stay answerable. Fails with 400 naming the bad tool, or 404.
    pub fn replace_tools(
        &mut self,
        client_id: &str,
        tools: Vec<ToolSpec>,
    ) -> Result<ClientInfo, HttpError> {
        validate::tools(&tools)?;
        let client = live_client(self, client_id)?;
        client.tools = tools;
        let info = client.info();
        self.log.emit(
            "client_tools_replaced",
            json!({"client_id": info.id, "name": info.name}),
        );
        Ok(info)
    }

    /// The live client `client_id`, if it is one.
    pub fn client(&self, client_id: &str) -> Option<&Client> {
        self.clients.get(client_id)
    }

    /// The live clients, in registration order.
    pub fn clients(&self) -> Vec<ClientInfo> {
        let mut clients: Vec<_> = self.clients.values().collect();
        clients.sort_by_key(|c| c.seq);
        clients.iter().map(|c| c.info()).collect()
    }

    /// What the model sees now: every live client's tools as `client__<name>__<tool>`.
    pub fn model_tools(&self) -> Vec<ModelTool> {
        let mut clients: Vec<_> = self.clients.values().collect();
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

    /// A TTL registration's deadline step: lapses the client if its time has come (emitting
    /// `client_expired`), else says when to look again. `None`: nothing left to watch.
    pub fn lapse_if_due(&mut self, client_id: &str, now: u64) -> Option<u64> {
        let expires = self.clients.get(client_id)?.expires?;
        if now < expires {
            return Some(expires);
        }
        self.remove_client(client_id, "client_expired");
        None
    }

    fn remove_client(&mut self, client_id: &str, event: &'static str) {
        let st = self;
        let Some(client) = st.clients.remove(client_id) else {
            return;
        };
        let mut owed: Vec<(u64, String)> = st
            .calls
            .values()
            .filter(|c| c.client_id == client_id && c.outcome.is_none())
            .map(|c| (c.seq, c.id.clone()))
            .collect();
        owed.sort();
        for (_, call_id) in owed {
            st.fail(&call_id, FailReason::ClientGone);
        }
        st.log
            .emit(event, json!({"client_id": client.id, "name": client.name}));
    }
}

/// The live client with this id, or 404.
pub(crate) fn live_client<'a>(
    st: &'a mut SessionCore,
    client_id: &str,
) -> Result<&'a mut Client, HttpError> {
    st.clients.get_mut(client_id).ok_or_else(|| {
        HttpError::not_found(format!(
            "no live client {client_id} in this session (it left, lapsed, or never was): register again"
        ))
    })
}

/// A lifetime's TTL in milliseconds; `None` for `never`.
fn ttl_ms(lifetime: &Lifetime) -> Option<u64> {
    match lifetime {
        Lifetime::Never => None,
        Lifetime::Ttl { seconds } => Some(u64::from(*seconds) * 1000),
    }
}

/// `base` if no live client holds it, else `base-2`, `base-3`, … with the base cut so the
/// whole stays within 32 characters.
fn free_name(st: &SessionCore, base: &str) -> String {
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
