//! `pattern` and `patternProperties`: ECMA-262 regular expressions, run by the host's engine,
//! and a bound on what one run may cost, worked out before it runs.
//!
//! The engine is the page's own `RegExp` in a wasm build with the `host-regex` feature (the
//! wasm SDK defines `client_tools_core_host_pattern`, found by the linker as the JSON hook
//! is, see `crate::json`), and natively the `regress` crate, an ECMAScript regex engine. A
//! pattern is compiled with the `u` flag (as JSON Schema asks), and without it when it only
//! compiles that way (an app's pattern written for a plain `RegExp`); it is not anchored.
//!
//! Both engines backtrack and neither can be stopped once running, so the time a pattern
//! may take is capped before it runs: from the pattern's structure, its worst case on a
//! string of n characters is bounded by `(n + 1)^e` steps (e grows with each quantifier whose
//! stopping point the next character does not decide, and by one when the pattern is not
//! anchored with `^`), or by `b^n` for a pattern that can backtrack exponentially (a
//! quantifier over a body that can match the same text in more than one way, as
//! `^(a+)+$`; a backreference). A string is run only while the bounds of the runs of one
//! check add up to at most [`PATTERN_COST_MAX`]; past it the call is answered that the
//! string is too long for the pattern, naming the longest one the pattern may be run on.

use super::PATTERN_COST_MAX;

#[cfg(all(feature = "host-regex", target_family = "wasm"))]
extern "Rust" {
    fn client_tools_core_host_pattern(pattern: &str, text: Option<&str>) -> Result<bool, String>;
}

#[cfg(not(any(
    all(feature = "host-regex", target_family = "wasm"),
    feature = "regress"
)))]
compile_error!("client-tools-core needs the `regress` feature, or `host-regex` in a wasm build");

/// Compiles `pattern` and, given a text, says whether the pattern matches somewhere in it.
pub(super) fn engine(pattern: &str, text: Option<&str>) -> Result<bool, String> {
    #[cfg(all(feature = "host-regex", target_family = "wasm"))]
    // SAFETY: the host defines it with this signature, as the module docs ask; a build
    // without it does not load.
    return unsafe { client_tools_core_host_pattern(pattern, text) };
    #[cfg(not(all(feature = "host-regex", target_family = "wasm")))]
    {
        let re = regress::Regex::with_flags(pattern, "u")
            .or_else(|_| regress::Regex::with_flags(pattern, ""))
            .map_err(|e| e.to_string())?;
        Ok(text.is_some_and(|t| re.find(t).is_some()))
    }
}

/// Whether `pattern` is a regular expression the engine compiles (for the declaration check).
pub(super) fn check(pattern: &str) -> Result<(), String> {
    engine(pattern, None)
        .map(|_| ())
        .map_err(|e| format!("not an ECMA-262 regular expression: {e}"))
}

/// Whether `pattern` matches `text`, after its bound is added to `cost`; an error says why
/// the string was not run.
pub(super) fn matches(pattern: &str, text: &str, cost: &mut u64) -> Result<bool, String> {
    let n = text.chars().count();
    let shape = Shape::of(pattern);
    let bound = shape.bound(n);
    if bound > (PATTERN_COST_MAX - *cost) as f64 {
        let mut longest = 0;
        while shape.bound(longest + 1) <= PATTERN_COST_MAX as f64 && longest < 1 << 30 {
            longest = if longest < 64 {
                longest + 1
            } else {
                longest * 2
            };
        }
        while shape.bound(longest) > PATTERN_COST_MAX as f64 {
            longest -= 1;
        }
        let why = match shape {
            Shape::Exponential(_) => "it can backtrack exponentially".to_owned(),
            Shape::Power(e) => format!("its backtracking can grow as the length to the power {e}"),
        };
        return Err(format!(
            "a string of {n} characters is more than the pattern {pattern} is run on: at most \
             {longest} ({why}; at most {PATTERN_COST_MAX} steps for the patterns of one call)"
        ));
    }
    *cost += bound as u64;
    engine(pattern, Some(text))
}

