//! Tab sharing: one event stream per session for all the tabs of a browser profile, as a
//! sans-I/O state machine like the [`engine`].
//!
//! The stream (`GET …/stream`) carries the whole session's events, and over HTTP/1.1 each one
//! holds one of the browser's 6 connections to the host: eight tabs with eight streams starve
//! their own pings, acks and results. So the tabs of one origin on one session elect a
//! **leader**, which reads the stream and hands every event, whole, to the others over a
//! channel (a `BroadcastChannel`). Each tab's engine sees the stream as its own connection: a
//! follower's engine is told the stream opened when it caught up with the leader, then gets the
//! leader's events; it ignores calls for other clients, as it does on its own connection.
//!
//! # Who leads
//!
//! With Web Locks, the holder of the session's lock ([`Output::RequestLock`]): the browser
//! frees it when a tab closes or is discarded, and a frozen tab lets go. Without (not a secure
//! context), by heartbeats: a waiting tab that heard no leader for [`SILENT_MS`] probes with a
//! `hello` and claims if [`PROBE_MS`] pass unanswered; of two leaders, the lower in rank steps
//! down. A leader takes a **term** one above the highest it heard; rank is the higher term, then
//! the smaller tab id. A leader beats every [`BEAT_MS`] in both modes, so a follower notices a
//! leader gone silent (its lock can be held by a tab that no longer answers: frozen without a
//! `freeze`) and asks again.
//!
//! # Nothing lost in a hand-over
//!
//! The leader numbers what it forwards (`seq`), and every tab keeps the latest of what it
//! read or was sent (`ring`, at most [`ring::RING_EVENTS`] events and [`ring::RING_BYTES`]),
//! so a tab that takes over can serve what came before it led. A follower knows where it is
//! (the last event ID its engine read): its `hello` says so, and the leader answers it alone
//! with the events after that point (an addressed `open`). A follower that sees a gap in the
//! numbers (a message lost, or a beat ahead of what it got) drops what it got and asks again,
//! every [`HELLO_RETRY_MS`] until answered. When its leader goes (`closed`, or another tab
//! leads), a follower's engine is told its stream closed and reconnects, as on a connection of
//! its own; its next `hello` carries its last event ID, so what the new leader forwarded
//! meanwhile is sent to it (the miss of the tabs before this machine: a `client_tool_failed`
//! in a leader change). A tab that takes the lead reconnects with its engine's
//! `Last-Event-ID`, so the server resends what came meanwhile. When the leader no longer holds
//! the point a follower asks from, the follower reads the gap itself: its own connection, from
//! its last event ID, until it reaches where the leader was ([`CATCH_UP_MS`] at most, tried
//! again when refused); given up, its engine reads its pending calls (a `stream_reset`), so a
//! call is never lost, only the news of a call that failed.
//!
//! # Run loop
//!
//! ```text
//! let mut share = Share::new(Config { me, locks }, now());
//! loop {
//!     while let Some(out) = share.poll_output() {
//!         match out {
//!             Output::Post(msg)                     => channel.postMessage(msg),
//!             Output::OpenConnection { stream, .. } => fetch(..),  // Input::ConnOpened / ConnBytes / ConnClosed
//!             Output::CloseConnection { stream }    => abort(stream),
//!             Output::Engine(input)                 => engine.handle(input, now()),
//!             Output::EngineBytes { stream, text }  => engine.handle_stream_bytes(stream, text, now()),
//!             Output::RequestLock                   => navigator.locks.request(..), // Input::LockGranted
//!             Output::WithdrawLock                  => abort the request,
//!             Output::ReleaseLock                   => resolve the held lock's promise,
//!         }
//!     }
//!     match wait(share.poll_timeout()) {
//!         Timeout          => share.handle_timeout(now()),
//!         Happened(input)  => share.handle(input, now()),  // the engine's OpenStream / CloseStream,
//!                                                        // a message, the lock, a freeze
//!     }
//! }
//! ```
//!
//! The bytes of this tab's own connection go to its engine directly (the shell feeds them
//! there, then hands them to [`Input::ConnBytes`] to forward); whether the engine is told the
//! stream opened or closed is this machine's to say ([`Output::Engine`]). A leave (a page
//! hide, a hidden page's leave, the app's) and a fatal error reach it as [`Input::Stop`]; a
//! resume as the engine's next [`Input::Open`].

