//! The static files: a file with a gzipped copy beside it is served as that copy, marked
//! `Content-Encoding: gzip`, to a client that accepts gzip, and as itself to one that does not
//! (scripts/bench-start's throttled loads count the bytes a CDN would send).

mod common;

use common::{request, start, Answer};

/// Whether the answer's `Vary` headers name `Accept-Encoding`.
fn varies_by_encoding(a: &Answer) -> bool {
    a.headers
        .get_all("vary")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|v| v.trim().eq_ignore_ascii_case("accept-encoding"))
}

#[tokio::test]
async fn serves_a_gzipped_copy_to_a_client_that_accepts_it() {
    let dir = std::env::temp_dir().join(format!("devserver-statics-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("m.wasm"), b"the plain bytes").unwrap();
    std::fs::write(dir.join("m.wasm.gz"), b"the gzipped bytes").unwrap();
    std::fs::write(dir.join("only.js"), b"plain only").unwrap();
    let www = dir.clone();
    let server = start(move |c| c.www = Some(www)).await;

    let gz = request(
        server.addr,
        "GET",
        "/m.wasm",
        &[("accept-encoding", "gzip, br")],
        None,
    )
    .await;
    assert_eq!(gz.status, 200);
    assert_eq!(&gz.body[..], b"the gzipped bytes");
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert_eq!(gz.header("content-type"), Some("application/wasm"));
    assert!(varies_by_encoding(&gz));

    let plain = request(
        server.addr,
        "GET",
        "/m.wasm",
        &[("accept-encoding", "gzip;q=0")],
        None,
    )
    .await;
    assert_eq!(&plain.body[..], b"the plain bytes");
    assert_eq!(plain.header("content-encoding"), None);
    assert!(varies_by_encoding(&plain));

    let js = request(
        server.addr,
        "GET",
        "/only.js",
        &[("accept-encoding", "gzip")],
        None,
    )
    .await;
    assert_eq!(&js.body[..], b"plain only");
    assert_eq!(js.header("content-encoding"), None);
    assert!(!varies_by_encoding(&js));
    std::fs::remove_dir_all(&dir).unwrap();
}
