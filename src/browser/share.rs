//! One event stream per session per browser profile. The stream (`GET …/stream`) carries the
//! whole session's events, and over HTTP/1.1 each one holds one of the browser's 6
//! connections to the host: eight tabs with eight streams starve their own pings, acks and
//! results. So the tabs of one origin on one session (same base URL, session and token) elect
//! a leader (`leader`: a Web Lock, or heartbeats where there are none); the leader reads the stream and hands every event, whole, to the
//! other tabs over a `BroadcastChannel`. A follower's engine sees the leader's open, the
//! events and the close as if they were its own connection's (each engine ignores calls for
//! other clients, and reads its own pending calls after every (re)connect, so a gap loses
//! nothing). When the leader goes (closed, discarded: the browser frees its lock; frozen: it
//! lets go), the next tab in the lock's queue takes over and reconnects with `Last-Event-ID`.
//!
//! Messages on the channel are arrays `[kind, from, text?]`: `hello` (a follower wants the
//! stream), `open` (the leader's stream is open), `data` (whole events), `closed` (the
//! leader's stream ended). `from` names the sending tab, so a follower notices a new leader.

use super::guards::{now, Listener};
use super::host::Host;
use super::leader::Leadership;
use crate::engine::{Input, StreamId};
use crate::js::JsRefCell;
use client_tools_core::sse::{EventRef, Item, Parser, Sink};
use js_sys::{Array, Function};
use std::rc::{Rc, Weak};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::BroadcastChannel;

/// The engine's current request for a stream.
struct Want {
    stream: StreamId,
    url: String,
    headers: Vec<(&'static str, String)>,
}

enum Role {
    None,
    /// This tab reads `stream` itself; `open` once it answered 200.
    Leading {
        stream: StreamId,
        open: bool,
    },
    /// This tab's engine reads `stream` from the leader named `leader` (`None`: not open yet).
    Following {
        stream: StreamId,
        leader: Option<String>,
    },
}

/// Stream sharing for one client. Exists only in a window with `BroadcastChannel`, and with
/// `shareStream` on.
pub(super) struct Share {
    /// Itself, for the callbacks it hands out (they hold it weakly).
    this: Weak<Share>,
    me: String,
    channel: BroadcastChannel,
    _on_message: Option<Listener>,
    _on_freeze: Option<Listener>,
    lead: Leadership,
    want: JsRefCell<Option<Want>>,
    role: JsRefCell<Role>,
    /// The leader's second parser: it cuts the stream into whole events to forward.
    splitter: JsRefCell<Parser>,
}

/// The name of the lock and the channel: tabs share only with the same server, session and
/// token (a hash of it: lock names are visible to the origin's pages, as the token is).
pub(crate) fn channel_name(base_url: &str, session_id: &str, token: &str) -> String {
    // FNV-1a: a short, stable tag, not a secret.
    let hash = token.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!(
        "client-tools stream {} {session_id} {hash:016x}",
        base_url.trim_end_matches('/')
    )
}

impl Share {
    /// Sharing for `host` under `name`, or `None` where the browser cannot share (a worker,
    /// Node, no `BroadcastChannel`).
    pub(super) fn new<H: Host>(host: &Rc<H>, name: String) -> Option<Rc<Share>> {
        let document = crate::js::page_document()?;
        let channel = BroadcastChannel::new(&name).ok()?;
        let me = format!(
            "{:x}{:x}",
            now().as_ms(),
            (js_sys::Math::random() * 9.0e15) as u64
        );
        Some(Rc::new_cyclic(|this: &Weak<Share>| {
            // Listeners like the page's others: one closure shape for every event the SDK hears.
            let (share, client) = (this.clone(), Rc::downgrade(host));
            let on_message = Listener::new(channel.as_ref(), "message", move |e| {
                if let (Some(share), Some(host)) = (share.upgrade(), client.upgrade()) {
                    share.on_message(&host, &crate::js::get(&e, "data"));
                }
            });
            let (share, client) = (this.clone(), Rc::downgrade(host));
            let on_freeze = Listener::new(document.unchecked_ref(), "freeze", move |_| {
                if let (Some(share), Some(host)) = (share.upgrade(), client.upgrade()) {
                    share.on_freeze(&host);
                }
            });
            Share {
                this: this.clone(),
                me,
                channel,
                _on_message: on_message,
                _on_freeze: on_freeze,
                lead: Leadership::new(name),
                want: JsRefCell::default(),
                role: JsRefCell::new(Role::None),
                splitter: JsRefCell::new(Parser::new()),
            }
        }))
    }