pub mod ring;
pub mod wire;

use crate::engine::{self, StreamId};
use crate::sse::{EventRef, Item, Parser, Sink};
use crate::time::Instant;
use ring::Ring;
use std::collections::VecDeque;
pub use wire::{Kind, Message};

/// A waiting tab that heard no leader this long probes for one; a follower that heard
/// nothing from its leader this long looks for another.
pub const SILENT_MS: u64 = 2_000;
/// An unanswered probe this old makes a waiting tab (without Web Locks) the leader.
pub const PROBE_MS: u64 = 500;
/// How often a leader says it is there.
pub const BEAT_MS: u64 = 1_000;
/// How often a follower that has not caught up asks again.
pub const HELLO_RETRY_MS: u64 = 1_000;
/// The machine's clock tick while it shares: its timers fire on ticks.
pub const TICK_MS: u64 = PROBE_MS;

/// A `stream_reset` event, for a follower whose missed events are no longer held.
const STREAM_RESET: &str = "event: stream_reset\ndata: {\"type\":\"stream_reset\"}\n\n";

/// How one tab shares.
#[derive(Clone, Debug)]
pub struct Config {
    /// This tab's id: unique among the tabs (the shell draws it), compared for rank.
    pub me: String,
    /// Whether the browser has Web Locks (else leadership goes by heartbeats).
    pub locks: bool,
}

/// What happened, for the machine.
#[derive(Debug)]
pub enum Input<'a> {
    /// The engine asks for its stream ([`engine::Output::OpenStream`]).
    Open {
        /// The engine's name for the stream.
        stream: StreamId,
        /// The stream's full URL, as the engine gave it.
        url: String,
        /// The engine's headers for it (`Authorization`, `Accept`, `Last-Event-ID`).
        headers: Vec<(&'static str, String)>,
    },
    /// The engine closes its stream ([`engine::Output::CloseStream`]).
    Close {
        /// The engine's name for the stream.
        stream: StreamId,
    },
    /// This tab's own connection for `stream` answered.
    ConnOpened {
        /// The engine's stream the connection was opened for.
        stream: StreamId,
        /// The HTTP status code of the answer.
        status: u16,
    },
    /// Bytes of this tab's own connection (already fed to the engine).
    ConnBytes {
        /// The engine's stream the connection was opened for.
        stream: StreamId,
        /// The bytes as they arrived, maybe cutting an event or a character in two.
        bytes: &'a [u8],
    },
    /// This tab's own connection ended (`error`: why, unless it was a clean end).
    ConnClosed {
        /// The engine's stream the connection was opened for.
        stream: StreamId,
        /// Why it ended; `None` when the server ended it cleanly.
        error: Option<String>,
    },
    /// A message from another tab.
    Message(Message),
    /// The Web Lock asked for is this tab's.
    LockGranted,
    /// The page is frozen: it runs nothing until it resumes.
    Freeze,
    /// The client left or stopped: it wants no stream until its engine's next [`Input::Open`].
    Stop,
}

/// What the machine asks the shell to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Post this message to the other tabs.
    Post(Message),
    /// Open this tab's own connection for the engine's `stream`.
    OpenConnection {
        /// The engine's stream; hand it back with the connection's answer, bytes and end.
        stream: StreamId,
        /// The stream's full URL, as the engine gave it.
        url: String,
        /// The headers to send, as the engine gave them.
        headers: Vec<(&'static str, String)>,
    },
    /// Abort this tab's own connection for `stream`.
    CloseConnection {
        /// The engine's stream the connection was opened for.
        stream: StreamId,
    },
    /// Feed this to the engine (a `StreamOpened` or `StreamClosed` of its stream).
    Engine(engine::Input),
    /// Feed these bytes of `stream` to the engine (events the leader read).
    EngineBytes {
        /// The engine's stream, as it named it.
        stream: StreamId,
        /// Whole events, as the leader read them from the server.
        text: String,
    },
    /// Join the queue for the session's Web Lock.
    RequestLock,
    /// Leave that queue.
    WithdrawLock,
    /// Give the held lock back.
    ReleaseLock,
}

