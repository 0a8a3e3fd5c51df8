//! devserver: the reference server of the client-tools protocol (`PROTOCOL.md`), built on
//! axum and tokio. It is the SDK's other side in tests and in the demo: sessions, clients,
//! the event stream, deadlines and idempotency as the protocol says, plus the agent's side
//! (runs, the model calling a tool) and fault injection.
//!
//! [`start`] binds and serves in the background (what the tests use); `main.rs` is the
//! command line around it.

pub mod body;
pub mod cli;
pub mod clock;
pub mod cors;
pub mod error;
pub mod extract;
pub mod faults;
pub mod guard;
pub mod idempotency;
pub mod ids;
pub mod routes;
pub mod state;
pub mod statics;
pub mod stream;
pub mod timers;
pub mod ws;

use axum::serve::ListenerExt;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use cli::Config;
pub use state::Hub;

/// A server serving in the background.
pub struct Server {
    /// Where it listens (the real port when the config asked for port 0).
    pub addr: SocketAddr,
    /// Its state, for tests that look inside.
    pub hub: Arc<Hub>,
    task: JoinHandle<()>,
}

impl Server {
    /// `http://HOST:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Waits until the server stops (it only stops on an accept error).
    pub async fn wait(mut self) {
        let _ = (&mut self.task).await;
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Binds `config.addr` and serves on the current tokio runtime.
///
/// Fails when the address cannot be bound (in use, not local, no permission).
pub async fn start(config: Config) -> std::io::Result<Server> {
    let listener = TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let hub = Hub::new(config);
    let app = routes::router(hub.clone());
    // Stream events are small writes: without NODELAY, Nagle holds one back until an ACK.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("devserver: stopped: {e}");
        }
    });
    Ok(Server { addr, hub, task })
}
