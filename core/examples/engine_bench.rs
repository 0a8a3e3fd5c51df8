//! Micro-benchmark of the engine's hot path: a call's stream bytes in, its ack request out.
//!
//! `cargo run --release -p client-tools-core --example engine_bench` prints
//! (a) ns per call from the `client_tool_dispatched` event's bytes to the ack `Send` (with the
//!     `RunHandler` output beside it), and the heap allocations that path makes per call;
//! (b) heap allocations while feeding stream bytes one byte at a time, to show that no byte
//!     allocates: they come from the events, not the bytes.

use client_tools_core::calls::Returned;
use client_tools_core::engine::{Config, Engine, Input, Output, ToolDef};
use client_tools_core::protocol::ToolSpec;
use serde_json::json;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Counts every allocation, so the benchmark can say how many a path makes.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const NOW: client_tools_core::time::Instant =
    client_tools_core::time::Instant::from_ms(1_795_953_600_000);

/// An engine registered as `cli_1`, its stream open; returns the stream id.
fn registered_engine() -> (Engine, client_tools_core::engine::StreamId) {
    let mut cfg = Config::new("https://api.test", "ses_1", "tok", "web", "bench", 1);
    cfg.tools = vec![ToolDef::new(ToolSpec {
        name: "highlight_row".into(),
        description: "Highlight a row.".into(),
        parameters: Some(json!({"type": "object",
            "properties": {"row_id": {"type": "string"}}, "required": ["row_id"]})),
    })];
    let mut engine = Engine::new(cfg, NOW).expect("valid config");
    let mut stream = None;
    let mut register = None;
    while let Some(out) = engine.poll_output() {
        match out {
            Output::Send(req) => register = Some(req.id),
            Output::OpenStream { stream: s, .. } => stream = Some(s),
            _ => {}
        }
    }
    let body = json!({"id": "cli_1", "name": "web", "lifetime": {"type": "never"},
                      "expires_at": null, "tools": []});
    engine.handle(
        Input::Answer {
            request: register.expect("register sent"),
            status: 201,
            body: body.to_string(),
            retry_after: None,
        },
        NOW,
    );
    let stream = stream.expect("stream opened");
    engine.handle(
        Input::StreamOpened {
            stream,
            status: 200,
        },
        NOW,
    );
    let mut pending = None;
    while let Some(out) = engine.poll_output() {
        if let Output::Send(req) = out {
            pending = Some(req.id);
        }
    }
    engine.handle(
        Input::Answer {
            request: pending.expect("pending read"),
            status: 200,
            body: r#"{"calls":[]}"#.into(),
            retry_after: None,
        },
        NOW,
    );
    while engine.poll_output().is_some() {}
    (engine, stream)
}

fn event(seq: u64) -> Vec<u8> {
    let data = json!({"type": "client_tool_dispatched", "session_id": "ses_1", "run_id": "run_1",
        "client_id": "cli_1", "call_id": format!("call_{seq}"), "tool": "highlight_row",
        "arguments": {"row_id": format!("{seq}")}, "ack_deadline": "2026-11-29T12:01:00Z"});
    format!("id: {seq}\nevent: client_tool_dispatched\ndata: {data}\n\n").into_bytes()
}

/// The parse alone (SSE parser, then the event's JSON), for comparison with the whole path.
fn parse_only(calls: u64) -> (f64, f64) {
    use client_tools_core::protocol::StreamEvent;
    use client_tools_core::sse::{Item, Parser};
    let events: Vec<Vec<u8>> = (1..=calls).map(event).collect();
    let mut parser = Parser::new();
    let mut parsed = 0u64;
    let before = ALLOCS.load(Relaxed);
    let start = Instant::now();
    for bytes in &events {
        parser.feed(bytes, &mut |item| {
            if let Item::Event(e) = item {
                if let Ok(StreamEvent::ClientToolDispatched(call)) =
                    StreamEvent::parse(e.event_type, e.data)
                {
                    parsed += std::hint::black_box(call).call_id.len() as u64 / 1_000_000 + 1;
                }
            }
        });
    }
    let ns = start.elapsed().as_nanos() as f64 / calls as f64;
    let allocs = (ALLOCS.load(Relaxed) - before) as f64 / calls as f64;
    assert_eq!(parsed, calls);
    (ns, allocs)
}