/// The engine's request for a stream.
#[derive(Debug)]
struct Want {
    stream: StreamId,
    url: String,
    headers: Vec<(&'static str, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lock {
    /// Not asked for: no stream is wanted.
    Idle,
    /// In the Web Lock's queue, or (without Web Locks) waiting to claim.
    Asked,
    Held,
}

/// The leader a follower follows.
#[derive(Debug)]
struct Leader {
    id: String,
    term: u64,
    /// The number of its next message this tab can take (0: not caught up with it yet).
    expect: u64,
    /// When it was last heard.
    heard: u64,
}

#[derive(Debug)]
enum Role {
    Idle,
    /// This tab reads `stream` itself (`conn_open`: its connection answered 200).
    Leading {
        stream: StreamId,
        conn_open: bool,
    },
    /// This tab's engine reads `stream` from a leader (`engine_open`: it was told it opened).
    Following {
        stream: StreamId,
        engine_open: bool,
        leader: Option<Leader>,
        /// Reading what the leader no longer holds on its own connection, up to this position.
        catching: Option<CatchUp>,
    },
}

/// A follower's own connection that reads what it missed, until it is where the leader was.
#[derive(Debug)]
struct CatchUp {
    until: String,
    since: u64,
}

/// Catch-up connections for one gap that have not reached its point by then are given up
/// (one that fails sooner is tried again).
pub const CATCH_UP_MS: u64 = 5_000;

/// Whether `(term, id)` ranks above `(other_term, other_id)`.
fn ranks_above(term: u64, id: &str, other_term: u64, other_id: &str) -> bool {
    term > other_term || (term == other_term && id < other_id)
}

/// One tab's part in sharing one session's stream.
pub struct Share {
    me: String,
    locks: bool,
    /// The highest term this tab knows (its own, while it leads).
    term: u64,
    want: Option<Want>,
    role: Role,
    lock: Lock,
    /// Where this tab's engine is in the stream: the last event ID it read (empty: none yet).
    position: String,
    /// The leader's count of the chunks it forwarded.
    seq: u64,
    ring: Ring,
    /// The leader's second parser: it cuts the stream into whole events to forward.
    splitter: Parser,
    /// When a follower last asked (`hello`) and has not been answered.
    asked: Option<u64>,
    /// When the first of this follower's catch-up connections for one gap started.
    catch_started: Option<u64>,
    /// Without Web Locks: when a leader was last heard, and when this tab probed since.
    heard: u64,
    probed: Option<u64>,
    last_beat: u64,
    next_tick: Option<u64>,
    out: VecDeque<Output>,
}

impl Share {
    /// A tab that shares nothing yet: it starts at the engine's first [`Input::Open`].
    pub fn new(config: Config, _now: Instant) -> Share {
        Share {
            me: config.me,
            locks: config.locks,
            term: 0,
            want: None,
            role: Role::Idle,
            lock: Lock::Idle,
            position: String::new(),
            seq: 0,
            ring: Ring::default(),
            splitter: Parser::new(),
            asked: None,
            catch_started: None,
            heard: 0,
            probed: None,
            last_beat: 0,
            next_tick: None,
            out: VecDeque::new(),
        }
    }

    /// The next thing for the shell to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// When [`Share::handle_timeout`] is next due, if anything waits on a timer.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.next_tick.map(Instant::from_ms)
    }

    /// Whether this tab leads and its connection is open.
    pub fn reading(&self) -> bool {
        matches!(
            self.role,
            Role::Leading {
                conn_open: true,
                ..
            }
        )
    }

    /// Whether this tab's engine reads the stream through a leader it has caught up with.
    pub fn following(&self) -> bool {
        matches!(&self.role, Role::Following { leader: Some(l), .. } if l.expect != 0)
    }

    /// This tab's id.
    pub fn me(&self) -> &str {
        &self.me
    }

    /// The engine's stream this tab reads or follows, if any.
    pub fn stream(&self) -> Option<StreamId> {
        match self.role {
            Role::Leading { stream, .. } | Role::Following { stream, .. } => Some(stream),
            Role::Idle => None,
        }
    }

