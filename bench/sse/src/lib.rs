//! The stream parser (`client_tools_core::sse`) exported to JavaScript, for
//! `scripts/bench-browser`, which builds this crate with the profile that ships
//! (`wasm-release`: opt-level "z", LTO) and races it against eventsource-parser in headless
//! Chromium. Nothing here ships: the npm package is built from the `client-tools` crate alone.

// The allocator the package ships with (src/lib.rs).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use client_tools_core::protocol::{time::format_rfc3339, ToolDispatched};
use client_tools_core::sse::{EventRef, Item, Parser};
use js_sys::Uint8Array;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// One parse of a stream: a parser and what it has dispatched so far.
#[wasm_bindgen]
pub struct SseBench {
    parser: Parser,
    /// Reused for every chunk, as the SDK's stream reader reuses its buffer.
    buf: Vec<u8>,
    events: u32,
    chars: f64,
}

impl Default for SseBench {
    fn default() -> Self {
        SseBench::new()
    }
}

#[wasm_bindgen]
impl SseBench {
    /// A parser for a new stream (the default 1 MiB cap on an event, as the SDK uses).
    #[wasm_bindgen(constructor)]
    pub fn new() -> SseBench {
        SseBench {
            parser: Parser::new(),
            buf: Vec::new(),
            events: 0,
            chars: 0.0,
        }
    }

    /// Feeds one chunk, copied into wasm memory the way the SDK's stream reader copies a
    /// `ReadableStream` chunk (`Uint8Array::copy_to` into a reused buffer).
    pub fn feed(&mut self, chunk: &Uint8Array) {
        self.buf.resize(chunk.length() as usize, 0);
        chunk.copy_to(&mut self.buf);
        let (events, chars) = (&mut self.events, &mut self.chars);
        self.parser
            .feed(&self.buf, &mut |item| count(item, events, chars));
    }

    /// Ends the stream; returns how many events it dispatched.
    pub fn finish(&mut self) -> u32 {
        let (events, chars) = (&mut self.events, &mut self.chars);
        self.parser.finish(&mut |item| count(item, events, chars));
        self.events
    }

    /// The bytes of the events' type, data and id, summed: checked against the other parser's,
    /// so neither side's work can be skipped.
    pub fn chars(&self) -> f64 {
        self.chars
    }
}

fn count(item: Item<EventRef<'_>>, events: &mut u32, chars: &mut f64) {
    if let Item::Event(e) = item {
        *events += 1;
        *chars += (e.event_type.len() + e.data.len() + e.id.len()) as f64;
    }
}

/// About `total` bytes of `client_tool_dispatched` events framed as the devserver frames them
/// (`devserver/src/state/events.rs`: `id: <seq>\nevent: <type>\ndata: <JSON>\n\n`, the JSON
/// being `serde_json::to_value` of the protocol's `ToolDispatched` plus `"type"`, compact).
/// Arguments vary in size as a page tool's would; ids are 32 hex digits as the devserver's.
#[wasm_bindgen]
pub fn dispatched_events(total: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(total + 1024);
    let mut seq = 1u64;
    let id = |prefix: &str, n: u64| {
        format!(
            "{prefix}_{:016x}{:016x}",
            n.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            n ^ 0x5DEE_CE66
        )
    };
    while out.len() < total {
        let note = "Highlight the row the user asked about. ".repeat((seq % 5) as usize);
        let call = ToolDispatched {
            session_id: id("ses", 1),
            run_id: id("run", seq / 7),
            client_id: id("cli", 2),
            call_id: id("call", seq),
            tool: "highlight_row".into(),
            arguments: json!({ "row_id": format!("row-{}", seq * 37 % 1000), "color": "yellow", "note": note }),
            ack_deadline: Some(format_rfc3339(1_796_000_000_000 + seq * 1_013)),
        };
        let mut data = serde_json::to_value(call).unwrap_or_default();
        if let Value::Object(map) = &mut data {
            map.insert("type".into(), "client_tool_dispatched".into());
        }
        out.extend_from_slice(
            format!("id: {seq}\nevent: client_tool_dispatched\ndata: {data}\n\n").as_bytes(),
        );
        seq += 1;
    }
    out
}