    fn post(&self, kind: &str, text: Option<&str>) {
        let msg = crate::js::array(&[&kind.into(), &self.me.as_str().into()]);
        if let Some(t) = text {
            msg.push(&t.into());
        }
        // Fails only if the channel is closed: the client is going away.
        let _ = crate::js::call_method(&self.channel, "postMessage", &[&msg]);
    }

    /// The engine asks for a stream: read it if this tab leads, else follow the leader and
    /// queue for the lock.
    pub(super) fn open<H: Host>(
        &self,
        host: &Rc<H>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
    ) {
        *self.want.borrow_mut() = Some(Want {
            stream,
            url,
            headers,
        });
        if self.lead.held() {
            return self.lead(host);
        }
        *self.role.borrow_mut() = Role::Following {
            stream,
            leader: None,
        };
        let (share, client) = (self.this.clone(), Rc::downgrade(host));
        let tick = move || {
            if let (Some(share), Some(host)) = (share.upgrade(), client.upgrade()) {
                share.check_leader(&host);
            }
        };
        let (share, client) = (self.this.clone(), Rc::downgrade(host));
        let granted = move |release: Function| match (share.upgrade(), client.upgrade()) {
            (Some(share), Some(host)) => share.granted(&host, Some(release)),
            _ => drop(crate::js::call(&release, &[])),
        };
        self.lead.ask(Box::new(tick), Box::new(granted));
        self.post("hello", None);
    }

    /// Reads the wanted stream itself.
    fn lead<H: Host>(&self, host: &Rc<H>) {
        let Some(want) = self.want.borrow_mut().take() else {
            return;
        };
        let before = std::mem::replace(
            &mut *self.role.borrow_mut(),
            Role::Leading {
                stream: want.stream,
                open: false,
            },
        );
        // A connection of an earlier stream the engine gave up on must not stay open.
        if let Role::Leading { stream, .. } = before {
            host.close_connection(stream);
        }
        // The splitter starts where the engine resumes, so forwarded events carry the same
        // last event ID as the leader's own, even from a server that sends some without `id`.
        let mut splitter = Parser::new();
        if let Some((_, id)) = want.headers.iter().find(|(n, _)| *n == "Last-Event-ID") {
            let _ = splitter.resume_from(id);
        }
        *self.splitter.borrow_mut() = splitter;
        host.open_connection(want.stream, want.url, want.headers);
    }

    /// This tab is to lead (it got the Web Lock, `release` gives it back; or, without Web
    /// Locks, it claimed leadership).
    pub(super) fn granted<H: Host>(&self, host: &Rc<H>, release: Option<Function>) {
        // A client that left or stopped wants no stream again (a live one between two
        // connections does: it keeps the lead and reads at its next connection).
        if !host.live() {
            if let Some(release) = release {
                let _ = crate::js::call(&release, &[]);
            }
            return self.lead.let_go();
        }
        let share = self.this.clone();
        self.lead.take(release, move || {
            if let Some(share) = share.upgrade() {
                share.post("beat", None);
            }
        });
        let role = std::mem::replace(&mut *self.role.borrow_mut(), Role::None);
        match role {
            // The old leader is gone: this engine reconnects (with Last-Event-ID), as leader.
            Role::Following {
                stream,
                leader: Some(_),
            } => self.closed_for_engine(
                host,
                stream,
                Input::StreamClosed {
                    stream,
                    error: Some(
                        "the tab that read the stream went away; this tab takes over".into(),
                    ),
                },
            ),
            role => {
                *self.role.borrow_mut() = role;
                self.lead(host);
            }
        }
    }

    /// The engine closes `stream` (it left, hid, or the stream answered other than 200).
    pub(super) fn close(&self, stream: StreamId) {
        if self
            .want
            .borrow()
            .as_ref()
            .is_some_and(|w| w.stream == stream)
        {
            self.want.borrow_mut().take();
        }
        let role = std::mem::replace(&mut *self.role.borrow_mut(), Role::None);
        match role {
            Role::Leading { stream: s, .. } if s == stream => self.post("closed", None),
            Role::Following { stream: s, .. } if s == stream => {}
            other => return *self.role.borrow_mut() = other,
        }
        self.lead.let_go();
    }