    /// Takes in what happened at `now`; what to do next comes out of [`Share::poll_output`].
    pub fn handle(&mut self, input: Input<'_>, now: Instant) {
        let now = now.as_ms();
        match input {
            Input::Open {
                stream,
                url,
                headers,
            } => self.open(stream, url, headers, now),
            Input::Close { stream } => self.close(stream),
            Input::ConnOpened { stream, status } => self.conn_opened(stream, status, now),
            Input::ConnBytes { stream, bytes } => self.conn_bytes(stream, bytes, now),
            Input::ConnClosed { stream, error } => self.conn_closed(stream, error, now),
            Input::Message(msg) => self.message(msg, now),
            Input::LockGranted => self.granted(now),
            Input::Freeze => self.freeze(),
            Input::Stop => self.stop(),
        }
        self.schedule(now);
    }

    /// Does what fell due: beats, asking again, probing and claiming.
    pub fn handle_timeout(&mut self, now: Instant) {
        let now = now.as_ms();
        if self.next_tick.is_some_and(|t| t <= now) {
            self.next_tick = None;
            self.tick(now);
        }
        self.schedule(now);
    }

    fn schedule(&mut self, now: u64) {
        let active = !matches!(self.role, Role::Idle) || self.lock != Lock::Idle;
        if !active {
            self.next_tick = None;
        } else if self.next_tick.is_none() {
            self.next_tick = Some(now + TICK_MS);
        }
    }

    fn post(&mut self, msg: Message) {
        self.out.push_back(Output::Post(msg));
    }

    /// A message of this tab's own kind and term.
    fn message_of(&self, kind: Kind) -> Message {
        Message::new(kind, &self.me, self.term)
    }

    /// A beat carries the number of the last chunk sent, so a follower that lost the
    /// last ones notices even when nothing follows them.
    fn beat(&mut self, now: u64) {
        self.last_beat = now;
        let mut beat = self.message_of(Kind::Beat);
        beat.seq = self.seq;
        self.post(beat);
    }

    /// Asks the leader for the stream from this tab's position, at most once a
    /// [`HELLO_RETRY_MS`] until answered.
    fn ask(&mut self, now: u64) {
        if self
            .asked
            .is_some_and(|t| now.saturating_sub(t) < HELLO_RETRY_MS)
        {
            return;
        }
        self.asked = Some(now);
        self.hello();
    }

    fn hello(&mut self) {
        let mut hello = self.message_of(Kind::Hello);
        hello.at = self.position.clone();
        let reading = matches!(
            self.role,
            Role::Following {
                engine_open: true,
                ..
            }
        );
        hello.seq = u64::from(reading);
        self.post(hello);
    }

    fn open(
        &mut self,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
        now: u64,
    ) {
        self.position = headers
            .iter()
            .find(|(n, _)| *n == "Last-Event-ID")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        self.want = Some(Want {
            stream,
            url,
            headers,
        });
        if self.lock == Lock::Held {
            return self.lead();
        }
        if let Role::Leading { stream: old, .. } = self.role {
            self.out.push_back(Output::CloseConnection { stream: old });
        }
        self.role = Role::Following {
            stream,
            engine_open: false,
            leader: None,
            catching: None,
        };
        if self.lock == Lock::Idle {
            self.lock = Lock::Asked;
            self.probed = None;
            if self.locks {
                self.out.push_back(Output::RequestLock);
            }
        }
        self.asked = None;
        self.ask(now);
    }

    /// Reads the wanted stream itself, from this tab's position.
    fn lead(&mut self) {
        let Some(want) = &self.want else {
            self.role = Role::Idle;
            return;
        };
        let stream = want.stream;
        let headers = reading_on(&want.headers, &self.position, &mut self.splitter);
        let url = want.url.clone();
        match self.role {
            // A connection of an earlier stream the engine gave up on must not stay open, nor
            // a catch-up connection.
            Role::Leading { stream: old, .. }
            | Role::Following {
                stream: old,
                catching: Some(_),
                ..
            } => self.out.push_back(Output::CloseConnection { stream: old }),
            _ => {}
        }
        self.role = Role::Leading {
            stream,
            conn_open: false,
        };
        self.asked = None;
        self.out.push_back(Output::OpenConnection {
            stream,
            url,
            headers,
        });
    }

    fn close(&mut self, stream: StreamId) {
        if self.want.as_ref().is_some_and(|w| w.stream == stream) {
            self.want = None;
        }
        match self.role {
            Role::Leading { stream: s, .. } | Role::Following { stream: s, .. } if s != stream => {
                return
            }
            Role::Leading { stream: s, .. } => {
                self.out.push_back(Output::CloseConnection { stream: s });
                let closed = self.message_of(Kind::Closed);
                self.post(closed);
            }
            Role::Following {
                stream: s,
                catching: Some(_),
                ..
            } => self.out.push_back(Output::CloseConnection { stream: s }),
            Role::Following { .. } | Role::Idle => {}
        }
        self.role = Role::Idle;
        self.let_go();
    }