fn main() {
    let (parse_ns, parse_allocs) = parse_only(50_000);
    println!(
        "(a0) parse alone (SSE + event JSON): {parse_ns:.0} ns per call, {parse_allocs:.1} allocations per call"
    );

    // (a) The call path.
    let (mut engine, stream) = registered_engine();
    const BATCH: u64 = 1_000;
    const BATCHES: u64 = 50;
    let mut timed_ns = 0u128;
    let mut path_allocs = 0u64;
    let mut acks = 0u64;
    let mut seq = 0u64;
    for batch in 0..BATCHES {
        let events: Vec<Vec<u8>> = (0..BATCH).map(|i| event(batch * BATCH + i + 1)).collect();
        let mut ack_ids = Vec::with_capacity(BATCH as usize);
        let mut outs = Vec::with_capacity(4 * BATCH as usize);
        let before = ALLOCS.load(Relaxed);
        let start = Instant::now();
        for bytes in &events {
            engine.handle_stream_bytes(stream, bytes, NOW);
            while let Some(out) = engine.poll_output() {
                outs.push(out);
            }
        }
        timed_ns += start.elapsed().as_nanos();
        path_allocs += ALLOCS.load(Relaxed) - before;
        // Untimed: settle every call so the table stays the size of one batch.
        for out in outs {
            match out {
                Output::Send(req) if req.url.ends_with("/ack") => {
                    acks += 1;
                    ack_ids.push(req.id);
                }
                Output::RunHandler { call_id, .. } => engine.handle(
                    Input::HandlerDone {
                        call_id,
                        returned: Returned::text("ok"),
                    },
                    NOW,
                ),
                _ => {}
            }
        }
        for id in ack_ids {
            engine.handle(
                Input::Answer {
                    request: id,
                    status: 200,
                    body: r#"{"result_deadline":"2026-11-29T12:05:00Z"}"#.into(),
                    retry_after: None,
                },
                NOW,
            );
        }
        let mut results = Vec::new();
        while let Some(out) = engine.poll_output() {
            if let Output::Send(req) = out {
                results.push(req.id);
            }
        }
        for id in results {
            engine.handle(
                Input::Answer {
                    request: id,
                    status: 200,
                    body: "{}".into(),
                    retry_after: None,
                },
                NOW,
            );
        }
        while engine.poll_output().is_some() {}
        seq += BATCH;
    }
    assert_eq!(acks, seq, "every event produced its ack");
    assert_eq!(engine.calls_in_progress(), 0);
    println!(
        "(a) event bytes -> ack request: {:.0} ns per call over {seq} calls, {:.1} allocations per call",
        timed_ns as f64 / seq as f64,
        path_allocs as f64 / seq as f64
    );

    // (b) Bytes one at a time: keep-alive comments, then events.
    let (mut engine, stream) = registered_engine();
    let mut text = Vec::new();
    for _ in 0..1_000 {
        text.extend_from_slice(b": keep-alive\n\n");
    }
    let comment_bytes = text.len();
    let before = ALLOCS.load(Relaxed);
    for b in &text {
        engine.handle_stream_bytes(stream, std::slice::from_ref(b), NOW);
    }
    let comment_allocs = ALLOCS.load(Relaxed) - before;
    let mut events = Vec::new();
    for i in 0..100 {
        // Unknown event types are parsed and ignored: the bytes' cost without a call's.
        let data = json!({"type": "run_started", "run_id": format!("run_{i}")});
        events
            .extend_from_slice(format!("id: {i}\nevent: run_started\ndata: {data}\n\n").as_bytes());
    }
    let before = ALLOCS.load(Relaxed);
    for b in &events {
        engine.handle_stream_bytes(stream, std::slice::from_ref(b), NOW);
    }
    let event_allocs = ALLOCS.load(Relaxed) - before;
    while engine.poll_output().is_some() {}
    println!(
        "(b) 1-byte chunks: {comment_bytes} bytes of keep-alives made {comment_allocs} allocations; \
         {} bytes of 100 events made {event_allocs} allocations ({:.2} per event, {:.3} per byte)",
        events.len(),
        event_allocs as f64 / 100.0,
        event_allocs as f64 / events.len() as f64
    );
}
