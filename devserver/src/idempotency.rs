//! `Idempotency-Key`: the first `POST`/`PUT`/`DELETE` with a key runs and its answer (status
//! and body) is kept per session; a request with the same key gets that answer again and
//! changes nothing. A request that arrives while the first is still running waits for its
//! answer. Records expire after `--idempotency-ttl-ms` and at most `--idempotency-records`
//! are kept, oldest dropped first.

use crate::error::HttpError;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::{HashMap, VecDeque};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// The header a replayed answer carries (`true`), so a test or a log can tell.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";

/// A kept answer.
#[derive(Clone, Debug)]
pub struct Stored {
    status: StatusCode,
    body: Bytes,
    content_type: Option<HeaderValue>,
    retry_after: Option<HeaderValue>,
}

impl Stored {
    fn response(&self, replayed: bool) -> Response {
        let mut response = Response::new(Body::from(self.body.clone()));
        *response.status_mut() = self.status;
        let headers = response.headers_mut();
        if let Some(v) = &self.content_type {
            headers.insert(header::CONTENT_TYPE, v.clone());
        }
        if let Some(v) = &self.retry_after {
            headers.insert(header::RETRY_AFTER, v.clone());
        }
        if replayed {
            headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
        }
        response
    }
}

enum Record {
    InFlight(watch::Receiver<Option<Stored>>),
    Done(Stored),
}

/// What to do with a keyed request.
enum Lookup {
    Replay(Stored),
    Wait(watch::Receiver<Option<Stored>>),
    Run(watch::Sender<Option<Stored>>),
}

/// A session's idempotency records.
pub struct IdempotencyStore {
    records: HashMap<String, (Instant, Record)>,
    order: VecDeque<(Instant, String)>,
    ttl: Duration,
    cap: usize,
}

impl IdempotencyStore {
    /// An empty store keeping records `ttl_ms` long, at most `cap` of them.
    pub fn new(ttl_ms: u64, cap: usize) -> Self {
        IdempotencyStore {
            records: HashMap::new(),
            order: VecDeque::new(),
            ttl: Duration::from_millis(ttl_ms),
            cap: cap.max(1),
        }
    }

    /// How many records are held (for tests of the bound).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no record is held.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn begin(&mut self, key: &str, now: Instant) -> Lookup {
        self.prune(now);
        match self.records.get(key) {
            Some((_, Record::Done(stored))) => return Lookup::Replay(stored.clone()),
            Some((_, Record::InFlight(rx))) => return Lookup::Wait(rx.clone()),
            None => {}
        }
        while self.records.len() >= self.cap {
            self.pop_oldest();
        }
        let (tx, rx) = watch::channel(None);
        self.records
            .insert(key.to_owned(), (now, Record::InFlight(rx)));
        self.order.push_back((now, key.to_owned()));
        Lookup::Run(tx)
    }

    fn finish(&mut self, key: &str, stored: Stored) {
        if let Some((_, record)) = self.records.get_mut(key) {
            *record = Record::Done(stored);
        }
    }

    fn abandon(&mut self, key: &str) {
        if matches!(self.records.get(key), Some((_, Record::InFlight(_)))) {
            self.records.remove(key);
        }
    }

    fn prune(&mut self, now: Instant) {
        while let Some((at, _)) = self.order.front() {
            if now.saturating_duration_since(*at) < self.ttl {
                break;
            }
            self.pop_oldest();
        }
    }

    fn pop_oldest(&mut self) {
        if let Some((at, key)) = self.order.pop_front() {
            // A key dropped earlier and used again has a newer record: keep that one.
            if self.records.get(&key).is_some_and(|(t, _)| *t == at) {
                self.records.remove(&key);
            }
        }
    }
}

/// Whatever holds an [`IdempotencyStore`]: a session (its routes), the hub (session creation).
pub trait Keeper: Send + Sync {
    /// Runs `f` on the store, locked.
    fn with_store<R>(&self, f: impl FnOnce(&mut IdempotencyStore) -> R) -> R;
}

/// Removes an in-flight record whose request was dropped (its client went away), so a retry
/// with the same key runs instead of waiting forever.
struct AbandonOnDrop<'a, K: Keeper> {
    keeper: &'a K,
    key: &'a str,
    armed: bool,
}

impl<K: Keeper> Drop for AbandonOnDrop<'_, K> {
    fn drop(&mut self) {
        if self.armed {
            self.keeper.with_store(|s| s.abandon(self.key));
        }
    }
}

/// Runs `req` under its `Idempotency-Key`, if it has one and changes state.
pub async fn run<K: Keeper>(keeper: &K, req: Request, next: Next) -> Response {
    let changes_state = matches!(*req.method(), Method::POST | Method::PUT | Method::DELETE);
    let key = match req.headers().get("idempotency-key") {
        Some(v) if changes_state => v.to_str().ok().map(str::to_owned),
        _ => return next.run(req).await,
    };
    let key = match key {
        Some(k) if (1..=255).contains(&k.len()) => k,
        _ => {
            return HttpError::invalid(
                "Idempotency-Key",
                "must be 1 to 255 visible ASCII characters",
            )
            .into_response()
        }
    };
    loop {
        let lookup = keeper.with_store(|s| s.begin(&key, Instant::now()));
        match lookup {
            Lookup::Replay(stored) => return stored.response(true),
            Lookup::Wait(mut rx) => {
                if let Ok(answer) = rx.wait_for(Option::is_some).await {
                    if let Some(stored) = answer.clone() {
                        return stored.response(true);
                    }
                }
                // The first request was dropped and its record removed: run this one.
            }
            Lookup::Run(tx) => {
                let mut guard = AbandonOnDrop {
                    keeper,
                    key: &key,
                    armed: true,
                };
                let response = next.run(req).await;
                let (parts, body) = response.into_parts();
                let body = match axum::body::to_bytes(body, usize::MAX).await {
                    Ok(b) => b,
                    Err(e) => {
                        return HttpError::with_status(
                            StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
                            format!("could not keep the answer: {e}"),
                        )
                        .into_response()
                    }
                };
                let stored = Stored {
                    status: parts.status,
                    body,
                    content_type: parts.headers.get(header::CONTENT_TYPE).cloned(),
                    retry_after: parts.headers.get(header::RETRY_AFTER).cloned(),
                };
                keeper.with_store(|s| s.finish(&key, stored.clone()));
                guard.armed = false;
                tx.send_replace(Some(stored.clone()));
                return stored.response(false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(status: u16) -> Stored {
        Stored {
            status: StatusCode::from_u16(status).unwrap(),
            body: Bytes::from_static(b"{}"),
            content_type: None,
            retry_after: None,
        }
    }

    #[test]
    fn records_expire_and_are_capped() {
        let t0 = Instant::now();
        let mut store = IdempotencyStore::new(1000, 2);
        assert!(matches!(store.begin("a", t0), Lookup::Run(_)));
        store.finish("a", stored(201));
        assert!(matches!(store.begin("a", t0), Lookup::Replay(s) if s.status == 201));
        assert!(matches!(store.begin("b", t0), Lookup::Run(_)));
        assert!(matches!(store.begin("b", t0), Lookup::Wait(_)));
        assert!(matches!(store.begin("c", t0), Lookup::Run(_)));
        assert_eq!(store.len(), 2, "the oldest record made room");
        assert!(matches!(store.begin("a", t0), Lookup::Run(_)));
        let later = t0 + Duration::from_millis(1000);
        store.prune(later);
        assert!(store.is_empty());
    }
}