    /// Gives the lead back, or leaves the election.
    fn let_go(&mut self) {
        match self.lock {
            Lock::Held if self.locks => self.out.push_back(Output::ReleaseLock),
            Lock::Asked if self.locks => self.out.push_back(Output::WithdrawLock),
            _ => {}
        }
        self.lock = Lock::Idle;
        self.probed = None;
        self.asked = None;
    }

    /// This tab is to lead: it got the Web Lock, or (without) it claimed.
    fn granted(&mut self, now: u64) {
        if self.lock != Lock::Asked {
            // A grant for a request withdrawn meanwhile: give it back.
            if self.locks && self.lock != Lock::Held {
                self.out.push_back(Output::ReleaseLock);
            }
            if self.lock != Lock::Held {
                self.lock = Lock::Idle;
            }
            return;
        }
        self.lock = Lock::Held;
        self.term += 1;
        self.probed = None;
        self.beat(now);
        match self.role {
            // The old leader is gone: this engine reconnects (with Last-Event-ID), as leader.
            Role::Following {
                engine_open: true, ..
            } => self.lose_stream("the tab that read the stream went away; this tab takes over"),
            // Nothing read through a leader yet: this tab reads now.
            Role::Following { .. } => self.lead(),
            // Between two connections: it leads at the engine's next `Open`.
            Role::Idle | Role::Leading { .. } => {}
        }
    }

    /// Tells the engine its stream closed (`why`), which it then asks for again; what this
    /// tab holds of the lock stays (its place in the queue, or the lead).
    fn lose_stream(&mut self, why: &str) {
        let stream = match &self.role {
            Role::Leading { stream, .. } => {
                self.out
                    .push_back(Output::CloseConnection { stream: *stream });
                *stream
            }
            Role::Following {
                stream, catching, ..
            } => {
                if catching.is_some() {
                    self.out
                        .push_back(Output::CloseConnection { stream: *stream });
                }
                *stream
            }
            Role::Idle => return,
        };
        self.role = Role::Idle;
        self.want = None;
        self.asked = None;
        self.catch_started = None;
        self.out
            .push_back(Output::Engine(engine::Input::StreamClosed {
                stream,
                error: Some(why.to_owned()),
            }));
    }

    /// Another tab leads too: this one stops reading, its engine reconnects and follows, and
    /// it asks for the lead again.
    fn step_down(&mut self, now: u64) {
        if let Role::Leading { .. } = self.role {
            let closed = self.message_of(Kind::Closed);
            self.post(closed);
        }
        self.lose_stream("another tab leads the stream");
        self.let_go();
        self.lock = Lock::Asked;
        self.heard = now;
        if self.locks {
            self.out.push_back(Output::RequestLock);
        }
    }

    /// The client left or stopped: nothing is read or held until its engine asks again.
    fn stop(&mut self) {
        if let Some(stream) = self.stream() {
            self.close(stream);
        } else {
            self.let_go();
        }
    }

    fn conn_opened(&mut self, stream: StreamId, status: u16, now: u64) {
        if self.catching(stream) {
            if status != 200 {
                self.caught_up(false, now);
            }
            return;
        }
        let Role::Leading {
            stream: s,
            conn_open,
        } = &mut self.role
        else {
            return;
        };
        if *s != stream || *conn_open {
            return;
        }
        // The engine's own answer, for its own rules (a 401 refreshes the token, …).
        self.out
            .push_back(Output::Engine(engine::Input::StreamOpened {
                stream,
                status,
            }));
        if status == 200 {
            *conn_open = true;
            let mut open = self.message_of(Kind::Open);
            open.seq = self.seq;
            open.at = self.position.clone();
            self.post(open);
        }
    }

