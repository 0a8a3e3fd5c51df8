//! Registrations over real HTTP: names and counters, limits, validation naming the field,
//! TTL lapse on time, ping, leave, replacing tools, and what the model sees.

mod common;

use common::{start, Session, SOON};
use serde_json::json;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn never() -> serde_json::Value {
    json!({"type": "never"})
}

#[tokio::test]
async fn register_answers_the_client_object() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let a = s
        .post(
            "/clients",
            json!({"name": "web", "lifetime": {"type": "ttl", "data": {"seconds": 60}},
                   "tools": [{"name": "highlight_row", "parameters": {"type": "object"}}]}),
        )
        .await;
    assert_eq!(a.status, 201);
    let v = a.json();
    assert!(v["id"].as_str().unwrap().starts_with("cli_"));
    assert_eq!(v["name"], "web");
    assert_eq!(
        v["lifetime"],
        json!({"type": "ttl", "data": {"seconds": 60}})
    );
    assert_eq!(v["tools"][0]["name"], "highlight_row");
    assert_eq!(v["tools"][0]["description"], "");
    let expires =
        client_tools_core::protocol::time::parse_rfc3339(v["expires_at"].as_str().unwrap())
            .expect("RFC 3339");
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    assert!(expires.abs_diff(now + 60_000) < 2_000, "{expires} vs {now}");
    let n = s.register("never", never(), &[]).await;
    assert_eq!(n["expires_at"], serde_json::Value::Null);
}

#[tokio::test]
async fn taken_names_get_a_counter_cut_to_32_and_freed_names_return() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    assert_eq!(s.register("web", never(), &[]).await["name"], "web");
    let second = s.register("web", never(), &[]).await;
    assert_eq!(second["name"], "web-2");
    assert_eq!(s.register("web", never(), &[]).await["name"], "web-3");
    let long = "a".repeat(32);
    assert_eq!(s.register(&long, never(), &[]).await["name"], long.as_str());
    let cut = s.register(&long, never(), &[]).await;
    assert_eq!(cut["name"], format!("{}-2", "a".repeat(30)));
    // web-2 leaves: its name is free again, and the next "web" gets it.
    let id = second["id"].as_str().unwrap();
    assert_eq!(s.delete(&format!("/clients/{id}")).await.status, 204);
    assert_eq!(s.register("web", never(), &[]).await["name"], "web-2");
}

#[tokio::test]
async fn a_session_holds_at_most_max_clients() {
    let server = start(|c| c.max_clients = 3).await;
    let s = Session::create(&server).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(
            s.register("w", never(), &[]).await["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let a = s.post("/clients", json!({"name": "w"})).await;
    assert_eq!(
        (a.status, a.error_type().as_str()),
        (409, "client_limit_reached")
    );
    s.delete(&format!("/clients/{}", ids[0])).await;
    assert_eq!(s.post("/clients", json!({"name": "w"})).await.status, 201);
}

#[tokio::test]
async fn the_protocols_default_is_32_clients() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    for i in 0..32 {
        s.register(&format!("c{i}"), never(), &[]).await;
    }
    let a = s.post("/clients", json!({"name": "one-more"})).await;
    assert_eq!(
        (a.status, a.error_type().as_str()),
        (409, "client_limit_reached")
    );
}

#[tokio::test]
async fn bad_registrations_name_the_field() {
    let server = start(|c| c.ttl_min_seconds = 5).await;
    let s = Session::create(&server).await;
    let tool = |name: &str| json!({"name": name});
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": "Web"}), "name"),
        (json!({"name": "a".repeat(33)}), "name"),
        (json!({"name": 7}), "name"),
        (json!({}), "name"),
        (
            json!({"name": "w", "lifetime": {"type": "ttl", "data": {"seconds": 4}}}),
            "lifetime.data.seconds",
        ),
        (
            json!({"name": "w", "lifetime": {"type": "ttl", "data": {"seconds": 3601}}}),
            "lifetime.data.seconds",
        ),
        (
            json!({"name": "w", "tools": [tool("ok"), tool("ok")]}),
            "tools[1].name",
        ),
        (
            json!({"name": "w", "tools": [tool("ok"), tool("no spaces")]}),
            "tools[1].name",
        ),
        (
            json!({"name": "w", "tools": [tool(&"t".repeat(65))]}),
            "tools[0].name",
        ),
        (
            json!({"name": "w", "tools": [{"name": "t", "description": "d".repeat(4097)}]}),
            "tools[0].description",
        ),
        (
            json!({"name": "w", "tools": [{"name": "t", "parameters": []}]}),
            "tools[0].parameters",
        ),
        (
            json!({"name": "w", "tools": (0..65).map(|i| tool(&format!("t{i}"))).collect::<Vec<_>>()}),
            "tools",
        ),
        (json!({"name": "w", "tools": "x"}), "tools"),
    ];
    for (body, param) in cases {
        let a = s.post("/clients", body.clone()).await;
        assert_eq!(a.status, 400, "{body}");
        let e = a.json();
        assert_eq!(e["error"]["type"], "invalid_request", "{body}");
        assert_eq!(e["error"]["param"], param, "{body}: {e}");
        assert!(!e["error"]["message"].as_str().unwrap().is_empty());
    }
    // Exactly at the limits is fine.
    let ok = json!({"name": "a".repeat(32), "lifetime": {"type": "ttl", "data": {"seconds": 5}},
        "tools": (0..64).map(|i| json!({"name": format!("{i}{}", "t".repeat(62)),
                                         "description": "d".repeat(4096)})).collect::<Vec<_>>()});
    assert_eq!(s.post("/clients", ok).await.status, 201);
    // Nothing bad got in.
    assert_eq!(s.client_count().await, 1);
}

