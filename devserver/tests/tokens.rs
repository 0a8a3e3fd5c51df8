//! `POST …/token` rotates a session's token (issue 29): the old one is refused with 401 from
//! then on, the new one works, a session's token cannot be used on another session.

mod common;

use common::{assert_error, start, Session};
use serde_json::json;

#[tokio::test]
async fn a_rotated_token_is_refused_and_the_fresh_one_works() {
    let server = start(|_| {}).await;
    let mut s = Session::create(&server).await;
    let old = s.token.clone();
    let mut tokens = vec![old.clone()];
    for _ in 0..3 {
        let a = s.post("/token", json!({})).await;
        assert_eq!(a.status, 200, "{:?}", a.body);
        let fresh = a.json()["token"].as_str().unwrap().to_owned();
        assert!(!tokens.contains(&fresh), "a new token each time");
        let before = std::mem::replace(&mut s.token, fresh.clone());
        tokens.push(fresh);
        // The token the rotation was asked with is refused now …
        let refused = Session {
            token: before,
            ..s.clone()
        };
        assert_error(&refused.get("/runs").await, 401, "unauthorized");
        // … and the fresh one is taken.
        assert_eq!(s.get("/runs").await.status, 200);
        let reg = s
            .send(
                "POST",
                "/clients",
                &[("idempotency-key", &format!("k-{}", tokens.len()))],
                Some(json!({"name": "web"})),
            )
            .await;
        assert_eq!(reg.status, 201, "{:?}", reg.body);
    }
    // A session's fresh token is still refused on another session.
    let other = Session::create(&server).await;
    let wrong = Session {
        token: s.token.clone(),
        ..other
    };
    assert_eq!(wrong.get("/runs").await.status, 403);
}
