//! The `devserver` command: parses the command line, listens, and prints
//! `listening on http://HOST:PORT` as its first line on stdout.

use devserver::cli::{self, Command};
use std::io::Write;
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Run(config)) => *config,
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("devserver: {e}");
            return ExitCode::from(2);
        }
    };
    let server = match devserver::start(config.clone()).await {
        Ok(server) => server,
        Err(e) => {
            eprintln!("devserver: cannot listen on {}: {e}", config.addr);
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    // Tests and scripts wait for this line; flush it so a pipe sees it at once.
    let _ = writeln!(out, "listening on {}", server.url());
    let _ = out.flush();
    drop(out);
    tokio::select! {
        _ = server.wait() => ExitCode::FAILURE,
        _ = tokio::signal::ctrl_c() => ExitCode::SUCCESS,
    }
}
