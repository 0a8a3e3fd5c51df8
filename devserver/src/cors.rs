//! CORS for pages on loopback: a page served from any `localhost`, `127.x.x.x` or `[::1]`
//! origin (any port) may call every route with the headers the SDK sends. Other origins get
//! no CORS headers, so a browser keeps their pages out.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

const ALLOW_METHODS: &str = "GET, POST, PUT, DELETE";
const ALLOW_HEADERS: &str = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID";
// What a browser client reads beyond the safelisted headers: the 429 wait, the replay flag.
const EXPOSE_HEADERS: &str = "Retry-After, Idempotent-Replayed";

/// The CORS middleware: answers preflights, and marks answers to loopback origins.
pub async fn cors(req: Request, next: Next) -> Response {
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .filter(|o| o.to_str().is_ok_and(is_loopback_origin))
        .cloned();
    let preflight = req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut response = if preflight {
        match &origin {
            Some(_) => StatusCode::NO_CONTENT.into_response(),
            None => crate::error::HttpError::forbidden(
                "CORS is allowed only for pages on a loopback origin",
            )
            .into_response(),
        }
    } else {
        next.run(req).await
    };
    let headers = response.headers_mut();
    headers.append(header::VARY, HeaderValue::from_static("Origin"));
    if let Some(origin) = origin {
        allow(headers, origin, preflight);
    }
    response
}

fn allow(headers: &mut HeaderMap, origin: HeaderValue, preflight: bool) {
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    if preflight {
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static(ALLOW_METHODS),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(ALLOW_HEADERS),
        );
        headers.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
    } else {
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(EXPOSE_HEADERS),
        );
    }
}

/// Whether an `Origin` is `http(s)://` a loopback host, with any port.
pub fn is_loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, port)) if port.is_empty() || is_port(port) => return h == "::1",
            _ => return false,
        }
    } else {
        match rest.split_once(':') {
            Some((h, port)) if is_port(port) => h,
            Some(_) => return false,
            None => rest,
        }
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn is_port(s: &str) -> bool {
    s.strip_prefix(':').unwrap_or(s).parse::<u16>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::is_loopback_origin;

    #[test]
    fn knows_loopback_origins() {
        for o in [
            "http://localhost:5173",
            "http://127.0.0.1:8080",
            "http://127.5.0.1",
            "https://localhost",
            "http://[::1]:3000",
            "http://app.localhost:1234",
        ] {
            assert!(is_loopback_origin(o), "{o}");
        }
        for o in [
            "null",
            "http://example.com",
            "http://localhost.example.com",
            "http://192.168.1.2:80",
            "http://[::2]:80",
            "file://",
            "http://localhost:99999",
        ] {
            assert!(!is_loopback_origin(o), "{o}");
        }
    }
}