/// The worst-case growth of a pattern's run with the string's length.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// At most `(n + 1)^e` steps.
    Power(u32),
    /// At most `b^n · (n + 1)` steps.
    Exponential(u32),
}

impl Shape {
    fn of(pattern: &str) -> Shape {
        let chars: Vec<char> = pattern.chars().collect();
        let mut p = Parser {
            chars: &chars,
            at: 0,
        };
        let tree = p.alternation(0);
        if p.at < chars.len() {
            // Not read whole (the engine accepted it in a form this reading does not know):
            // assume the worst.
            return Shape::Exponential(2);
        }
        let mut a = Analysis {
            looks: 0,
            loops: false,
        };
        let c = a.cost(&tree, true);
        if c.exp > 0 {
            return Shape::Exponential(c.exp);
        }
        // Each way through is as long as the string when some loop can take it all.
        let unanchored = u32::from(!anchored(&tree));
        Shape::Power(((c.degree + u32::from(a.loops)).max(a.looks) + unanchored).max(1))
    }

    fn bound(&self, n: usize) -> f64 {
        let n = n as f64;
        match *self {
            Shape::Power(e) => (n + 1.0).powi(e as i32),
            Shape::Exponential(b) => (b as f64).powf(n) * (n + 1.0),
        }
    }
}

/// Characters as sorted, inclusive ranges of code points.
type Set = Vec<(u32, u32)>;

fn any() -> Set {
    vec![(0, 0x10FFFF)]
}

/// Every code point not in `set`.
fn complement(mut set: Set) -> Set {
    set.sort_unstable();
    let mut out = Set::new();
    let mut next = 0u32;
    for (lo, hi) in set {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = next.max(hi.saturating_add(1));
    }
    if next <= 0x10FFFF {
        out.push((next, 0x10FFFF));
    }
    out
}

fn disjoint(a: &Set, b: &Set) -> bool {
    a.iter()
        .all(|&(lo, hi)| b.iter().all(|&(l, h)| hi < l || h < lo))
}

