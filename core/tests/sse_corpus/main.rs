//! Runs the SSE conformance corpus (format `sse-conformance-corpus/1`, described in
//! `../shared/sse-corpus/README.md`) through `sse::Parser`.
//!
//! Every `*.json` of `../shared/sse-corpus/` (from the workspace root) runs, then this test's
//! own cases (`cases/`: connections resumed from a known last event ID, which the shared corpus
//! lacks), and every `*.json` of the folder named by `SSE_CORPUS_DIR` when that is set. Each case runs as given, as 1-byte
//! chunks, and split at every position into two chunks (per connection); a case that starts
//! from a known last event ID starts the parser there with [`Parser::resume_from`]. A key the
//! format does not define fails its file or case, naming it (see `format.rs`). All failures
//! are collected, then the test fails once, listing each with what differed.

mod format;

use client_tools_core::sse::{EventRef, Item, Parser};
use format::{Case, Connection, Expect};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[test]
fn sse_conformance_corpus() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![
        here.join("../../shared/sse-corpus"),
        here.join("tests/sse_corpus/cases"),
    ];
    if let Some(extra) = std::env::var_os("SSE_CORPUS_DIR") {
        dirs.push(PathBuf::from(extra));
    }
    let mut failures = Vec::new();
    let mut seen_ids: HashMap<String, String> = HashMap::new();
    let (mut files, mut cases, mut runs, mut open_cases) = (0, 0, 0, 0);
    for dir in &dirs {
        for path in json_files(dir) {
            files += 1;
            let name = file_name(&path);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let file = match serde_json::from_str::<Value>(&text)
                .map_err(|e| format!("not JSON: {e}"))
                .and_then(|v| format::read_file(&v))
            {
                Ok(file) => file,
                Err(why) => {
                    failures.push(format!("{}: {why}", path.display()));
                    continue;
                }
            };
            for (i, raw) in file.cases.iter().enumerate() {
                cases += 1;
                let label =
                    format::case_id(raw).map_or_else(|| format!("cases[{i}]"), str::to_owned);
                let case = match format::read_case(raw) {
                    Ok(case) => case,
                    Err(why) => {
                        failures.push(format!("{label} ({name}): {why}"));
                        continue;
                    }
                };
                if let Some(other) = seen_ids.insert(case.id.clone(), name.clone()) {
                    failures.push(format!("{label} ({name}): id already used in {other}"));
                }
                open_cases += usize::from(case.implementation_defined.is_some());
                match run_case(&case) {
                    Ok(n) => runs += n,
                    Err(why) => failures.push(format!("{label} ({name}): {why}")),
                }
            }
        }
    }
    println!(
        "sse corpus: {files} files, {cases} cases ({open_cases} implementation-defined), \
         {runs} runs, {} failing",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} problems in {cases} SSE corpus cases:\n{}",
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

/// An event the parser gave, in the corpus's terms.
#[derive(Debug)]
struct GotEvent {
    event_type: String,
    data: String,
    last_event_id: String,
    /// The value of this block's own valid `id` field, if it had one.
    id_field: Option<String>,
}

