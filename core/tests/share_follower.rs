//! The follower's miss of the tabs before the sharing machine, fixed: a `client_tool_failed`
//! that the new leader forwards during a leader change, while the follower's engine is between
//! two connections, reaches that engine (its `onCall` gets the server's reason), and it is not
//! left to learn of the failure as `call_settled` when its late result is refused.
//!
//! Three tabs with Web Locks: A leads, B waits for the lock, C follows and is a real engine
//! (the harness's), with a call running. A closes; B takes the lock and reads from A's last
//! event on; the server fails C's call meanwhile. Before the machine, C dropped what B
//! forwarded before C's reconnect was open, and followed B from B's position.

mod engine_support;

use client_tools_core::engine::{CallEvent, Method, Output as EngineOutput};
use client_tools_core::share::{Config, Input, Message, Output, Share};
use client_tools_core::time::Instant;
use engine_support::{config, dispatched_sse, sse, Harness, CLIENT};
use serde_json::json;

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;

struct Tabs {
    share: Vec<Share>,
    /// C's engine.
    c: Harness,
    /// Messages on the channel: (to, message).
    channel: Vec<(usize, Message)>,
    /// Connections asked for: (tab, Last-Event-ID, Authorization).
    opened: Vec<(usize, Option<String>, String)>,
    /// Who holds the lock, and the queue.
    holder: Option<usize>,
    queue: Vec<usize>,
    /// The streams C's engine asked for, handed to its machine.
    c_opens: Vec<client_tools_core::engine::StreamId>,
}

impl Tabs {
    fn now(&self) -> Instant {
        Instant::from_ms(self.c.now)
    }

    fn input(&mut self, tab: usize, input: Input<'_>) {
        let now = self.now();
        self.share[tab].handle(input, now);
        self.carry(tab);
    }

    fn carry(&mut self, tab: usize) {
        while let Some(out) = self.share[tab].poll_output() {
            match out {
                Output::Post(msg) => {
                    for to in [A, B, C] {
                        if to != tab {
                            self.channel.push((to, msg.clone()));
                        }
                    }
                }
                Output::OpenConnection { headers, .. } => {
                    let header = |name: &str| {
                        headers
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|(_, v)| v.clone())
                    };
                    let auth = header("Authorization").unwrap_or_default();
                    self.opened.push((tab, header("Last-Event-ID"), auth));
                }
                Output::CloseConnection { .. } => {}
                Output::Engine(input) if tab == C => {
                    self.c.input(input);
                    self.engine_outputs();
                }
                Output::EngineBytes { stream, text } if tab == C => {
                    self.c.bytes(stream, &text);
                    self.engine_outputs();
                }
                Output::Engine(_) | Output::EngineBytes { .. } => {}
                Output::RequestLock => {
                    if self.holder.is_none() {
                        self.holder = Some(tab);
                        self.input(tab, Input::LockGranted);
                    } else {
                        self.queue.push(tab);
                    }
                }
                Output::WithdrawLock => self.queue.retain(|&t| t != tab),
                Output::ReleaseLock => {
                    self.holder = None;
                    if !self.queue.is_empty() {
                        let next = self.queue.remove(0);
                        self.holder = Some(next);
                        self.input(next, Input::LockGranted);
                    }
                }
            }
        }
    }

    /// C's engine's stream requests go to its share machine.
    fn engine_outputs(&mut self) {
        let outs: Vec<EngineOutput> = self.c.out.clone();
        for out in outs {
            match out {
                EngineOutput::OpenStream {
                    stream,
                    url,
                    headers,
                } if !self.handled_open(stream) => {
                    self.c_opens.push(stream);
                    self.input(
                        C,
                        Input::Open {
                            stream,
                            url,
                            headers,
                        },
                    );
                }
                _ => {}
            }
        }
    }

    fn handled_open(&self, stream: client_tools_core::engine::StreamId) -> bool {
        self.c_opens.contains(&stream)
    }

    /// Delivers every message on the channel, in order, until none is left.
    fn deliver(&mut self) {
        while !self.channel.is_empty() {
            let (to, msg) = self.channel.remove(0);
            self.input(to, Input::Message(msg));
        }
    }
}