    fn conn_bytes(&mut self, stream: StreamId, bytes: &[u8], now: u64) {
        if self.catching(stream) {
            let Role::Following {
                catching: Some(c), ..
            } = &self.role
            else {
                return;
            };
            let until = c.until.clone();
            let text = split(&mut self.splitter, bytes);
            if !text.is_empty() {
                let before =
                    std::mem::replace(&mut self.position, self.splitter.last_event_id().into());
                self.ring.push(&before, &text);
            }
            if !until.is_empty() && self.ring.holds(&until) {
                self.caught_up(true, now);
            }
            return;
        }
        if !matches!(self.role, Role::Leading { stream: s, conn_open: true, .. } if s == stream) {
            return;
        }
        let text = split(&mut self.splitter, bytes);
        if text.is_empty() {
            return;
        }
        let before = std::mem::replace(&mut self.position, self.splitter.last_event_id().into());
        self.seq += 1;
        self.ring.push(&before, &text);
        let mut data = self.message_of(Kind::Data);
        data.seq = self.seq;
        data.at = self.position.clone();
        data.text = text;
        self.post(data);
    }

    fn conn_closed(&mut self, stream: StreamId, error: Option<String>, now: u64) {
        if self.catching(stream) {
            return self.caught_up(false, now);
        }
        if !matches!(self.role, Role::Leading { stream: s, .. } if s == stream) {
            return;
        }
        // The engine reconnects, and this tab keeps the lead meanwhile.
        self.role = Role::Idle;
        self.want = None;
        let closed = self.message_of(Kind::Closed);
        self.post(closed);
        self.out
            .push_back(Output::Engine(engine::Input::StreamClosed {
                stream,
                error,
            }));
    }

    /// Whether `stream` is this follower's catch-up connection.
    fn catching(&self, stream: StreamId) -> bool {
        matches!(self.role, Role::Following { stream: s, catching: Some(_), .. } if s == stream)
    }

    /// Reads what the leader no longer holds on this tab's own connection, from its position
    /// up to `until`; the engine is fed the bytes by the shell, as on any own connection.
    fn catch_up(&mut self, until: String, now: u64) {
        let Some(want) = &self.want else { return };
        let Role::Following {
            stream, catching, ..
        } = &mut self.role
        else {
            return;
        };
        // Past a reset, so this tab has a position.
        let headers = reading_on(&want.headers, &self.position, &mut self.splitter);
        *catching = Some(CatchUp { until, since: now });
        self.out.push_back(Output::OpenConnection {
            stream: *stream,
            url: want.url.clone(),
            headers,
        });
    }

    /// The catch-up connection is done (`reached`: it read up to its point; else it failed,
    /// and the engine reads its pending calls, as after a `stream_reset`); the follower asks
    /// its leader for what came since.
    fn caught_up(&mut self, reached: bool, now: u64) {
        let Role::Following {
            stream,
            catching,
            leader,
            ..
        } = &mut self.role
        else {
            return;
        };
        let Some(c) = catching.take() else { return };
        let stream = *stream;
        if let Some(l) = leader {
            l.expect = 0;
        }
        self.out.push_back(Output::CloseConnection { stream });
        let started = *self.catch_started.get_or_insert(c.since);
        if reached {
            self.catch_started = None;
        } else if now.saturating_sub(started) >= CATCH_UP_MS {
            // Given up: the engine reads its pending calls instead.
            self.catch_started = None;
            self.position = c.until;
            self.out.push_back(Output::EngineBytes {
                stream,
                text: STREAM_RESET.to_owned(),
            });
        } else {
            // Failed (refused, cut): asked again, once a HELLO_RETRY_MS has passed.
            return;
        }
        self.asked = None;
        self.ask(now);
    }