impl format::ExpectedEvent {
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
fn run_case(case: &Case) -> Result<usize, String> {
    let connections = &case.connections;
    let as_given =
        || -> Vec<Vec<Vec<u8>>> { connections.iter().map(|c| c.chunks.clone()).collect() };
    let mut chunkings: Vec<(String, Vec<Vec<Vec<u8>>>)> = vec![
        ("as given".into(), as_given()),
        (
            "1-byte chunks".into(),
            connections
                .iter()
                .map(|c| c.chunks.concat().iter().map(|&b| vec![b]).collect())
                .collect(),
        ),
    ];
    for (k, conn) in connections.iter().enumerate() {
        let bytes = conn.chunks.concat();
        for at in 0..=bytes.len() {
            let mut all = as_given();
            all[k] = vec![bytes[..at].to_vec(), bytes[at..].to_vec()];
            let name = if connections.len() == 1 {
                format!("split at {at}")
            } else {
                format!("connection {k}{} split at {at}", ended(conn))
            };
            chunkings.push((name, all));
        }
    }
    let mut failed = Vec::new();
    for (name, chunks) in &chunkings {
        let outcome = run_connections(case, chunks)?;
        if let Some(diff) = compare(&case.expect, &outcome) {
            failed.push((name, diff));
        }
    }
    if failed.is_empty() {
        return Ok(chunkings.len());
    }
    let mut why = format!("{} of {} chunkings failed", failed.len(), chunkings.len());
    if let Some(note) = &case.implementation_defined {
        let _ = write!(why, " (implementation-defined: {note})");
    }
    for (name, diff) in failed.iter().take(3) {
        let _ = write!(why, "\n    {name}: {diff}");
    }
    if failed.len() > 3 {
        let _ = write!(why, "\n    … and {} more", failed.len() - 3);
    }
    Err(why)
}

/// `" (ended: …)"` for a connection whose end the case names.
fn ended(conn: &Connection) -> String {
    conn.end
        .as_ref()
        .map_or_else(String::new, |end| format!(" (ended: {end})"))
}

/// One run: the case's connections in a row, fed `chunkings`, from its initial last event ID.
fn run_connections(case: &Case, chunkings: &[Vec<Vec<u8>>]) -> Result<Outcome, String> {
    let mut parser = Parser::new();
    parser
        .resume_from(&case.initial_last_event_id)
        .map_err(|e| format!("initial_last_event_id: {e}"))?;
    let mut outcome = Outcome {
        events: Vec::new(),
        retry: Vec::new(),
        final_last_event_id: String::new(),
        request_mismatches: Vec::new(),
    };
    for (k, (conn, chunks)) in case.connections.iter().zip(chunkings).enumerate() {
        if k > 0 {
            // The previous connection ended (as its `end` says); the next one resumes.
            parser.reset_for_reconnect();
        }
        if let Some(want) = &conn.request_last_event_id {
            if parser.last_event_id() != want {
                let got = parser.last_event_id().to_owned();
                outcome.request_mismatches.push((k, want.clone(), got));
            }
        }
        let mut sink = |item: Item<EventRef<'_>>, had_id: bool| match item {
            Item::Event(e) => outcome.events.push(GotEvent {
                id_field: had_id.then(|| e.id.to_owned()),
                event_type: e.event_type.to_owned(),
                data: e.data.to_owned(),
                last_event_id: e.id.to_owned(),
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
    Ok(outcome)
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

/// The harness itself: a key the format does not define fails, named, at every level.
#[test]
fn unknown_keys_fail_and_are_named() {
    let file = serde_json::json!({
        "format": format::FORMAT, "license": "x", "cases": [], "expectations": {}
    });
    let err = format::read_file(&file).err().expect("file key accepted");
    assert!(err.contains("`expectations`"), "{err}");

    let good = serde_json::json!({
        "id": "c", "description": "", "source": "s",
        "connections": [{ "request_last_event_id": null, "input": { "chunks": ["data: a\n\n"] } }],
        "expect": { "events": [{ "type": "message", "data": "a", "last_event_id": "" }] }
    });
    assert!(format::read_case(&good).is_ok());
    let nested: [(&str, &[&str]); 6] = [
        ("`initial_id`", &["initial_id"]),
        ("`end_of_stream`", &["connections", "0", "end_of_stream"]),
        ("`chunks_b64`", &["connections", "0", "input", "chunks_b64"]),
        ("`retries`", &["expect", "retries"]),
        ("`origin`", &["expect", "events", "0", "origin"]),
        (
            "`initial_last_event_id`",
            &["connections", "0", "initial_last_event_id"],
        ),
    ];
    for (name, path) in nested {
        let mut case = good.clone();
        let (key, parents) = path.split_last().expect("a path");
        let mut at = &mut case;
        for p in parents {
            at = match p.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*p],
            };
        }
        at[*key] = serde_json::json!("?");
        let err = format::read_case(&case)
            .err()
            .unwrap_or_else(|| panic!("{path:?} accepted"));
        assert!(err.contains(name), "{path:?}: {err}");
    }
}