enum Node {
    /// One character of a set.
    Atom(Set),
    /// `^`, `$`, `\b`: no character. `end` for `$`.
    Assert {
        end: bool,
    },
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        min: u32,
        max: Option<u32>,
        body: Box<Node>,
    },
    /// A lookahead or lookbehind: atomic in ECMAScript.
    Look(Box<Node>),
    BackRef,
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }
    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        self.at += usize::from(hit);
        hit
    }
    fn starts(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.at + i) == Some(&c))
    }

    fn alternation(&mut self, depth: usize) -> Node {
        let mut alts = vec![self.sequence(depth)];
        while self.eat('|') {
            alts.push(self.sequence(depth));
        }
        if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Seq(Vec::new()))
        } else {
            Node::Alt(alts)
        }
    }

    fn sequence(&mut self, depth: usize) -> Node {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let Some(atom) = self.atom(depth) else { break };
            items.push(self.quantified(atom));
        }
        Node::Seq(items)
    }

    fn quantified(&mut self, atom: Node) -> Node {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.braces() {
                Some(q) => q,
                None => return atom,
            },
            _ => return atom,
        };
        if self.peek() != Some('{') {
            self.at += 1;
        }
        self.eat('?');
        Node::Repeat {
            min,
            max,
            body: Box::new(atom),
        }
    }

    /// `{n}`, `{n,}`, `{n,m}` (consumed), or `None` (a literal `{`, nothing consumed).
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let start = self.at;
        self.at += 1;
        let number = |p: &mut Self| {
            let from = p.at;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.at += 1;
            }
            let digits: String = p.chars[from..p.at].iter().collect();
            digits
                .parse::<u32>()
                .ok()
                .or((p.at > from).then_some(u32::MAX))
        };
        let min = number(self);
        let result = match (min, self.eat(',')) {
            (Some(min), false) => Some((min, Some(min))),
            (Some(min), true) => Some((min, number(self))),
            (None, _) => None,
        };
        match result {
            Some(q) if self.eat('}') => Some(q),
            _ => {
                self.at = start;
                None
            }
        }
    }

    fn atom(&mut self, depth: usize) -> Option<Node> {
        let c = self.peek()?;
        self.at += 1;
        Some(match c {
            '(' => {
                if depth > super::MAX_DEPTH {
                    return None;
                }
                let look = ["?=", "?!", "?<=", "?<!"].iter().find(|s| self.starts(s));
                if let Some(s) = look {
                    self.at += s.len();
                } else if self.starts("?:") {
                    self.at += 2;
                } else if self.starts("?<") {
                    while self.peek().is_some_and(|c| c != '>') {
                        self.at += 1;
                    }
                    self.at += 1;
                }
                let inner = self.alternation(depth + 1);
                if !self.eat(')') {
                    return None;
                }
                if look.is_some() {
                    Node::Look(Box::new(inner))
                } else {
                    inner
                }
            }
            '[' => Node::Atom(self.class()),
            '.' => Node::Atom(any()),
            '^' => Node::Assert { end: false },
            '$' => Node::Assert { end: true },
            '\\' => self.escape(),
            c => Node::Atom(vec![(c as u32, c as u32)]),
        })
    }

    fn escape(&mut self) -> Node {
        let Some(c) = self.peek() else {
            return Node::Atom(any());
        };
        self.at += 1;
        match c {
            'b' | 'B' => Node::Assert { end: false },
            '1'..='9' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                Node::BackRef
            }
            'k' if self.peek() == Some('<') => {
                while self.peek().is_some_and(|c| c != '>') {
                    self.at += 1;
                }
                self.at += 1;
                Node::BackRef
            }
            _ => Node::Atom(self.class_escape(c)),
        }
    }

    /// The set of `\c` (after the backslash), in or out of a class.
    fn class_escape(&mut self, c: char) -> Set {
        let one = |c: char| vec![(c as u32, c as u32)];
        match c {
            'd' => vec![(48, 57)],
            'w' => vec![(48, 57), (65, 90), (95, 95), (97, 122)],
            's' => vec![
                (9, 13),
                (32, 32),
                (0xA0, 0xA0),
                (0x1680, 0x1680),
                (0x2000, 0x200A),
                (0x2028, 0x2029),
                (0x202F, 0x202F),
                (0x205F, 0x205F),
                (0x3000, 0x3000),
                (0xFEFF, 0xFEFF),
            ],
            'D' | 'W' | 'S' => any(),
            'p' | 'P' => {
                if self.eat('{') {
                    while self.peek().is_some_and(|c| c != '}') {
                        self.at += 1;
                    }
                    self.at += 1;
                }
                any()
            }
            'n' => one('\n'),
            't' => one('\t'),
            'r' => one('\r'),
            'f' => one('\x0C'),
            'v' => one('\x0B'),
            '0' => one('\0'),
            'u' | 'x' | 'c' => {
                // \uXXXX, \u{X…}, \xHH, \cX: some one character (which does not matter here
                // beyond being one).
                if self.eat('{') {
                    while self.peek().is_some_and(|c| c != '}') {
                        self.at += 1;
                    }
                    self.at += 1;
                } else {
                    let n = match c {
                        'u' => 4,
                        'x' => 2,
                        _ => 1,
                    };
                    self.at = (self.at + n).min(self.chars.len());
                }
                any()
            }
            c => one(c),
        }
    }

    fn class(&mut self) -> Set {
        let negated = self.eat('^');
        let mut set = Set::new();
        let mut first = true;
        while let Some(c) = self.peek() {
            if c == ']' && !first {
                break;
            }
            if c == ']' {
                break;
            }
            first = false;
            self.at += 1;
            let lo = if c == '\\' {
                match self.peek() {
                    Some(e) => {
                        self.at += 1;
                        let s = self.class_escape(e);
                        if s.len() != 1 || s[0].0 != s[0].1 {
                            set.extend(s);
                            continue;
                        }
                        s[0].0
                    }
                    None => break,
                }
            } else {
                c as u32
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&c| c != ']') {
                self.at += 1;
                let h = self.peek().unwrap_or(']');
                self.at += 1;
                let hi = if h == '\\' {
                    let e = self.peek().unwrap_or('\\');
                    self.at += 1;
                    let s = self.class_escape(e);
                    s.last().map_or(0x10FFFF, |r| r.1)
                } else {
                    h as u32
                };
                set.push((lo.min(hi), lo.max(hi)));
            } else {
                set.push((lo, lo));
            }
        }
        self.eat(']');
        if negated {
            complement(set)
        } else {
            set
        }
    }
}

