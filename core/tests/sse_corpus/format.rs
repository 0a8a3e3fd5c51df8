//! Reads the corpus format `sse-conformance-corpus/1` (`../shared/sse-corpus/README.md`) into
//! plain structs. Every key the README lists is read and checked for its type; any other key,
//! in a file, a case, a connection, an input, an expectation or an expected event, is an error
//! that names it: a key this harness does not know might change what a case means.

use serde_json::{Map, Value};

/// The format this harness reads.
pub const FORMAT: &str = "sse-conformance-corpus/1";

/// One corpus file: its cases, each still raw so that one bad case does not hide the others.
pub struct CorpusFile {
    pub cases: Vec<Value>,
}

/// One case, read.
pub struct Case {
    pub id: String,
    /// The connections in a row; a case with `input` has one.
    pub connections: Vec<Connection>,
    /// The last event ID before the first byte (`""`: none).
    pub initial_last_event_id: String,
    pub expect: Expect,
    /// What else the standard allows here, when it leaves the expectation open.
    pub implementation_defined: Option<String>,
}

/// One connection of a case.
pub struct Connection {
    pub chunks: Vec<Vec<u8>>,
    /// The `Last-Event-ID` it must send (`Some("")` for `null`: none); `None`: not said.
    pub request_last_event_id: Option<String>,
    /// How it ended (`"server closes"`), when the case says.
    pub end: Option<String>,
}

/// What a case expects; `None` where the case does not say.
pub struct Expect {
    pub events: Vec<ExpectedEvent>,
    pub retry: Option<Vec<u64>>,
    pub final_last_event_id: Option<String>,
}

/// An event as the corpus writes it; `id_field` is `None` when the case does not say.
#[derive(Debug)]
pub struct ExpectedEvent {
    pub event_type: String,
    pub data: String,
    pub last_event_id: String,
    pub id_field: Option<Option<String>>,
}

/// Checks a file's keys and `format`; returns its cases.
pub fn read_file(file: &Value) -> Result<CorpusFile, String> {
    let obj = object(file, "the file")?;
    only_keys(
        obj,
        &[
            "format",
            "license",
            "retrieved_via",
            "semantics",
            "harness_notes",
            "cases",
        ],
        "the file",
    )?;
    match obj.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        other => {
            return Err(format!(
                "`format` is {}, expected {FORMAT:?}",
                other.unwrap_or(&Value::Null)
            ))
        }
    }
    // Transcribed data must say under which terms it may be copied.
    non_empty_text(obj, "license", "the file")?;
    optional_text(obj, "retrieved_via", "the file")?;
    optional_text(obj, "semantics", "the file")?;
    if let Some(notes) = obj.get("harness_notes") {
        let all_text = notes
            .as_array()
            .is_some_and(|list| list.iter().all(Value::is_string));
        if !all_text {
            return Err(format!("`harness_notes` is {notes}, not a list of strings"));
        }
    }
    match obj.get("cases") {
        Some(Value::Array(cases)) => Ok(CorpusFile {
            cases: cases.clone(),
        }),
        _ => Err("no `cases` list".into()),
    }
}

/// The case's `id`, if it has a usable one (for naming it before it is read).
pub fn case_id(case: &Value) -> Option<&str> {
    case.get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
}

/// Reads one case, checking every key.
pub fn read_case(case: &Value) -> Result<Case, String> {
    let obj = object(case, "case")?;
    only_keys(
        obj,
        &[
            "id",
            "description",
            "source",
            "input",
            "connections",
            "initial_last_event_id",
            "expect",
            "implementation_defined",
            // Used by wpt.json although the README does not list it: `true` marks a case
            // about chunk boundaries, whose chunks as given must then split its bytes.
            "chunk_boundary_case",
        ],
        "case",
    )?;
    let id = non_empty_text(obj, "id", "case")?;
    // `description` may be empty (a WPT test without a title), but it must be there.
    match obj.get("description") {
        Some(Value::String(_)) => {}
        other => {
            return Err(format!(
                "case `description` is {}, not a string",
                other.unwrap_or(&Value::Null)
            ))
        }
    }
    match obj.get("source") {
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(Value::Object(map)) if !map.is_empty() && map.values().all(Value::is_string) => {}
        other => {
            return Err(format!(
                "case `source` is {}, not a non-empty string or object of strings",
                other.unwrap_or(&Value::Null)
            ))
        }
    }
    let initial_last_event_id = optional_text(obj, "initial_last_event_id", "case")?
        .unwrap_or_default()
        .to_owned();
    let connections = read_connections(obj)?;
    if let Some(flag) = obj.get("chunk_boundary_case") {
        let Value::Bool(flag) = flag else {
            return Err(format!(
                "case `chunk_boundary_case` is {flag}, not a boolean"
            ));
        };
        if *flag && connections.iter().all(|c| c.chunks.len() < 2) {
            return Err("`chunk_boundary_case` is true but no connection has two chunks".into());
        }
    }
    let implementation_defined = match obj.get("implementation_defined") {
        None => None,
        Some(_) => Some(non_empty_text(obj, "implementation_defined", "case")?.to_owned()),
    };
    let expect = read_expect(obj.get("expect").ok_or("case has no `expect`")?)?;
    Ok(Case {
        id: id.to_owned(),
        connections,
        initial_last_event_id,
        expect,
        implementation_defined,
    })
}

