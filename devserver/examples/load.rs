//! Load benchmark: 32 clients answer calls over loopback while the agent keeps 1,000 calls in
//! flight. Prints calls per second and the dispatch-to-settled latency p50/p99.
//!
//! `cargo run --release -p devserver --example load [-- TOTAL_CALLS [IN_FLIGHT]]` (defaults
//! 20,000 and 1,000).
//!
//! Each client is a registration with its own event stream (so every event goes down 33
//! streams, as the protocol has it) and acks and answers on kept-alive connections. The agent
//! dispatches on 128 connections under a 1,000-permit semaphore and learns of each settle from
//! its own stream; latency runs from just before the dispatching `POST` to that event.

#[path = "../tests/common/http.rs"]
mod http;

use http::{Conn, EventReader};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Semaphore};

const CLIENTS: usize = 32;
const DISPATCHERS: usize = 128;
const ANSWER_CONNS_PER_CLIENT: usize = 4;

/// When a call was dispatched, or when it settled if the settle was seen first.
enum Seen {
    Dispatched(Instant),
    Settled(Instant),
}

#[tokio::main]
async fn main() {
    let arg = |i: usize, default: usize| -> usize {
        match std::env::args().nth(i) {
            None => default,
            Some(n) => {
                match n.parse() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        eprintln!("usage: load [TOTAL_CALLS [IN_FLIGHT]], whole numbers above 0; got {n:?}");
                        std::process::exit(2);
                    }
                }
            }
        }
    };
    let (total, in_flight) = (arg(1, 20_000), arg(2, 1000));
    let config = devserver::Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        max_pending_calls: in_flight * 2,
        replay_events: 10_000,
        settled_calls: in_flight * 4,
        ..devserver::Config::default()
    };
    let server = devserver::start(config).await.expect("start devserver");
    let addr = server.addr;
    let mut conn = Conn::open(addr).await;
    let s = conn.send("POST", "/v1/sessions", &[], None).await.json();
    let (sid, token) = (
        s["id"].as_str().unwrap().to_owned(),
        s["token"].as_str().unwrap().to_owned(),
    );
    let auth = format!("Bearer {token}");
    let base = format!("/v1/sessions/{sid}");

    for i in 0..CLIENTS {
        let body = json!({"name": format!("c{i}"), "lifetime": {"type": "never"},
                          "tools": [{"name": "echo", "parameters": {"type": "object"}}]});
        let a = conn
            .send(
                "POST",
                &format!("{base}/clients"),
                &headers(&auth),
                Some(body.to_string().into_bytes()),
            )
            .await;
        assert_eq!(a.status, 201, "register: {:?}", a.body);
        let client_id = a.json()["id"].as_str().unwrap().to_owned();
        spawn_client(addr, base.clone(), auth.clone(), client_id).await;
    }

    let run = conn
        .send("POST", &format!("{base}/runs"), &headers(&auth), None)
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let seen: Arc<Mutex<HashMap<String, Seen>>> = Arc::default();
    let latencies: Arc<Mutex<Vec<Duration>>> = Arc::default();
    let permits = Arc::new(Semaphore::new(in_flight));
    let settled = Arc::new(AtomicUsize::new(0));
    let (done_tx, mut done_rx) = mpsc::channel::<()>(1);

    // The agent's stream: every settle frees a permit and yields a latency.
    let mut agent_stream =
        EventReader::open(addr, &format!("{base}/stream"), &headers(&auth)).await;
    {
        let (seen, latencies, permits, settled) = (
            seen.clone(),
            latencies.clone(),
            permits.clone(),
            settled.clone(),
        );
        tokio::spawn(async move {
            loop {
                let Some((event, data)) = agent_stream.next_raw(Duration::from_secs(60)).await
                else {
                    panic!("the agent stream ended");
                };
                if event == "client_tool_failed" {
                    panic!("a call failed under load: {data}");
                }
                if event != "client_tool_succeeded" {
                    continue;
                }
                let now = Instant::now();
                let data: Value = serde_json::from_str(&data).expect("JSON data");
                let call = data["call_id"].as_str().unwrap().to_owned();
                {
                    let mut seen = seen.lock().unwrap();
                    match seen.remove(&call) {
                        Some(Seen::Dispatched(at)) => latencies.lock().unwrap().push(now - at),
                        _ => {
                            seen.insert(call, Seen::Settled(now));
                        }
                    }
                }
                permits.add_permits(1);
                if settled.fetch_add(1, Ordering::Relaxed) + 1 == total {
                    let _ = done_tx.send(()).await;
                    return;
                }
            }
        });
    }

    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let in_flight_samples: Arc<Mutex<Vec<usize>>> = Arc::default();
    for _ in 0..DISPATCHERS {
        let (seen, latencies, permits, next) = (
            seen.clone(),
            latencies.clone(),
            permits.clone(),
            next.clone(),
        );
        let (auth, path) = (auth.clone(), format!("{base}/runs/{run}/calls"));
        let samples = in_flight_samples.clone();
        tokio::spawn(async move {
            let mut conn = Conn::open(addr).await;
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= total {
                    return;
                }
                permits.acquire().await.expect("semaphore").forget();
                if n % 100 == 0 {
                    samples
                        .lock()
                        .unwrap()
                        .push(in_flight - permits.available_permits());
                }
                let body = json!({"tool": format!("client__c{}__echo", n % CLIENTS), "arguments": {"n": n}});
                let at = Instant::now();
                let a = conn
                    .send(
                        "POST",
                        &path,
                        &headers(&auth),
                        Some(body.to_string().into_bytes()),
                    )
                    .await;
                assert_eq!(a.status, 201, "dispatch: {:?}", a.body);
                let call = a.json()["call_id"].as_str().unwrap().to_owned();
                let mut seen = seen.lock().unwrap();
                match seen.remove(&call) {
                    Some(Seen::Settled(done)) => latencies.lock().unwrap().push(done - at),
                    _ => {
                        seen.insert(call, Seen::Dispatched(at));
                    }
                }
            }
        });
    }
    done_rx.recv().await;
    let elapsed = started.elapsed();
    let mut lat = latencies.lock().unwrap().clone();
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    let samples = in_flight_samples.lock().unwrap();
    let mean_in_flight = samples.iter().sum::<usize>() as f64 / samples.len().max(1) as f64;
    println!("{CLIENTS} clients, {total} calls, up to {in_flight} in flight (mean {mean_in_flight:.0} at dispatch)");
    println!(
        "throughput: {:.0} calls/s over {:.2} s",
        total as f64 / elapsed.as_secs_f64(),
        elapsed.as_secs_f64()
    );
    println!(
        "dispatch-to-settled latency: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} samples)",
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
        lat.len()
    );
}