    /// The leader's stream answered.
    pub(super) fn on_opened(&self, stream: StreamId, status: u16) {
        if let Role::Leading { stream: s, open } = &mut *self.role.borrow_mut() {
            if *s == stream && status == 200 {
                *open = true;
            } else {
                return;
            }
        } else {
            return;
        }
        self.post("open", None);
    }

    /// Bytes of the leader's stream: forwarded as whole events.
    pub(super) fn on_bytes(&self, stream: StreamId, bytes: &[u8]) {
        if !matches!(*self.role.borrow(), Role::Leading { stream: s, open: true } if s == stream) {
            return;
        }
        let mut text = String::new();
        // Through `&mut Sink`, as the engine feeds its parser: one copy of the parser.
        let mut out: &mut Sink = &mut |item| write_item(&mut text, item);
        self.splitter.borrow_mut().feed(bytes, &mut out);
        if !text.is_empty() {
            self.post("data", Some(&text));
        }
    }

    /// The leader's stream ended by itself; its engine will reconnect, still leading.
    pub(super) fn on_closed(&self, stream: StreamId) {
        let mut role = self.role.borrow_mut();
        if matches!(*role, Role::Leading { stream: s, .. } if s == stream) {
            *role = Role::None;
            drop(role);
            self.post("closed", None);
        }
    }

    fn on_message<H: Host>(&self, host: &Rc<H>, data: &JsValue) {
        let Some(msg) = data.dyn_ref::<Array>() else {
            return;
        };
        let (Some(kind), Some(from)) = (msg.get(0).as_string(), msg.get(1).as_string()) else {
            return;
        };
        match kind.as_str() {
            "hello" => {
                if self.lead.leads_by_beats() {
                    self.post("beat", None);
                }
                if matches!(*self.role.borrow(), Role::Leading { open: true, .. }) {
                    self.post("open", None);
                }
                return;
            }
            "beat" | "open" | "data" => {
                self.lead.heard();
                // Two leaders by heartbeats: the one with the greater id steps down.
                if self.lead.leads_by_beats() && from < self.me {
                    return self.step_down(host);
                }
                if kind == "beat" {
                    return;
                }
            }
            _ => {}
        }
        let (stream, leader) = match &*self.role.borrow() {
            Role::Following { stream, leader } => (*stream, leader.clone()),
            _ => return,
        };
        let input = match (kind.as_str(), leader) {
            ("open", None) => {
                *self.role.borrow_mut() = Role::Following {
                    stream,
                    leader: Some(from),
                };
                Input::StreamOpened {
                    stream,
                    status: 200,
                }
            }
            ("data", Some(l)) if l == from => {
                let text = msg.get(2).as_string().unwrap_or_default();
                return host.feed_stream(stream, text.as_bytes());
            }
            ("closed", Some(l)) if l == from => {
                *self.role.borrow_mut() = Role::None;
                Input::StreamClosed {
                    stream,
                    error: Some("the tab that reads the stream lost it".into()),
                }
            }
            // Another tab leads now: this one missed what came between, so it reconnects
            // (and reads its pending calls).
            ("open" | "data", Some(l)) if l != from => {
                *self.role.borrow_mut() = Role::None;
                Input::StreamClosed {
                    stream,
                    error: Some("another tab took over the stream".into()),
                }
            }
            _ => return,
        };
        match input {
            Input::StreamClosed { .. } => self.closed_for_engine(host, stream, input),
            input => host.feed(input),
        }
    }

    /// Without Web Locks, a waiting tab's tick: probe for a leader, or claim the lead.
    fn check_leader<H: Host>(&self, host: &Rc<H>) {
        if self.lead.should_claim(|| self.post("hello", None)) {
            self.granted(host, None);
        }
    }

    /// Another tab leads too (heartbeats only): this one stops reading and follows it.
    fn step_down<H: Host>(&self, host: &Rc<H>) {
        self.lead.let_go();
        let role = std::mem::replace(&mut *self.role.borrow_mut(), Role::None);
        let Role::Leading { stream, .. } = role else {
            return *self.role.borrow_mut() = role;
        };
        host.close_connection(stream);
        self.post("closed", None);
        let error = Some("another tab leads the stream".into());
        self.closed_for_engine(host, stream, Input::StreamClosed { stream, error });
    }

