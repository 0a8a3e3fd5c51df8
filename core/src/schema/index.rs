//! The resources of one schema and of the documents it is given ([`Options::documents`]):
//! each `$id` as an absolute URI, each `$anchor` and `$dynamicAnchor`, and how a `$ref` is
//! found among them. Nothing is ever fetched: a reference to anything else points nowhere.
//!
//! [`Options::documents`]: super::Options::documents

use super::draft::{each_subschema, Draft};
use serde_json::Value;

/// The base URI of a schema that has no `$id`.
const ROOT_URI: &str = "urn:client-tools:schema";

/// A schema resource: the root, a document, or a subschema with its own `$id`.
pub(super) struct Resource<'s> {
    pub uri: String,
    pub node: &'s Value,
    /// The draft its keywords are read by (a document's own `$schema`).
    pub draft: Draft,
}

struct Anchor<'s> {
    resource: usize,
    name: String,
    node: &'s Value,
    dynamic: bool,
}

/// Every resource and anchor of a schema, found once per check.
pub(super) struct Index<'s> {
    pub resources: Vec<Resource<'s>>,
    /// The URIs a document was given at when its `$id` names it otherwise, and its resource.
    aliases: Vec<(String, usize)>,
    anchors: Vec<Anchor<'s>>,
    /// Whether any subschema has `unevaluatedItems` or `unevaluatedProperties`: only then is
    /// what each keyword evaluated tracked.
    pub tracks: bool,
}

impl<'s> Index<'s> {
    /// The index of `root` (resource 0), read by `draft`, and of each document by its URI.
    pub fn new(root: &'s Value, draft: Draft, documents: &'s [(String, Value)]) -> Index<'s> {
        let mut index = Index {
            resources: Vec::new(),
            aliases: Vec::new(),
            anchors: Vec::new(),
            tracks: false,
        };
        let known = documents.iter().map(|(uri, doc)| (uri.as_str(), doc));
        for (uri, node) in [(ROOT_URI, root)].into_iter().chain(known) {
            let r = index.resources.len();
            let draft = if r == 0 {
                draft
            } else {
                Draft::of(node, draft)
            };
            index.resources.push(Resource {
                uri: split_fragment(uri).0.to_owned(),
                node,
                draft,
            });
            index.walk(node, r, draft, 0);
        }
        index
    }

    fn walk(&mut self, node: &'s Value, mut base: usize, draft: Draft, depth: usize) {
        let Value::Object(s) = node else { return };
        if depth > super::MAX_DEPTH {
            return;
        }
        let id_applies = draft == Draft::V2020_12 || !s.contains_key("$ref");
        if let Some(Value::String(id)) = s.get("$id").filter(|_| id_applies) {
            let full = resolve(&self.resources[base].uri, id);
            let (doc, fragment) = split_fragment(&full);
            if std::ptr::eq(node, self.resources[base].node) {
                // A document's root: its `$id` is its base URI, and the URI it was given at
                // still finds it.
                if doc != self.resources[base].uri {
                    let given = std::mem::replace(&mut self.resources[base].uri, doc.to_owned());
                    self.aliases.push((given, base));
                }
            } else if doc != self.resources[base].uri {
                self.resources.push(Resource {
                    uri: doc.to_owned(),
                    node,
                    draft,
                });
                base = self.resources.len() - 1;
            }
            if draft == Draft::V7 && !fragment.is_empty() {
                self.add_anchor(base, fragment, node, false);
            }
        }
        if draft == Draft::V2020_12 {
            if let Some(Value::String(name)) = s.get("$anchor") {
                self.add_anchor(base, name, node, false);
            }
            if let Some(Value::String(name)) = s.get("$dynamicAnchor") {
                self.add_anchor(base, name, node, true);
            }
            self.tracks |=
                s.contains_key("unevaluatedItems") || s.contains_key("unevaluatedProperties");
        }
        each_subschema(s, draft, &mut |_, sub| {
            self.walk(sub, base, draft, depth + 1)
        });
    }

    fn add_anchor(&mut self, resource: usize, name: &str, node: &'s Value, dynamic: bool) {
        self.anchors.push(Anchor {
            resource,
            name: name.to_owned(),
            node,
            dynamic,
        });
    }

    /// The resource `node` starts, if it is one.
    pub fn resource_of(&self, node: &Value) -> Option<usize> {
        self.resources
            .iter()
            .position(|r| std::ptr::eq(r.node, node))
    }

    /// What `reference` points to, seen from the resource `base`: its resource and node.
    pub fn lookup(&self, base: usize, reference: &str) -> Option<(usize, &'s Value)> {
        let full = resolve(&self.resources[base].uri, reference);
        let (doc, fragment) = split_fragment(&full);
        let r = match self.resources.iter().position(|r| r.uri == doc) {
            Some(r) => r,
            None => self.aliases.iter().find(|(uri, _)| uri == doc)?.1,
        };
        if fragment.is_empty() {
            return Some((r, self.resources[r].node));
        }
        if let Some(pointer) = fragment.strip_prefix('/') {
            return self.pointer(r, pointer);
        }
        self.anchors
            .iter()
            .find(|a| a.resource == r && a.name == fragment)
            .map(|a| (a.resource, a.node))
    }

    /// Whether resource `r` has a `$dynamicAnchor` named `name`, and where.
    pub fn dynamic_anchor(&self, r: usize, name: &str) -> Option<&'s Value> {
        self.anchors
            .iter()
            .find(|a| a.resource == r && a.dynamic && a.name == name)
            .map(|a| a.node)
    }

    /// A JSON Pointer (after `#/`) in resource `r`, percent-decoded; passing through a
    /// subschema with its own `$id` moves into that resource.
    fn pointer(&self, mut r: usize, pointer: &str) -> Option<(usize, &'s Value)> {
        let mut node = self.resources[r].node;
        for raw in pointer.split('/') {
            let token = pointer_token(raw)?;
            node = match node {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
            if let Some(inner) = self.resource_of(node) {
                r = inner;
            }
        }
        Some((r, node))
    }
}