/// The cost of a node: `degree`, the power of the length its ways to match grow with, or
/// `exp` > 0, the base of an exponential growth.
#[derive(Clone, Copy)]
struct Cost {
    degree: u32,
    exp: u32,
}

struct Analysis {
    /// The largest cost of a lookaround, each run whole at a position.
    looks: u32,
    /// Whether some quantifier can repeat without a small bound.
    loops: bool,
}

impl Analysis {
    fn cost(&mut self, node: &Node, tail: bool) -> Cost {
        let zero = Cost { degree: 0, exp: 0 };
        match node {
            Node::Atom(_) | Node::Assert { .. } => zero,
            Node::BackRef => Cost { degree: 0, exp: 2 },
            Node::Look(inner) => {
                let c = self.cost(inner, false);
                self.looks = self.looks.max(c.degree + 1);
                Cost {
                    degree: 0,
                    exp: c.exp,
                }
            }
            Node::Alt(alts) => alts.iter().fold(zero, |acc, a| {
                let c = self.cost(a, tail);
                Cost {
                    degree: acc.degree.max(c.degree),
                    exp: acc.exp.max(c.exp),
                }
            }),
            Node::Seq(items) => {
                let mut total = zero;
                for (i, item) in items.iter().enumerate() {
                    let c = self.cost(item, tail && i + 1 == items.len());
                    total.exp = total.exp.max(c.exp);
                    let decided = match is_simple_loop(item) {
                        Some(set) => {
                            first_after(&items[i + 1..], tail).is_some_and(|f| disjoint(set, &f))
                        }
                        None => false,
                    };
                    if !decided {
                        total.degree += c.degree;
                    }
                }
                total
            }
            Node::Repeat {
                max: Some(m), body, ..
            } if *m <= 1 => self.cost(body, tail),
            Node::Repeat { max, body, .. } => {
                let small = max.is_some_and(|m| m <= 16);
                self.loops |= !small;
                let b = self.cost(body, false);
                if b.exp > 0 {
                    return Cost {
                        degree: 0,
                        exp: b.exp + 1,
                    };
                }
                if fixed_width(body).is_some() {
                    // The count of iterations is the only choice.
                    return Cost {
                        degree: u32::from(!small),
                        exp: 0,
                    };
                }
                if delimited(body) && inner_degree(self, body) == 0 {
                    return Cost { degree: 1, exp: 0 };
                }
                if small {
                    let m = max.unwrap_or(1);
                    return Cost {
                        degree: (b.degree + 1) * m,
                        exp: 0,
                    };
                }
                Cost { degree: 0, exp: 2 }
            }
        }
    }
}

/// The degree of a loop body whose last item is followed by its delimiter.
fn inner_degree(a: &mut Analysis, body: &Node) -> u32 {
    match body {
        Node::Seq(_) => a.cost(body, true).degree,
        other => a.cost(other, true).degree,
    }
}

/// A node that always matches exactly one character and has one way to: its set.
fn fixed_width(node: &Node) -> Option<&Set> {
    match node {
        Node::Atom(set) => Some(set),
        Node::Seq(items) if items.len() == 1 => fixed_width(&items[0]),
        _ => None,
    }
}

