//! A backend worker serving two tools to an agent session until ctrl-c, then leaving.
//!
//! ```sh
//! cargo run -p devserver -- --session demo:secret &
//! cargo run -p client-tools-native --example worker -- http://127.0.0.1:8787 demo secret
//! ```

use client_tools_native::{Client, Options, Status, Tool};
use serde_json::json;
use std::time::Duration;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let base = args
        .next()
        .unwrap_or_else(|| "http://127.0.0.1:8787".into());
    let session = args.next().unwrap_or_else(|| "demo".into());
    let token = args.next().unwrap_or_else(|| "secret".into());

    let add = Tool::new("add", "Adds two numbers.", |args, _ctx| async move {
        json!(args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0))
    })
    .parameters(json!({"type": "object", "required": ["a", "b"],
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}));
    // A slow tool that stops when its call is no longer wanted.
    let wait = Tool::new("wait", "Waits some seconds.", |args, ctx| async move {
        let secs = args["seconds"].as_u64().unwrap_or(1).min(20);
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(secs)) => Ok(format!("waited {secs} s")),
            () = ctx.cancellation().cancelled() => Err("cancelled"),
        }
    })
    .parameters(json!({"type": "object", "properties": {"seconds": {"type": "integer"}}}));

    let client = Client::register(
        Options::new(base, session, token)
            .name("worker")
            .tool(add)
            .tool(wait)
            .on_status(|s: &Status| eprintln!("status: {s:?}"))
            .on_call(|c| eprintln!("call: {c:?}")),
    )
    .await?;
    eprintln!(
        "registered as {}; ctrl-c to leave",
        client.name().unwrap_or_default()
    );
    tokio::select! {
        _ = tokio::signal::ctrl_c() => client.leave().await?,
        () = client.stopped() => eprintln!("the client stopped"),
    }
    Ok(())
}
