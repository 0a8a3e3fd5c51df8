//! Throughput of `sse::Parser`: `cargo run --release -p client-tools-core --example sse_bench`.
//!
//! (a) 16 MiB of typical `client_tool_dispatched` events fed in 16 KiB chunks (goal ≥ 1 GB/s);
//! (b) the same fed one event per chunk; (c) one 8 MiB data line fed in 1 KiB chunks (goal
//! under 10 ms). Each figure is the median of several rounds (the best in brackets), after one
//! warm-up round.

use client_tools_core::sse::{EventRef, Item, Parser};
use std::time::{Duration, Instant};

const STREAM_BYTES: usize = 16 << 20;
const ROUNDS: usize = 9;

fn main() {
    let events = typical_events(STREAM_BYTES);
    let stream: Vec<u8> = events.concat();
    let expected_events = events.len();

    let chunks: Vec<&[u8]> = stream.chunks(16 << 10).collect();
    let (a, n) = best_of(|| parse(Parser::new(), &chunks));
    assert_eq!(n, expected_events, "(a) lost events");
    report("(a) 16 KiB chunks     ", stream.len(), n, a);

    let per_event: Vec<&[u8]> = events.iter().map(Vec::as_slice).collect();
    let (b, n) = best_of(|| parse(Parser::new(), &per_event));
    assert_eq!(n, expected_events, "(b) lost events");
    report("(b) one event a chunk ", stream.len(), n, b);

    let mut line = b"data: ".to_vec();
    line.extend(
        (0..8u32 << 20).map(|i| b"0123456789abcdefghijklmnopqrstuvwxyz\"{}:,"[i as usize % 41]),
    );
    line.extend_from_slice(b"\n\n");
    let small: Vec<&[u8]> = line.chunks(1 << 10).collect();
    let (c, n) = best_of(|| parse(Parser::with_max_event_bytes(16 << 20), &small));
    assert_eq!(n, 1, "(c) lost the event");
    report("(c) 8 MiB line, 1 KiB ", line.len(), n, c);
    println!(
        "(c) one 8 MiB line in 1 KiB chunks: {:.2} ms (goal < 10 ms)",
        c.0.as_secs_f64() * 1e3
    );
    println!(
        "(a) goal ≥ 1 GB/s: {}",
        if gbps(stream.len(), a.0) >= 1.0 {
            "met"
        } else {
            "NOT met"
        }
    );
}

/// Feeds every chunk, then finishes; returns how many events came out. The events' bytes are
/// summed and checked against the input, so the work cannot be optimised away.
fn parse(mut parser: Parser, chunks: &[&[u8]]) -> usize {
    let mut events = 0;
    let mut data_bytes = 0;
    let mut sink = |item: Item<EventRef<'_>>| {
        if let Item::Event(e) = item {
            events += 1;
            data_bytes += e.data.len() + e.event_type.len() + e.id.len();
        }
    };
    for chunk in chunks {
        parser.feed(chunk, &mut sink);
    }
    parser.finish(&mut sink);
    let input: usize = chunks.iter().map(|c| c.len()).sum();
    assert!(
        data_bytes > 0 && data_bytes < input,
        "{data_bytes} of {input} bytes"
    );
    events
}

/// The median and best times of [`ROUNDS`] runs after a first, cold one (whose time is
/// printed too).
fn best_of(mut run: impl FnMut() -> usize) -> ((Duration, Duration), usize) {
    let t = Instant::now();
    let n = run();
    println!(
        "    first (cold) run: {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let mut times = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let again = run();
        times.push(t.elapsed());
        assert_eq!(again, n, "rounds disagree");
    }
    times.sort();
    ((times[ROUNDS / 2], times[0]), n)
}

fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}

fn report(name: &str, bytes: usize, events: usize, (t, best): (Duration, Duration)) {
    println!(
        "{name}: {:>6.0} MB/s (best {:>5.0})  {:>9.0} events/s  ({} bytes, {events} events, {:.2} ms)",
        bytes as f64 / t.as_secs_f64() / 1e6,
        bytes as f64 / best.as_secs_f64() / 1e6,
        events as f64 / t.as_secs_f64(),
        bytes,
        t.as_secs_f64() * 1e3
    );
}

/// About `total` bytes of `client_tool_dispatched` events as the reference server writes them:
/// `id`, `event` and one JSON `data` line, arguments of varying size.
fn typical_events(total: usize) -> Vec<Vec<u8>> {
    let mut events = Vec::new();
    let mut size = 0;
    let mut seq = 1u64;
    while size < total {
        let note = "Highlight the row the user asked about. ".repeat((seq % 5) as usize);
        let event = format!(
            "id: {seq}\nevent: client_tool_dispatched\ndata: {{\"type\":\"client_tool_dispatched\",\
             \"session_id\":\"ses_8f3a2c1d9e7b4a60\",\"run_id\":\"run_{run:016x}\",\
             \"client_id\":\"cli_4b1e9d2a7c3f5086\",\"call_id\":\"call_{seq:016x}\",\
             \"tool\":\"highlight_row\",\"arguments\":{{\"row_id\":\"row-{row}\",\
             \"color\":\"yellow\",\"note\":\"{note}\"}},\
             \"ack_deadline\":\"2026-11-29T12:01:{sec:02}Z\"}}\n\n",
            run = seq / 7,
            row = seq * 37 % 1000,
            sec = seq % 60,
        );
        size += event.len();
        events.push(event.into_bytes());
        seq += 1;
    }
    events
}