    fn message(&mut self, msg: Message, now: u64) {
        if msg.from == self.me {
            return;
        }
        if msg.kind == Kind::Hello {
            self.term = self.term.max(msg.term);
            return self.hello_from(&msg);
        }
        if self.lock == Lock::Held {
            // Two leaders (without Web Locks, or a lock holder that stopped answering): the
            // lower in rank steps down. A `closed` is no claim.
            let rival =
                msg.kind != Kind::Closed && ranks_above(msg.term, &msg.from, self.term, &self.me);
            if !rival {
                return;
            }
            self.term = msg.term;
            return self.step_down(now);
        }
        self.term = self.term.max(msg.term);
        let Role::Following {
            stream,
            engine_open,
            leader,
            catching,
        } = &mut self.role
        else {
            return;
        };
        let stream = *stream;
        let busy = catching.is_some();
        let addressed = msg.kind == Kind::Open && msg.to == self.me;
        let from_leader = leader.as_ref().is_some_and(|l| l.id == msg.from);
        if !from_leader {
            let switch = msg.kind != Kind::Closed
                && (addressed
                    || leader
                        .as_ref()
                        .is_none_or(|l| ranks_above(msg.term, &msg.from, l.term, &l.id)));
            if !switch {
                return;
            }
            if *engine_open && leader.as_ref().is_some_and(|l| l.expect != 0) {
                // Another tab leads now: this engine reconnects, and its `hello` says where
                // it is, so the new leader sends it what it missed.
                return self.lose_stream("another tab took over the stream");
            }
            *leader = Some(Leader {
                id: msg.from.clone(),
                term: msg.term,
                expect: 0,
                heard: now,
            });
        }
        let Some(l) = leader else { return };
        l.heard = now;
        self.heard = now;
        self.probed = None;
        if busy && msg.kind != Kind::Closed {
            // Catching up: what the leader sends meanwhile is asked for again afterwards. A
            // leader that had read nothing when it answered gave no point to catch up to: its
            // first event forwarded is that point.
            if let (Kind::Data, Some(c)) = (msg.kind, catching.as_mut()) {
                if c.until.is_empty() {
                    c.until = first_id(&msg.text).to_owned();
                    // This tab's own connection may have read past it already.
                    if !c.until.is_empty() && self.ring.holds(&c.until) {
                        self.caught_up(true, now);
                    }
                }
            }
            return;
        }
        if addressed && msg.since != self.position {
            // The answer to an earlier `hello`, from where this tab no longer is.
            return;
        }
        match msg.kind {
            // This tab has read past where the leader is: nothing to catch up with.
            Kind::Open if addressed && msg.text == STREAM_RESET && self.ring.holds(&msg.at) => {
                l.expect = msg.seq + 1;
                l.term = msg.term;
                self.asked = None;
            }
            Kind::Open if addressed => {
                // A reset for a point this tab has passed: the leader no longer holds what
                // this tab missed, so it reads it from the server.
                let reset = msg.text == STREAM_RESET
                    && !self.position.is_empty()
                    && msg.at != self.position;
                l.expect = msg.seq + 1;
                l.term = msg.term;
                if !*engine_open {
                    *engine_open = true;
                    self.out
                        .push_back(Output::Engine(engine::Input::StreamOpened {
                            stream,
                            status: 200,
                        }));
                }
                self.asked = None;
                if reset {
                    self.catch_up(msg.at, now);
                    return;
                }
                let before = std::mem::replace(&mut self.position, msg.at);
                if !msg.text.is_empty() {
                    if msg.text != STREAM_RESET {
                        self.ring.push(&before, &msg.text);
                    }
                    self.out.push_back(Output::EngineBytes {
                        stream,
                        text: msg.text,
                    });
                }
            }
            Kind::Data if l.expect != 0 && msg.seq < l.expect => {}
            Kind::Data if l.expect == msg.seq => {
                l.expect += 1;
                let before = std::mem::replace(&mut self.position, msg.at);
                self.ring.push(&before, &msg.text);
                self.out.push_back(Output::EngineBytes {
                    stream,
                    text: msg.text,
                });
            }
            Kind::Closed => {
                // Without Web Locks the next tick may probe at once.
                self.heard = 0;
                if *engine_open && l.expect != 0 {
                    return self.lose_stream("the tab that reads the stream lost it");
                }
                *leader = None;
                self.asked = None;
            }
            // A gap, or a leader not caught up with: what came is dropped, asked for again.
            Kind::Data | Kind::Open | Kind::Beat => {
                if l.expect == 0 || msg.kind == Kind::Data || msg.seq >= l.expect {
                    self.ask(now);
                }
            }
            Kind::Hello => {}
        }
    }

    /// A tab asks for the stream from `msg.at`: the leader answers it alone, with what it
    /// missed.
    fn hello_from(&mut self, msg: &Message) {
        if self.reading() {
            let mut open = self.message_of(Kind::Open);
            open.seq = self.seq;
            open.at = self.position.clone();
            open.to = msg.from.clone();
            open.since = msg.at.clone();
            open.text = self
                .ring
                .since(&msg.at, &self.position, msg.seq == 1)
                .unwrap_or_else(|| STREAM_RESET.to_owned());
            self.post(open);
        } else if self.lock == Lock::Held {
            // Between two connections: still the leader, so no one claims.
            let mut beat = self.message_of(Kind::Beat);
            beat.seq = self.seq;
            self.post(beat);
        }
    }