/// Where the ASCII byte `b` first is in `s`. (The standard library's `find` and `split_once`
/// bring its string searchers into the wasm, about 1 KB, for these few lookups.)
fn find(s: &str, b: u8) -> Option<usize> {
    s.bytes().position(|c| c == b)
}

/// `s` split at the first `b` (an ASCII byte), which is left out.
fn split(s: &str, b: u8) -> Option<(&str, &str)> {
    let i = find(s, b)?;
    Some((&s[..i], &s[i + 1..]))
}

/// `uri` split at its `#`: the document and the fragment (empty when there is none).
pub(super) fn split_fragment(uri: &str) -> (&str, &str) {
    split(uri, b'#').unwrap_or((uri, ""))
}

/// A reference token of a JSON Pointer in a URI fragment: percent-decoded, then `~1` read as
/// `/` and `~0` as `~`.
fn pointer_token(raw: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(raw.len());
    let mut rest = raw.bytes();
    while let Some(b) = rest.next() {
        bytes.push(if b == b'%' {
            let hex = |d: Option<u8>| char::from(d?).to_digit(16);
            (hex(rest.next())? * 16 + hex(rest.next())?) as u8
        } else {
            b
        });
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes.into_iter();
    while let Some(b) = rest.next() {
        out.push(match b {
            b'~' => match rest.next()? {
                b'0' => b'~',
                b'1' => b'/',
                _ => return None,
            },
            b => b,
        });
    }
    String::from_utf8(out).ok()
}

/// A URI's parts (RFC 3986): scheme, authority, path, query, fragment (each with its
/// delimiter left off; `None` when absent).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parts(uri: &str) -> Parts<'_> {
    let (rest, fragment) = match split(uri, b'#') {
        Some((r, f)) => (r, Some(f)),
        None => (uri, None),
    };
    let (rest, query) = match split(rest, b'?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let scheme_end = find(rest, b':').filter(|&i| {
        i > 0
            && rest[..i].starts_with(|c: char| c.is_ascii_alphabetic())
            && rest[..i]
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    });
    let (scheme, rest) = match scheme_end {
        Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
        None => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = find(r, b'/').unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// `reference` resolved against `base` (RFC 3986 section 5.2).
pub(super) fn resolve(base: &str, reference: &str) -> String {
    let r = parts(reference);
    let b = parts(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        (scheme, authority, path, query) = (r.scheme, r.authority, remove_dots(r.path), r.query);
    } else if r.authority.is_some() {
        (scheme, authority, path, query) = (b.scheme, r.authority, remove_dots(r.path), r.query);
    } else if r.path.is_empty() {
        (scheme, authority, path, query) = (
            b.scheme,
            b.authority,
            b.path.to_owned(),
            r.query.or(b.query),
        );
    } else if r.path.starts_with('/') {
        (scheme, authority, path, query) = (b.scheme, b.authority, remove_dots(r.path), r.query);
    } else {
        let merged = if b.authority.is_some() && b.path.is_empty() {
            format!("/{}", r.path)
        } else {
            match b.path.bytes().rposition(|c| c == b'/') {
                Some(i) => format!("{}{}", &b.path[..=i], r.path),
                None => r.path.to_owned(),
            }
        };
        (scheme, authority, path, query) = (b.scheme, b.authority, remove_dots(&merged), r.query);
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

fn remove_dots(path: &str) -> String {
    if find(path, b'.').is_none() {
        return path.to_owned();
    }
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *seg {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    crate::text::join(&out, "/")
}
