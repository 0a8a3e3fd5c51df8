//! The built `devserver` binary, black-box: its first stdout line, port 0, the options, and a
//! clear error for a bad command line.

mod common;

use common::request;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(args: &[&str]) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_devserver"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn devserver");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("read first line");
    (Running(child), line)
}

#[tokio::test]
async fn prints_where_it_listens_and_serves_the_given_sessions() {
    let (_server, line) = spawn(&[
        "--addr",
        "127.0.0.1:0",
        "--session",
        "demo:secret",
        "--ack-timeout-ms",
        "100",
    ]);
    let url = line
        .trim_end()
        .strip_prefix("listening on http://")
        .expect(&line);
    let addr: SocketAddr = url.parse().expect("HOST:PORT");
    assert_eq!(addr.ip().to_string(), "127.0.0.1");
    assert_ne!(addr.port(), 0);
    let a = request(
        addr,
        "GET",
        "/v1/sessions/demo/clients",
        &[("authorization", "Bearer secret")],
        None,
    )
    .await;
    assert_eq!(a.status, 200);
    let a = request(
        addr,
        "GET",
        "/v1/sessions/demo/clients",
        &[("authorization", "Bearer wrong")],
        None,
    )
    .await;
    assert_eq!(a.status, 401);
}

#[test]
fn a_bad_option_is_a_clear_error() {
    for (args, needle) in [
        (&["--bogus"][..], "unknown option --bogus"),
        (&["--heartbeat-ms", "soon"][..], "--heartbeat-ms"),
        (&["--addr"][..], "--addr needs a value"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_devserver"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    let help = Command::new(env!("CARGO_BIN_EXE_devserver"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--replay-events"));
}
