//! Static files for the demo: `--www DIR` at `/`, `--pkg DIR` at `/pkg/`, `--docs DIR` at `/docs/`, with the MIME types a
//! browser needs (`application/wasm` for streaming compilation, `text/javascript` for modules).
//! A file with a gzipped copy beside it (`x.wasm.gz`) is served as that copy, with
//! `Content-Encoding: gzip`, to a browser that accepts it: as a CDN serves the package, so that
//! `scripts/bench-start` under a throttled network counts the bytes a phone user gets.

use crate::error::HttpError;
use crate::state::Hub;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use client_tools_sessions::routes::percent_decode;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The fallback route: a file under `--pkg`, `--docs` or `--www`, or 404.
pub async fn serve(
    State(hub): State<Arc<Hub>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let (root, rel) = if let Some(rel) = path.strip_prefix("/pkg/") {
        (hub.config.pkg.as_deref(), rel)
    } else if let Some(rel) = path.strip_prefix("/docs/") {
        (hub.config.docs.as_deref(), rel)
    } else {
        (hub.config.www.as_deref(), path.trim_start_matches('/'))
    };
    let not_found = || HttpError::not_found(format!("no route or file {path}")).into_response();
    let Some(root) = root else {
        return not_found();
    };
    if method != Method::GET && method != Method::HEAD {
        return HttpError::method_not_allowed().into_response();
    }
    let Some(file) = resolve(root, rel) else {
        return not_found();
    };
    let content_type = mime_type(&file);
    let accept = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok());
    let copy = gzipped_copy(&file);
    let has_copy = copy.is_some();
    let encoded = has_copy && accepts_gzip(accept);
    let file = match copy {
        Some(copy) if encoded => copy,
        _ => file,
    };
    let read = tokio::task::spawn_blocking(move || std::fs::read(file)).await;
    let Ok(Ok(bytes)) = read else {
        return not_found();
    };
    let mut response = if method == Method::HEAD {
        let mut r = Response::new(Body::empty());
        r.headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
        r
    } else {
        Response::new(Body::from(bytes))
    };
    *response.status_mut() = StatusCode::OK;
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // A demo under development: always the file on disk now.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if encoded {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    if has_copy {
        h.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// `file`'s gzipped copy (`file.gz`), if there is one.
fn gzipped_copy(file: &Path) -> Option<PathBuf> {
    let mut name = file.file_name()?.to_os_string();
    name.push(".gz");
    let copy = file.with_file_name(name);
    copy.is_file().then_some(copy)
}

/// Whether an `Accept-Encoding` header accepts gzip: listed without `q=0`, or not listed and
/// `*` is, without `q=0`.
fn accepts_gzip(accept: Option<&str>) -> bool {
    // Each coding's name and whether it is accepted (its q is not 0).
    let codings = accept.unwrap_or_default().split(',').map(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (name, !refused)
    });
    let (mut gzip, mut any) = (None, None);
    for (name, accepted) in codings {
        if name.eq_ignore_ascii_case("gzip") {
            gzip = Some(accepted);
        } else if name == "*" {
            any = Some(accepted);
        }
    }
    gzip.or(any).unwrap_or(false)
}

/// The file a URL path names under `root`; `None` for a path that would leave it.
fn resolve(root: &Path, rel: &str) -> Option<PathBuf> {
    let rel = percent_decode(rel)?;
    let mut file = root.to_path_buf();
    for segment in rel.split('/').filter(|s| !s.is_empty()) {
        if segment == "." || segment == ".." || segment.contains('\\') || segment.contains('\0') {
            return None;
        }
        file.push(segment);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    Some(file)
}

/// The MIME type of a file by its extension.
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "ts" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_that_leave_the_root() {
        let root = Path::new("/srv/www");
        assert_eq!(
            resolve(root, "a/b.js"),
            Some(PathBuf::from("/srv/www/a/b.js"))
        );
        assert_eq!(
            resolve(root, "a%20b.js"),
            Some(PathBuf::from("/srv/www/a b.js"))
        );
        assert_eq!(resolve(root, "../etc/passwd"), None);
        assert_eq!(resolve(root, "a/%2e%2e/%2e%2e/x"), None);
        assert_eq!(resolve(root, "bad%zz"), None);
    }

    #[test]
    fn reads_accept_encoding() {
        assert!(accepts_gzip(Some("gzip, deflate, br, zstd")));
        assert!(accepts_gzip(Some("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts_gzip(Some("*")));
        assert!(!accepts_gzip(Some("gzip;q=0, br")));
        assert!(!accepts_gzip(Some("gzip;q=0, *")));
        assert!(accepts_gzip(Some("br, *;q=0.1")));
        assert!(!accepts_gzip(Some("br, identity")));
        assert!(!accepts_gzip(Some("")));
        assert!(!accepts_gzip(None));
    }

    #[test]
    fn finds_a_gzipped_copy_beside_the_file() {
        let dir = std::env::temp_dir().join(format!("devserver-statics-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.wasm"), b"plain").unwrap();
        std::fs::write(dir.join("a.wasm.gz"), b"gzipped").unwrap();
        std::fs::write(dir.join("b.js"), b"plain").unwrap();
        assert_eq!(
            gzipped_copy(&dir.join("a.wasm")),
            Some(dir.join("a.wasm.gz"))
        );
        assert_eq!(gzipped_copy(&dir.join("b.js")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn knows_the_types_a_browser_needs() {
        assert_eq!(mime_type(Path::new("x_bg.wasm")), "application/wasm");
        assert_eq!(
            mime_type(Path::new("x.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            mime_type(Path::new("index.html")),
            "text/html; charset=utf-8"
        );
    }
}