/// `x*` / `x+` / `x{n,}` of a one-character `x`: its set.
fn is_simple_loop(node: &Node) -> Option<&Set> {
    match node {
        Node::Repeat { max, body, .. } if max.is_none_or(|m| m > 1) => fixed_width(body),
        _ => None,
    }
}

/// The characters what follows can start with (`items`, then the end of the pattern when
/// `tail`); `None` when unknown. The end counts as a start no loop can take.
fn first_after(items: &[Node], tail: bool) -> Option<Set> {
    let mut all = Set::new();
    for item in items {
        match item {
            Node::Repeat { min: 0, body, .. } => all.extend(first(body)?),
            Node::Assert { end: false } => {}
            other => {
                all.extend(first(other)?);
                return Some(all);
            }
        }
    }
    tail.then_some(all)
}

/// The characters `node` can start with, when it must take one (`$` takes none and counts
/// as a start no loop can take); `None` when unknown.
fn first(node: &Node) -> Option<Set> {
    match node {
        Node::Atom(set) => Some(set.clone()),
        Node::Assert { end: true } => Some(Set::new()),
        Node::Seq(items) => items.first().and_then(first),
        Node::Repeat { min, body, .. } if *min >= 1 => first(body),
        Node::Alt(alts) => {
            let mut all = Set::new();
            for a in alts {
                all.extend(first(a)?);
            }
            Some(all)
        }
        _ => None,
    }
}

/// Whether a loop body starts or ends with a character no other part of it can take, so
/// that where one iteration ends is decided.
fn delimited(body: &Node) -> bool {
    let Node::Seq(items) = body else { return false };
    let mut sets = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let ends = i == 0 || i + 1 == items.len();
        if let (true, Some(set)) = (ends, fixed_width(item)) {
            let mut others = Vec::new();
            for (j, other) in items.iter().enumerate() {
                if j != i {
                    collect_sets(other, &mut others);
                }
            }
            if others.iter().all(|o| disjoint(set, o)) {
                return true;
            }
        }
        collect_sets(item, &mut sets);
    }
    false
}

fn collect_sets(node: &Node, out: &mut Vec<Set>) {
    match node {
        Node::Atom(set) => out.push(set.clone()),
        Node::Assert { .. } => {}
        Node::BackRef => out.push(any()),
        Node::Seq(items) | Node::Alt(items) => items.iter().for_each(|n| collect_sets(n, out)),
        Node::Repeat { body, .. } | Node::Look(body) => collect_sets(body, out),
    }
}

/// Whether every way through the pattern starts with `^`.
fn anchored(node: &Node) -> bool {
    match node {
        Node::Assert { end: false } => true,
        Node::Seq(items) => items
            .first()
            .is_some_and(|n| matches!(n, Node::Assert { end: false })),
        Node::Alt(alts) => alts.iter().all(anchored),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::Shape;

    #[test]
    fn shapes() {
        for (p, shape) in [
            ("^[0-9]+$", Shape::Power(1)),
            ("^\\d+-\\d+-\\d+T\\d+:\\d+:\\d+$", Shape::Power(1)),
            ("^[a-z0-9]+(\\.[a-z0-9]+)*$", Shape::Power(2)),
            ("^[^@]+@[^@]+\\.[a-z]{2,}$", Shape::Power(2)),
            ("^(?=.*[a-z])(?=.*\\d).{8,}$", Shape::Power(2)),
            ("abc", Shape::Power(1)),
            ("[0-9]+", Shape::Power(2)),
            ("^a*a*a*b$", Shape::Power(3)),
            ("^(a+)+$", Shape::Exponential(2)),
            ("^(a|a)*$", Shape::Exponential(2)),
            ("((a+)+)+", Shape::Exponential(3)),
            ("(.)\\1", Shape::Exponential(2)),
        ] {
            assert_eq!(Shape::of(p), shape, "{p}");
        }
    }
}