#[test]
fn a_failure_in_a_leader_change_reaches_the_follower_with_its_reason() {
    let tab = |me: &str| {
        Share::new(
            Config {
                me: me.into(),
                locks: true,
            },
            Instant::from_ms(0),
        )
    };
    let mut t = Tabs {
        share: vec![tab("a"), tab("b"), tab("c")],
        c: Harness::new(config()),
        channel: Vec::new(),
        opened: Vec::new(),
        holder: None,
        queue: Vec::new(),
        c_opens: Vec::new(),
    };
    let url = "https://api.test/v1/sessions/ses_1/stream".to_string();
    let open = |stream: u64| Input::Open {
        stream: client_tools_core::engine::StreamId(stream),
        url: url.clone(),
        headers: vec![("Authorization", "Bearer tok".into())],
    };
    // A leads and reads; B waits for the lock.
    t.input(A, open(1));
    t.input(
        A,
        Input::ConnOpened {
            stream: client_tools_core::engine::StreamId(1),
            status: 200,
        },
    );
    t.input(B, open(1));
    // C registers; its engine asks for the stream: it follows A.
    let reg = t.c.take_send(Method::Post, "/clients");
    t.c.answer(
        &reg,
        201,
        &engine_support::client_json(CLIENT, "web", Some(t.c.now + 60_000)),
    );
    t.engine_outputs();
    t.deliver();
    assert!(t.share[C].following(), "C follows A");
    let pending = t.c.take_send(Method::Get, "/calls");
    t.c.answer(&pending, 200, r#"{"calls": []}"#);

    // A reads a call for C's client; C's handler runs.
    let a_stream = client_tools_core::engine::StreamId(1);
    let dispatched = dispatched_sse(1, CLIENT, "run_1", "call_1", "noop", json!({}));
    t.input(
        A,
        Input::ConnBytes {
            stream: a_stream,
            bytes: dispatched.as_bytes(),
        },
    );
    t.deliver();
    t.c.ack_ok("call_1");
    assert_eq!(t.c.handlers_run().len(), 1, "C runs the call");

    // A closes: B gets the lock and reads from event 1 on; the server fails C's call, and B
    // forwards that before C's engine has reconnected.
    t.input(A, Input::Close { stream: a_stream });
    t.deliver();
    // B's engine was told its stream closed, and asks again, from the event it read.
    t.input(
        B,
        Input::Open {
            stream: client_tools_core::engine::StreamId(2),
            url: url.clone(),
            // Its own token (tabs with a token source each refresh their own).
            headers: vec![
                ("Authorization", "Bearer tok-b".into()),
                ("Last-Event-ID", "1".into()),
            ],
        },
    );
    let b_open = t.opened.iter().rev().find(|(tab, _, _)| *tab == B).cloned();
    assert_eq!(
        b_open,
        Some((B, Some("1".into()), "Bearer tok-b".into())),
        "B resumes after event 1, with its own token"
    );
    t.input(
        B,
        Input::ConnOpened {
            stream: client_tools_core::engine::StreamId(2),
            status: 200,
        },
    );
    let failed = json!({"type": "client_tool_failed", "client_id": CLIENT, "call_id": "call_1",
        "reason": "result_timeout"});
    let failed = sse(2, "client_tool_failed", &failed);
    t.input(
        B,
        Input::ConnBytes {
            stream: client_tools_core::engine::StreamId(2),
            bytes: failed.as_bytes(),
        },
    );
    t.deliver();
    assert!(
        t.c.call_events()
            .iter()
            .all(|e| !matches!(e, CallEvent::Failed { .. })),
        "C's engine is between connections: it has not heard yet"
    );
    // C's engine reconnects after its backoff; its hello says where it is; B sends the rest.
    t.c.fire_next();
    t.engine_outputs();
    t.deliver();
    let failures: Vec<_> =
        t.c.call_events()
            .into_iter()
            .filter_map(|e| match e {
                CallEvent::Failed {
                    call_id, reason, ..
                } => Some((call_id.clone(), reason.clone())),
                _ => None,
            })
            .collect();
    assert_eq!(
        failures,
        vec![("call_1".to_string(), "result_timeout".to_string())],
        "C's onCall hears the server's reason"
    );
    assert!(
        t.c.aborts().iter().any(|(id, _)| *id == "call_1"),
        "C's handler is aborted"
    );
}