    /// Tells the engine its (followed) `stream` closed; it will ask for a new one, so the
    /// old request is void.
    fn closed_for_engine<H: Host>(&self, host: &Rc<H>, stream: StreamId, input: Input) {
        if self
            .want
            .borrow()
            .as_ref()
            .is_some_and(|w| w.stream == stream)
        {
            self.want.borrow_mut().take();
        }
        host.feed(input);
    }

    /// A frozen page runs nothing: it must not hold (or be granted) the lock, and what it
    /// follows goes on without it. On resume the engine reconnects.
    fn on_freeze<H: Host>(&self, host: &Rc<H>) {
        self.want.borrow_mut().take();
        let role = std::mem::replace(&mut *self.role.borrow_mut(), Role::None);
        self.lead.let_go();
        let stream = match role {
            Role::Leading { stream, .. } => {
                host.close_connection(stream);
                self.post("closed", None);
                stream
            }
            Role::Following { stream, .. } => stream,
            Role::None => return,
        };
        host.feed(Input::StreamClosed {
            stream,
            error: Some("the page was frozen".into()),
        });
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        if matches!(*self.role.borrow(), Role::Leading { .. }) {
            self.post("closed", None);
        }
        self.lead.let_go();
        let _ = crate::js::call_method(&self.channel, "close", &[]);
    }
}

/// Writes one parsed item back as event-stream text for a follower's parser: the same
/// event, type, data and last event ID; an event too big to read becomes a `stream_reset`,
/// so the follower reads its pending calls as the leader does.
fn write_item(out: &mut String, item: Item<EventRef<'_>>) {
    // Plain pushes, not `writeln!`: no formatting machinery for what is copied as it is.
    let mut field = |name: &str, value: &str| {
        out.push_str(name);
        out.push_str(": ");
        out.push_str(value);
        out.push('\n');
    };
    match item {
        Item::Event(e) => {
            field("id", e.id);
            if e.event_type != "message" {
                field("event", e.event_type);
            }
            for line in e.data.split('\n') {
                field("data", line);
            }
            out.push('\n');
        }
        Item::Retry(ms) => {
            field("retry", &ms.to_string());
            out.push('\n');
        }
        Item::Oversized { .. } => {
            out.push_str("event: stream_reset\ndata: {\"type\":\"stream_reset\"}\n\n")
        }
        // A keep-alive reaches the other tabs too: their engines' stream idle deadline counts
        // every byte, and a quiet session sends nothing else.
        Item::Comment => out.push_str(":\n\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::write_item;
    use client_tools_core::sse::{Item, Parser};

    fn items(bytes: &[u8]) -> Vec<Item> {
        let mut out = Vec::new();
        Parser::with_max_event_bytes(64).feed(bytes, &mut |i| out.push(i.to_owned()));
        out
    }

    /// What the leader forwards of `bytes`: each item it parses, written back.
    fn forwarded(bytes: &[u8]) -> String {
        let mut text = String::new();
        Parser::with_max_event_bytes(64).feed(bytes, &mut |i| write_item(&mut text, i));
        text
    }

    /// What the leader forwards reads, in a follower's parser, as the events (and the
    /// keep-alives, which keep its stream deadline) it read itself.
    #[test]
    fn forwarded_events_read_the_same() {
        let stream = b"id: 7\nevent: client_tool_dispatched\ndata: {\"a\":1}\n\n: keep-alive\n\
            data: one\r\ndata: two\r\n\r\nretry: 1500\n\nid:\ndata: x\n\n";
        let text = forwarded(stream);
        let want = items(stream);
        assert!(want.contains(&Item::Comment));
        assert_eq!(items(text.as_bytes()), want);
    }

    /// An event too big for the leader's parser reaches the followers as a `stream_reset`, so
    /// they read their pending calls as the leader does.
    #[test]
    fn an_oversized_event_becomes_a_stream_reset() {
        let big = format!("id: 3\ndata: {}\n\n", "x".repeat(100));
        let text = forwarded(big.as_bytes());
        match items(text.as_bytes()).as_slice() {
            [Item::Event(e)] => assert_eq!(e.event_type, "stream_reset"),
            other => panic!("expected one stream_reset, got {other:?}"),
        }
    }
}
