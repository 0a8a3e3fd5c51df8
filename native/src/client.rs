//! The handle an app holds: register, read the registration, replace the tools, leave.

use crate::driver::{self, Command, Info};
use crate::options::{Options, Tool};
use client_tools_core::api::{Error, ErrorKind};
use client_tools_core::engine::ClientState;
use tokio::sync::{mpsc, oneshot, watch};

/// A registered client of one session, serving its tools until it leaves.
///
/// The protocol runs on a tokio task of its own: it acks and answers calls, keeps the event
/// stream open (reconnecting with `Last-Event-ID`, reading the pending calls after every
/// reconnect), pings a TTL lifetime, and registers again if the server forgot the client.
///
/// **Dropping** the handle without [`Client::leave`] makes that task leave in the
/// background: running handlers are cancelled, the stream closes and the `DELETE` is sent;
/// the task ends once it is answered, or 10 s later at most. Nothing blocks the drop, and
/// nothing keeps the runtime from shutting down: if the runtime stops first, the `DELETE`
/// may never be sent, and a `Lifetime::Never` client then stays listed on the server (its
/// calls fail `ack_timeout`) until the session ends. Await [`Client::leave`] to be sure.
#[derive(Debug)]
pub struct Client {
    commands: mpsc::UnboundedSender<Command>,
    info: watch::Receiver<Info>,
}

impl Client {
    /// Registers with the server and returns once registered, with the tools on offer and
    /// the event stream on its way. Must run inside a tokio runtime (the client spawns its
    /// task there).
    ///
    /// Fails with [`ErrorKind::InvalidOption`] naming the option at fault before anything is
    /// sent; with [`ErrorKind::Unauthorized`] or [`ErrorKind::Rejected`] if the server refuses
    /// the token or the registration; with [`ErrorKind::RegisterTimeout`] if no registration
    /// succeeded within [`Options::register_timeout`] (30 s by default; network errors and
    /// 5xx answers are retried until then), saying what failed last. Once it failed, nothing
    /// goes on registering in the background.
    pub async fn register(options: Options) -> Result<Client, Error> {
        let started = driver::start(options)?;
        match started.registered.await {
            Ok(Ok(())) => Ok(Client {
                commands: started.commands,
                info: started.info,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(stopped()),
        }
    }

    /// The client id the server gave (`cli_…`); it changes if the client registers again.
    /// `None` once it left.
    pub fn id(&self) -> Option<String> {
        self.info.borrow().id.clone()
    }

    /// The name the server gave: the one asked for, or with a counter (`worker-2`).
    pub fn name(&self) -> Option<String> {
        self.info.borrow().name.clone()
    }

    /// Registered, registering again, left, or stopped for good after a fatal error.
    pub fn state(&self) -> ClientState {
        self.info.borrow().state
    }

    /// Replaces the tools on offer; returns once the server has the new list. Calls that
    /// arrive from now on use the new tools; handlers already running go on.
    pub async fn set_tools(&self, tools: Vec<Tool>) -> Result<(), Error> {
        self.ask(|reply| Command::SetTools(tools, reply)).await
    }

    /// Leaves: cancels running handlers, closes the stream and sends the `DELETE`; returns
    /// once the server took it. The server then fails every call this client still owed
    /// with `client_gone`. Leaving twice is fine.
    pub async fn leave(&self) -> Result<(), Error> {
        match self.ask(Command::Leave).await {
            // The task ended: it already left (or stopped), which is what was asked.
            Err(e) if e.kind() == ErrorKind::NotRegistered && self.state() == ClientState::Left => {
                Ok(())
            }
            other => other,
        }
    }

    /// Waits until the client has stopped for good: it left, or a fatal error (the token
    /// refused) stopped it. A worker can serve until then.
    pub async fn stopped(&self) {
        let mut info = self.info.clone();
        // The task drops its sender when it ends.
        while info.changed().await.is_ok() {}
    }

    async fn ask(
        &self,
        command: impl FnOnce(oneshot::Sender<Result<(), Error>>) -> Command,
    ) -> Result<(), Error> {
        let (reply, answer) = oneshot::channel();
        self.commands.send(command(reply)).map_err(|_| stopped())?;
        answer.await.unwrap_or_else(|_| Err(stopped()))
    }
}

fn stopped() -> Error {
    Error::new(ErrorKind::NotRegistered, "the client has stopped")
}

#[cfg(test)]
mod tests {
    /// A client can be shared between tasks (`Arc<Client>`) and moved into one.
    #[test]
    fn a_client_is_send_and_sync() {
        fn shareable<T: Send + Sync + 'static>() {}
        shareable::<super::Client>();
        shareable::<crate::Error>();
    }
}