#[tokio::test]
async fn a_ttl_client_lapses_within_100ms_of_expires_at_and_frees_its_name() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let mut stream = s.stream(None).await;
    let c = s
        .register(
            "web",
            json!({"type": "ttl", "data": {"seconds": 1}}),
            &["t"],
        )
        .await;
    let id = c["id"].as_str().unwrap().to_owned();
    let expires =
        client_tools_core::protocol::time::parse_rfc3339(c["expires_at"].as_str().unwrap())
            .unwrap();
    let (data, skipped) = stream.until("client_expired", SOON).await;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    assert_eq!(skipped, vec!["client_registered"]);
    assert_eq!(
        data,
        json!({"type": "client_expired", "client_id": id, "name": "web"})
    );
    assert!(
        now + 5 >= expires && now <= expires + 100,
        "lapsed at {now}, expires_at {expires}"
    );
    let a = s.post(&format!("/clients/{id}/ping"), json!({})).await;
    assert_eq!((a.status, a.error_type().as_str()), (404, "not_found"));
    assert_eq!(s.register("web", never(), &[]).await["name"], "web");
    assert!(s.get("/tools").await.json()["tools"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_ping_extends_the_ttl_from_now() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let c = s
        .register("web", json!({"type": "ttl", "data": {"seconds": 1}}), &[])
        .await;
    let id = c["id"].as_str().unwrap();
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(600)).await;
        let a = s
            .send(
                "POST",
                &format!("/clients/{id}/ping"),
                &[(
                    "idempotency-key",
                    &format!("{:?}", std::time::Instant::now()),
                )],
                None,
            )
            .await;
        assert_eq!(a.status, 200, "still live after {} ms of pings", 600);
        let at = client_tools_core::protocol::time::parse_rfc3339(
            a.json()["expires_at"].as_str().unwrap(),
        )
        .unwrap();
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(at.abs_diff(now + 1000) < 100, "{at} vs {now}");
    }
    // A never client pings too, and keeps expires_at null.
    let n = s.register("n", never(), &[]).await;
    let a = s
        .post(
            &format!("/clients/{}/ping", n["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!((a.status, a.json()), (200, json!({"expires_at": null})));
}

#[tokio::test]
async fn leave_answers_204_then_404_and_emits_client_left() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let c = s.register("web", never(), &["t"]).await;
    let id = c["id"].as_str().unwrap();
    assert_eq!(s.delete(&format!("/clients/{id}")).await.status, 204);
    let a = s.delete(&format!("/clients/{id}")).await;
    assert_eq!((a.status, a.error_type().as_str()), (404, "not_found"));
    assert_eq!(s.get(&format!("/clients/{id}/calls")).await.status, 404);
    assert_eq!(
        s.event_types(0).await,
        vec!["client_registered", "client_left"]
    );
}

#[tokio::test]
async fn replacing_tools_changes_what_the_model_sees() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let c = s.register("web", never(), &["a", "b"]).await;
    let id = c["id"].as_str().unwrap();
    let names = |v: serde_json::Value| -> Vec<String> {
        v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names(s.get("/tools").await.json()),
        vec!["client__web__a", "client__web__b"]
    );
    let tools = s.get("/tools").await.json();
    assert_eq!(
        tools["tools"][0]["parameters"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(tools["tools"][0]["description"], "the a tool");
    let a = s
        .send(
            "PUT",
            &format!("/clients/{id}/tools"),
            &[],
            Some(json!({"tools": [{"name": "c"}]})),
        )
        .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json()["name"], "web");
    assert_eq!(a.json()["tools"], json!([{"name": "c", "description": ""}]));
    assert_eq!(names(s.get("/tools").await.json()), vec!["client__web__c"]);
    let bad = s
        .send(
            "PUT",
            &format!("/clients/{id}/tools"),
            &[],
            Some(json!({"tools": [{"name": "c"}, {"name": "c"}]})),
        )
        .await;
    assert_eq!(
        (bad.status, bad.json()["error"]["param"].clone()),
        (400, json!("tools[1].name"))
    );
    assert_eq!(
        names(s.get("/tools").await.json()),
        vec!["client__web__c"],
        "a bad list changes nothing"
    );
    assert_eq!(
        s.event_types(0).await,
        vec!["client_registered", "client_tools_replaced"]
    );
}