    /// A frozen page runs nothing: it must not hold (or be granted) the lock, and what it
    /// follows goes on without it. On resume the engine reconnects.
    fn freeze(&mut self) {
        self.want = None;
        let stream = match self.role {
            Role::Leading { stream, .. } => {
                self.out.push_back(Output::CloseConnection { stream });
                let closed = self.message_of(Kind::Closed);
                self.post(closed);
                Some(stream)
            }
            Role::Following {
                stream,
                ref catching,
                ..
            } => {
                if catching.is_some() {
                    self.out.push_back(Output::CloseConnection { stream });
                }
                Some(stream)
            }
            Role::Idle => None,
        };
        self.role = Role::Idle;
        self.let_go();
        if let Some(stream) = stream {
            self.out
                .push_back(Output::Engine(engine::Input::StreamClosed {
                    stream,
                    error: Some("the page was frozen".into()),
                }));
        }
    }

    fn tick(&mut self, now: u64) {
        if matches!(&self.role, Role::Following { catching: Some(c), .. } if now.saturating_sub(c.since) >= CATCH_UP_MS)
        {
            self.caught_up(false, now);
        }
        if self.lock == Lock::Held && now.saturating_sub(self.last_beat) >= BEAT_MS {
            self.beat(now);
        }
        if let Role::Following { leader, .. } = &mut self.role {
            if leader
                .as_ref()
                .is_some_and(|l| now.saturating_sub(l.heard) >= SILENT_MS)
            {
                *leader = None;
            }
            if leader.as_ref().is_none_or(|l| l.expect == 0) {
                self.ask(now);
            }
        }
        if !self.locks && self.lock == Lock::Asked && now.saturating_sub(self.heard) >= SILENT_MS {
            match self.probed {
                None => {
                    self.probed = Some(now);
                    self.hello();
                }
                Some(at) if now.saturating_sub(at) >= PROBE_MS => self.granted(now),
                Some(_) => {}
            }
        }
    }
}

/// The last event ID after the first event of forwarded `text` (its first `id: ` line, as
/// [`write_item`] writes it).
fn first_id(text: &str) -> &str {
    text.strip_prefix("id: ")
        .and_then(|rest| rest.split('\n').next())
        .unwrap_or("")
}

/// The headers of a connection that reads on from `position`, the engine's last event ID (from
/// the start when it is empty): the stream's `headers` with `Last-Event-ID` set to it. `splitter`
/// starts anew there, so that forwarded events carry the same last event ID as the leader's
/// own, even from a server that sends some without `id`.
fn reading_on(
    headers: &[(&'static str, String)],
    position: &str,
    splitter: &mut Parser,
) -> Vec<(&'static str, String)> {
    let mut headers: Vec<(&'static str, String)> = headers
        .iter()
        .filter(|(n, _)| *n != "Last-Event-ID")
        .cloned()
        .collect();
    *splitter = Parser::new();
    if !position.is_empty() {
        headers.push(("Last-Event-ID", position.to_owned()));
        let _ = splitter.resume_from(position);
    }
    headers
}

/// The items that `bytes` complete, read by `splitter`, as event-stream text ([`write_item`]).
/// The splitter is fed a `&mut Sink`, as the engine's parser is, so that the wasm holds one copy
/// of the parser.
fn split(splitter: &mut Parser, bytes: &[u8]) -> String {
    let mut text = String::new();
    let mut out: &mut Sink = &mut |item| write_item(&mut text, item);
    splitter.feed(bytes, &mut out);
    text
}

/// Writes one parsed item back as event-stream text for a follower's parser: the same
/// event, type, data and last event ID; an event too big to read becomes a `stream_reset`,
/// so the follower reads its pending calls as the leader does.
pub fn write_item(out: &mut String, item: Item<EventRef<'_>>) {
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
        Item::Oversized { .. } => out.push_str(STREAM_RESET),
        // A keep-alive reaches the other tabs too: their engines' stream idle deadline counts
        // every byte, and a quiet session sends nothing else.
        Item::Comment => out.push_str(":\n\n"),
    }
}