/// The case's connections: its `connections` list, or one connection from its `input`.
fn read_connections(case: &Map<String, Value>) -> Result<Vec<Connection>, String> {
    match (case.get("input"), case.get("connections")) {
        (Some(input), None) => Ok(vec![Connection {
            chunks: read_input(input, "input")?,
            // The only connection sends the initial last event ID: checked like any other.
            request_last_event_id: Some(
                optional_text(case, "initial_last_event_id", "case")?
                    .unwrap_or_default()
                    .to_owned(),
            ),
            end: None,
        }]),
        (None, Some(Value::Array(list))) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(k, conn)| read_connection(k, conn))
            .collect(),
        (Some(_), Some(_)) => Err("case has both `input` and `connections`".into()),
        _ => Err("case needs `input` or a non-empty `connections` list".into()),
    }
}

fn read_connection(k: usize, conn: &Value) -> Result<Connection, String> {
    let what = format!("connections[{k}]");
    let obj = object(conn, &what)?;
    only_keys(obj, &["request_last_event_id", "input", "end"], &what)?;
    let request_last_event_id = match obj.get("request_last_event_id") {
        None => None,
        Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(format!("{what}.request_last_event_id is {other}")),
    };
    let end = match obj.get("end") {
        None => None,
        Some(_) => Some(non_empty_text(obj, "end", &what)?.to_owned()),
    };
    let input = obj
        .get("input")
        .ok_or_else(|| format!("{what} has no `input`"))?;
    Ok(Connection {
        chunks: read_input(input, &format!("{what}.input"))?,
        request_last_event_id,
        end,
    })
}

/// `chunks` (UTF-8 strings) or `chunks_hex` (raw bytes), as byte chunks.
fn read_input(input: &Value, what: &str) -> Result<Vec<Vec<u8>>, String> {
    let obj = object(input, what)?;
    only_keys(obj, &["chunks", "chunks_hex"], what)?;
    match (obj.get("chunks"), obj.get("chunks_hex")) {
        (Some(Value::Array(chunks)), None) => chunks
            .iter()
            .map(|c| {
                c.as_str()
                    .map(|s| s.as_bytes().to_vec())
                    .ok_or_else(|| format!("{what}.chunks holds {c}, not a string"))
            })
            .collect(),
        (None, Some(Value::Array(chunks))) => chunks
            .iter()
            .map(|c| {
                let hex = c
                    .as_str()
                    .ok_or_else(|| format!("{what}.chunks_hex holds {c}, not a string"))?;
                decode_hex(hex).map_err(|e| format!("{what}.chunks_hex: {e}"))
            })
            .collect(),
        _ => Err(format!(
            "{what} needs exactly one of `chunks` or `chunks_hex`, as a list"
        )),
    }
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if hex.len() % 2 != 0 || !hex.is_ascii() {
        return Err(format!("{hex:?} is not an even number of hex digits"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&hex[i..i + 2], 16)
                .map_err(|_| format!("{hex:?}: {:?} is not a hex byte", &hex[i..i + 2]))
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
    let final_last_event_id =
        optional_text(obj, "final_last_event_id", "expect")?.map(str::to_owned);
    Ok(Expect {
        events,
        retry,
        final_last_event_id,
    })
}

fn read_expected_event(i: usize, e: &Value) -> Result<ExpectedEvent, String> {
    let what = format!("expect.events[{i}]");
    let obj = object(e, &what)?;
    only_keys(obj, &["type", "data", "last_event_id", "id_field"], &what)?;
    let text = |key: &str| -> Result<String, String> {
        obj.get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("{what}.{key} must be a string"))
    };
    let id_field = match obj.get("id_field") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(other) => return Err(format!("{what}.id_field is {other}")),
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

/// `obj[key]` as a string, or `None` when absent; an error when it is something else.
fn optional_text<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<Option<&'a str>, String> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("{what} `{key}` is {other}, not a string")),
    }
}

/// `obj[key]` as a non-empty string; an error naming the key otherwise.
fn non_empty_text<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<&'a str, String> {
    match optional_text(obj, key, what)? {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(format!("{what} needs a non-empty string `{key}`")),
    }
}

/// Fails on the first key not in `known`, naming it.
fn only_keys(obj: &Map<String, Value>, known: &[&str], what: &str) -> Result<(), String> {
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(format!(
            "{what} has key `{k}`, which this harness does not know"
        )),
        None => Ok(()),
    }
}
