//! A minimal blocking HTTP/1.1 client on `std::net`, enough for the test shell: requests with
//! `Connection: close`, and a streaming GET whose chunked body is decoded as it arrives.

use std::io::{self, Read, Write};
use std::net::TcpStream;

/// `http://host:port/path` → (`host:port`, `/path`).
pub fn split_url(url: &str) -> (String, String) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    match rest.find('/') {
        Some(i) => (rest[..i].to_owned(), rest[i..].to_owned()),
        None => (rest.to_owned(), "/".to_owned()),
    }
}

fn write_request(
    conn: &mut TcpStream,
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
    close: bool,
) -> io::Result<()> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n");
    if close {
        head.push_str("Connection: close\r\n");
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or("");
    if method != "GET" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    conn.write_all(head.as_bytes())?;
    conn.write_all(body.as_bytes())
}

/// Header names (lowercased) and values.
type Headers = Vec<(String, String)>;

/// Reads up to the end of the head; returns status, headers and the body bytes read past it.
fn read_head(conn: &mut TcpStream) -> io::Result<(u16, Headers, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = conn.read(&mut chunk)?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "closed in the head",
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no status line"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Ok((status, headers, buf[end + 4..].to_vec()))
}

/// One whole answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Headers,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// Sends one request and reads the whole answer (the server closes after it).
pub fn request(
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> io::Result<Answer> {
    let mut conn = TcpStream::connect(host)?;
    write_request(&mut conn, host, method, path, headers, body, true)?;
    let (status, headers, mut rest) = read_head(&mut conn)?;
    conn.read_to_end(&mut rest)?;
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let mut out = Vec::new();
        Dechunker::default().feed(&rest, &mut |b| out.extend_from_slice(b));
        out
    } else {
        rest
    };
    Ok(Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// Opens a streaming GET: returns the connection (to read on, or shut down), the status, and
/// whether the body is chunked, plus body bytes already read.
pub fn open_stream(
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> io::Result<(TcpStream, u16, bool, Vec<u8>)> {
    let mut conn = TcpStream::connect(host)?;
    write_request(&mut conn, host, "GET", path, headers, None, false)?;
    let (status, headers, rest) = read_head(&mut conn)?;
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    Ok((conn, status, chunked, rest))
}

/// Decodes `Transfer-Encoding: chunked` incrementally, in any split of the input.
#[derive(Default)]
pub struct Dechunker {
    state: State,
    size: usize,
}

#[derive(Default, PartialEq)]
enum State {
    #[default]
    Size,
    /// Skipping a chunk extension up to the line end.
    Extension,
    SizeLf,
    Data,
    DataCr,
    DataLf,
    Done,
}

impl Dechunker {
    pub fn feed(&mut self, mut input: &[u8], out: &mut impl FnMut(&[u8])) {
        while !input.is_empty() && self.state != State::Done {
            match self.state {
                State::Data => {
                    let n = self.size.min(input.len());
                    out(&input[..n]);
                    self.size -= n;
                    input = &input[n..];
                    if self.size == 0 {
                        self.state = State::DataCr;
                    }
                    continue;
                }
                _ => {
                    let b = input[0];
                    input = &input[1..];
                    self.state = match (&self.state, b) {
                        (State::Size, b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => {
                            self.size = self.size * 16 + (b as char).to_digit(16).unwrap() as usize;
                            State::Size
                        }
                        (State::Size | State::Extension, b'\r') => State::SizeLf,
                        (State::Size | State::Extension, _) => State::Extension,
                        (State::SizeLf, _) if self.size == 0 => State::Done,
                        (State::SizeLf, _) => State::Data,
                        (State::DataCr, _) => State::DataLf,
                        (State::DataLf, _) => State::Size,
                        (State::Data | State::Done, _) => unreachable!(),
                    };
                }
            }
        }
    }
}
