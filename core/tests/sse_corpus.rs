//! Runs the SSE conformance corpus (format `sse-conformance-corpus/1`) through `sse::Parser`.
//!
//! Every `*.json` of `../shared/sse-corpus/` (from the workspace root) runs, and every `*.json` of
//! the folder named by `SSE_CORPUS_DIR` when that is set. Each case runs as given, as 1-byte
//! chunks, and split at every position into two chunks; all failures are collected, then the
//! test fails once, listing each failing case id with what differed.

use client_tools_core::sse::{Item, Parser};
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const FORMAT: &str = "sse-conformance-corpus/1";

#[test]
fn sse_conformance_corpus() {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/sse-corpus")];
    if let Some(extra) = std::env::var_os("SSE_CORPUS_DIR") {
        dirs.push(PathBuf::from(extra));
    }
    let mut failures = Vec::new();
    let (mut files, mut cases, mut runs) = (0, 0, 0);
    for dir in &dirs {
        for path in json_files(dir) {
            files += 1;
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let corpus: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
            if corpus.get("format").and_then(Value::as_str) != Some(FORMAT) {
                failures.push(format!(
                    "{}: `format` is {}, expected {FORMAT:?}",
                    path.display(),
                    corpus.get("format").unwrap_or(&Value::Null)
                ));
                continue;
            }
            let Some(list) = corpus.get("cases").and_then(Value::as_array) else {
                failures.push(format!("{}: no `cases` array", path.display()));
                continue;
            };
            for case in list {
                cases += 1;
                let id = case.get("id").and_then(Value::as_str).unwrap_or("<no id>");
                match run_case(case) {
                    Ok(n) => runs += n,
                    Err(why) => failures.push(format!("{id} ({}): {why}", file_name(&path))),
                }
            }
        }
    }
    println!(
        "sse corpus: {files} files, {cases} cases, {runs} runs, {} failing",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} SSE corpus cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The `*.json` files of `dir`, sorted; panics if there are none, so a missing corpus fails.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("SSE corpus folder {} cannot be read: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "SSE corpus folder {} holds no *.json file",
        dir.display()
    );
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// One connection of a case: its bytes, as chunks, and the Last-Event-ID it must start with
/// (`Some("")` for null: no header; `None` when the case does not say).
struct Connection {
    chunks: Vec<Vec<u8>>,
    request_last_event_id: Option<String>,
}

/// What a case expects; `None` where the case does not say.
struct Expect {
    events: Vec<ExpectedEvent>,
    retry: Option<Vec<u64>>,
    final_last_event_id: Option<String>,
}

/// An event as the corpus writes it; `id_field` is `None` when the case does not say.
#[derive(Debug)]
struct ExpectedEvent {
    event_type: String,
    data: String,
    last_event_id: String,
    id_field: Option<Option<String>>,
}

/// An event the parser gave, in the corpus's terms.
#[derive(Debug)]
struct GotEvent {
    event_type: String,
    data: String,
    last_event_id: String,
    /// The value of this block's own valid `id` field, if it had one.
    id_field: Option<String>,
}

impl ExpectedEvent {
    fn matches(&self, got: &GotEvent) -> bool {
        self.event_type == got.event_type
            && self.data == got.data
            && self.last_event_id == got.last_event_id
            && self.id_field.as_ref().is_none_or(|id| *id == got.id_field)
    }
}

/// What the parser gave for one run.
struct Outcome {
    events: Vec<GotEvent>,
    retry: Vec<u64>,
    final_last_event_id: String,
    /// Connections whose starting Last-Event-ID differed: (index, expected, actual).
    request_mismatches: Vec<(usize, String, String)>,
}

/// Runs every chunking of one case; returns how many runs passed, or what differed.
fn run_case(case: &Value) -> Result<usize, String> {
    let connections = read_connections(case)?;
    let expect = read_expect(case.get("expect").ok_or("no `expect`")?)?;
    let mut chunkings: Vec<(String, Vec<Vec<Vec<u8>>>)> = Vec::new();
    chunkings.push((
        "as given".into(),
        connections.iter().map(|c| c.chunks.clone()).collect(),
    ));
    chunkings.push((
        "1-byte chunks".into(),
        connections
            .iter()
            .map(|c| c.chunks.concat().iter().map(|&b| vec![b]).collect())
            .collect(),
    ));
    for (k, conn) in connections.iter().enumerate() {
        let bytes = conn.chunks.concat();
        for at in 0..=bytes.len() {
            let mut all: Vec<Vec<Vec<u8>>> = connections.iter().map(|c| c.chunks.clone()).collect();
            all[k] = vec![bytes[..at].to_vec(), bytes[at..].to_vec()];
            let name = if connections.len() == 1 {
                format!("split at {at}")
            } else {
                format!("connection {k} split at {at}")
            };
            chunkings.push((name, all));
        }
    }
    let mut failed = Vec::new();
    for (name, chunks) in &chunkings {
        let outcome = run_connections(&connections, chunks);
        if let Some(diff) = compare(&expect, &outcome) {
            failed.push((name, diff));
        }
    }
    if failed.is_empty() {
        return Ok(chunkings.len());
    }
    let mut why = format!("{} of {} chunkings failed", failed.len(), chunkings.len());
    for (name, diff) in failed.iter().take(3) {
        let _ = write!(why, "\n    {name}: {diff}");
    }
    if failed.len() > 3 {
        let _ = write!(why, "\n    … and {} more", failed.len() - 3);
    }
    Err(why)
}

fn run_connections(connections: &[Connection], chunkings: &[Vec<Vec<u8>>]) -> Outcome {
    let mut parser = Parser::new();
    let mut outcome = Outcome {
        events: Vec::new(),
        retry: Vec::new(),
        final_last_event_id: String::new(),
        request_mismatches: Vec::new(),
    };
    for (k, (conn, chunks)) in connections.iter().zip(chunkings).enumerate() {
        if k > 0 {
            parser.reset_for_reconnect();
        }
        if let Some(want) = &conn.request_last_event_id {
            if parser.last_event_id() != want {
                let got = parser.last_event_id().to_owned();
                outcome.request_mismatches.push((k, want.clone(), got));
            }
        }
        let mut sink = |item: Item, had_id: bool| match item {
            Item::Event(e) => outcome.events.push(GotEvent {
                id_field: had_id.then(|| e.id.clone()),
                event_type: e.event_type,
                data: e.data,
                last_event_id: e.id,
            }),
            Item::Retry(ms) => outcome.retry.push(u64::from(ms)),
            Item::Comment | Item::Oversized { .. } => {}
        };
        for chunk in chunks {
            parser.feed_with_id_flag(chunk, &mut sink);
        }
        parser.finish(&mut |item| sink(item, false));
    }
    outcome.final_last_event_id = parser.last_event_id().to_owned();
    outcome
}

/// What differs between `expect` and `got`, or `None` when they agree.
fn compare(expect: &Expect, got: &Outcome) -> Option<String> {
    let mut diffs = Vec::new();
    for (k, want, actual) in &got.request_mismatches {
        diffs.push(format!(
            "connection {k} would send Last-Event-ID {actual:?}, expected {want:?}"
        ));
    }
    let n = expect.events.len().max(got.events.len());
    for i in 0..n {
        match (expect.events.get(i), got.events.get(i)) {
            (Some(w), Some(g)) if w.matches(g) => {}
            (Some(w), Some(g)) => diffs.push(format!("event {i}: expected {w:?}, got {g:?}")),
            (Some(w), None) => diffs.push(format!("event {i} missing: expected {w:?}")),
            (None, Some(g)) => diffs.push(format!("event {i} unexpected: {g:?}")),
            (None, None) => unreachable!("i < max of both lengths"),
        }
    }
    if let Some(want) = &expect.retry {
        if *want != got.retry {
            diffs.push(format!("retry: expected {want:?}, got {:?}", got.retry));
        }
    }
    if let Some(want) = &expect.final_last_event_id {
        if *want != got.final_last_event_id {
            diffs.push(format!(
                "final last event id: expected {want:?}, got {:?}",
                got.final_last_event_id
            ));
        }
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

/// The case's connections: its `connections` list, or one connection from its `input`.
fn read_connections(case: &Value) -> Result<Vec<Connection>, String> {
    match (case.get("input"), case.get("connections")) {
        (Some(input), None) => Ok(vec![Connection {
            chunks: read_input(input)?,
            // A case's only connection starts with no Last-Event-ID.
            request_last_event_id: Some(String::new()),
        }]),
        (None, Some(Value::Array(list))) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(k, conn)| {
                let obj = object(conn, &format!("connections[{k}]"))?;
                only_keys(
                    obj,
                    &["request_last_event_id", "input", "end"],
                    "connection",
                )?;
                let request_last_event_id = match obj.get("request_last_event_id") {
                    None => None,
                    Some(Value::Null) => Some(String::new()),
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(other) => {
                        return Err(format!("connections[{k}].request_last_event_id: {other}"))
                    }
                };
                let input = obj
                    .get("input")
                    .ok_or_else(|| format!("connections[{k}] has no `input`"))?;
                Ok(Connection {
                    chunks: read_input(input)?,
                    request_last_event_id,
                })
            })
            .collect(),
        (Some(_), Some(_)) => Err("has both `input` and `connections`".into()),
        _ => Err("needs `input` or a non-empty `connections` list".into()),
    }
}

/// `input.chunks` (UTF-8 strings) or `input.chunks_hex` (raw bytes), as byte chunks.
fn read_input(input: &Value) -> Result<Vec<Vec<u8>>, String> {
    let obj = object(input, "input")?;
    only_keys(obj, &["chunks", "chunks_hex"], "input")?;
    match (obj.get("chunks"), obj.get("chunks_hex")) {
        (Some(Value::Array(chunks)), None) => chunks
            .iter()
            .map(|c| {
                c.as_str()
                    .map(|s| s.as_bytes().to_vec())
                    .ok_or_else(|| format!("input.chunks holds {c}, not a string"))
            })
            .collect(),
        (None, Some(Value::Array(chunks))) => chunks
            .iter()
            .map(|c| {
                let hex = c
                    .as_str()
                    .ok_or_else(|| format!("input.chunks_hex holds {c}, not a string"))?;
                decode_hex(hex)
            })
            .collect(),
        _ => Err("input needs exactly one of `chunks` or `chunks_hex`, as a list".into()),
    }
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if hex.len() % 2 != 0 {
        return Err(format!("chunks_hex {hex:?} has an odd number of digits"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&hex[i..i + 2], 16)
                .map_err(|_| format!("chunks_hex {hex:?}: {:?} is not a hex byte", &hex[i..i + 2]))
        })
        .collect()
}

fn read_expect(expect: &Value) -> Result<Expect, String> {
    let obj = object(expect, "expect")?;
    only_keys(obj, &["events", "retry", "final_last_event_id"], "expect")?;
    let events = match obj.get("events") {
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, e)| read_expected_event(i, e))
            .collect::<Result<_, _>>()?,
        _ => return Err("expect.events must be a list".into()),
    };
    let retry = match obj.get("retry") {
        None => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .map(|v| v.as_u64().ok_or_else(|| format!("expect.retry holds {v}")))
                .collect::<Result<_, _>>()?,
        ),
        Some(other) => return Err(format!("expect.retry is {other}, not a list")),
    };
    let final_last_event_id = match obj.get("final_last_event_id") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(format!("expect.final_last_event_id is {other}")),
    };
    Ok(Expect {
        events,
        retry,
        final_last_event_id,
    })
}

fn read_expected_event(i: usize, e: &Value) -> Result<ExpectedEvent, String> {
    let obj = object(e, &format!("expect.events[{i}]"))?;
    only_keys(
        obj,
        &["type", "data", "last_event_id", "id_field"],
        "expected event",
    )?;
    let text = |key: &str| -> Result<String, String> {
        obj.get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("expect.events[{i}].{key} must be a string"))
    };
    let id_field = match obj.get("id_field") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(other) => return Err(format!("expect.events[{i}].id_field is {other}")),
    };
    Ok(ExpectedEvent {
        event_type: text("type")?,
        data: text("data")?,
        last_event_id: text("last_event_id")?,
        id_field,
    })
}

fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("{what} is not an object"))
}

/// A key this harness does not know might change what a case means: fail rather than guess.
fn only_keys(obj: &Map<String, Value>, known: &[&str], what: &str) -> Result<(), String> {
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(format!(
            "{what} has key `{k}`, which this harness does not know"
        )),
        None => Ok(()),
    }
}