fn headers(auth: &str) -> Vec<(&str, &str)> {
    vec![
        ("authorization", auth),
        ("content-type", "application/json"),
    ]
}

/// One client: its stream feeds its dispatched calls to connections that ack and answer.
async fn spawn_client(addr: SocketAddr, base: String, auth: String, client_id: String) {
    let mut stream = EventReader::open(addr, &format!("{base}/stream"), &headers(&auth)).await;
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    let rx = Arc::new(tokio::sync::Mutex::new(rx));
    for _ in 0..ANSWER_CONNS_PER_CLIENT {
        let (rx, auth, base, client_id) =
            (rx.clone(), auth.clone(), base.clone(), client_id.clone());
        tokio::spawn(async move {
            let mut conn = Conn::open(addr).await;
            loop {
                let Some(call) = rx.lock().await.recv().await else {
                    return;
                };
                let prefix = format!("{base}/clients/{client_id}/calls/{call}");
                let a = conn
                    .send("POST", &format!("{prefix}/ack"), &headers(&auth), None)
                    .await;
                assert_eq!(a.status, 200, "ack: {:?}", a.body);
                let body = json!({"text": "done", "is_error": false})
                    .to_string()
                    .into_bytes();
                let a = conn
                    .send(
                        "POST",
                        &format!("{prefix}/result"),
                        &headers(&auth),
                        Some(body),
                    )
                    .await;
                assert_eq!(a.status, 200, "result: {:?}", a.body);
            }
        });
    }
    tokio::spawn(async move {
        loop {
            let Some((event, data)) = stream.next_raw(Duration::from_secs(120)).await else {
                return;
            };
            if event != "client_tool_dispatched" {
                continue;
            }
            let data: Value = serde_json::from_str(&data).expect("JSON data");
            if data["client_id"] == client_id.as_str() {
                let _ = tx.send(data["call_id"].as_str().unwrap().to_owned());
            }
        }
    });
}
