//! How a pattern's run can grow with the string's length, read from the pattern before it
//! runs (see the pattern module's docs). The pattern is read once, left to right, each part
//! (a character, a class, a group, a repetition) summed up as a [`Part`]: what its run may
//! cost and what the parts around it need to know (which characters it starts with, whether
//! it takes exactly one).
//!
//! A repetition of one character costs one power of the length, unless the character after
//! it cannot continue it (`[0-9]+-`: where it stops is decided); a repetition of a body that
//! can match the same text in more than one way (`(a+)+`, `(a|a)*`) or a backreference makes
//! the growth exponential. The reading errs on the large side: characters beyond ASCII are
//! one class, and whatever it does not know (`\uXXXX`, `\p{…}`) may be any character.

use super::MAX_DEPTH;

/// The worst-case growth of a pattern's run with the string's length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Shape {
    /// At most `(n + 1)^e` steps.
    Power(u32),
    /// At most `b^n · (n + 1)` steps.
    Exponential(u32),
}

impl Shape {
    pub fn of(pattern: &str) -> Shape {
        let mut r = Reader {
            src: pattern,
            at: 0,
            looks: 0,
            loops: false,
        };
        let whole = r.alternation(0);
        if r.at < pattern.len() {
            // Not read whole (the engine accepted it in a form this reading does not know):
            // assume the worst.
            return Shape::Exponential(2);
        }
        if whole.exp > 0 {
            return Shape::Exponential(whole.exp);
        }
        // Each way through is as long as the string when some loop can take it all, and an
        // unanchored pattern is tried at each start.
        let e = (whole.at_end.saturating_add(u32::from(r.loops))).max(r.looks);
        Shape::Power((e + u32::from(!whole.anchored)).max(1))
    }

    /// The bound on a string of `n` characters (saturating).
    pub fn bound(self, n: u64) -> u64 {
        match self {
            Shape::Power(e) => (n + 1).saturating_pow(e),
            Shape::Exponential(b) => u64::from(b)
                .saturating_pow(n.min(u64::from(u32::MAX)) as u32)
                .saturating_mul(n + 1),
        }
    }

    /// The length of the longest string whose bound is at most `max`.
    pub fn longest(self, max: u64) -> u64 {
        // bound(0) is 1 and bound(max) is more than max, for every shape.
        let (mut lo, mut hi) = (0, max);
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if self.bound(mid) <= max {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// Characters: the ASCII ones exactly, every other one as one class (a set taken larger
/// only makes a bound larger).
#[derive(Clone, Copy, Default)]
struct Set {
    ascii: u128,
    other: bool,
}

const ANY: Set = Set::range(0, 0x10FFFF);
const DIGIT: Set = Set::range('0' as u32, '9' as u32);
const WORD: Set = DIGIT
    .or(Set::range('A' as u32, 'Z' as u32))
    .or(Set::range('_' as u32, '_' as u32))
    .or(Set::range('a' as u32, 'z' as u32));
/// `\s`: tab to carriage return, space, and (beyond ASCII) the Unicode spaces.
const SPACE: Set = Set::range(9, 13).or(Set::range(32, 32)).or(Set {
    ascii: 0,
    other: true,
});

impl Set {
    /// The characters `lo` to `hi`, both included (`lo <= hi`).
    const fn range(lo: u32, hi: u32) -> Set {
        let top = if hi > 127 { 127 } else { hi };
        Set {
            ascii: if lo > 127 {
                0
            } else {
                (u128::MAX >> (127 - top)) & (u128::MAX << lo)
            },
            other: hi > 127,
        }
    }
    fn one(c: char) -> Set {
        Set::range(c as u32, c as u32)
    }
    const fn or(self, o: Set) -> Set {
        Set {
            ascii: self.ascii | o.ascii,
            other: self.other || o.other,
        }
    }
    fn not(self) -> Set {
        Set {
            ascii: !self.ascii,
            other: true,
        }
    }
    fn meets(self, o: Set) -> bool {
        self.ascii & o.ascii != 0 || (self.other && o.other)
    }
}

/// What the bound needs of one part of a pattern.
#[derive(Clone, Copy)]
struct Part {
    /// The power of the length its ways to match grow with, when more of the pattern
    /// follows it…
    degree: u32,
    /// …and when it ends the pattern (a loop there stops where the string does).
    at_end: u32,
    /// When above 0, the base of an exponential growth.
    exp: u32,
    /// The characters it starts with when it takes one (any, when not known).
    lead: Set,
    /// Whether it may take nothing and let what follows start (`x*`, `x?`, `^`, `\b`).
    passable: bool,
    /// Whether it always takes exactly one character (of `all`), one way.
    single: bool,
    /// Whether it is a loop over one character (of `all`: `x*`, `x+`, `x{2,}`).
    looped: bool,
    /// Every character it can take.
    all: Set,
    /// Whether every match of it starts at the string's start.
    anchored: bool,
    /// Whether it is a sequence whose first or last character no other part of it takes (so
    /// that where one repetition of it ends is decided).
    delimited: bool,
}

impl Default for Part {
    /// Takes nothing known: no cost, any character may start it.
    fn default() -> Part {
        Part {
            degree: 0,
            at_end: 0,
            exp: 0,
            lead: ANY,
            passable: false,
            single: false,
            looped: false,
            all: Set::default(),
            anchored: false,
            delimited: false,
        }
    }
}

impl Part {
    fn of(set: Set) -> Part {
        Part {
            lead: set,
            single: true,
            all: set,
            ..Part::default()
        }
    }

    /// `^`, `\b`: no character taken.
    fn assertion(anchored: bool) -> Part {
        Part {
            lead: Set::default(),
            passable: true,
            anchored,
            ..Part::default()
        }
    }

    /// The characters every match of it starts with (any, when it may take nothing).
    fn first(&self) -> Set {
        if self.passable {
            ANY
        } else {
            self.lead
        }
    }
}

/// The characters what follows can start with, given what follows `item` (`next`).
fn follow(item: &Part, next: Set) -> Set {
    if item.passable {
        item.lead.or(next)
    } else {
        item.lead
    }
}

/// Parts one after another: their degrees add up, but for a loop over one character that
/// the next character cannot continue.
fn sequence(items: &[Part]) -> Part {
    let mut out = Part::default();
    // What can follow items[i]: the pattern's end takes no character, elsewhere any.
    let (mut at_end, mut inside) = (Set::default(), ANY);
    for (i, item) in items.iter().enumerate().rev() {
        let decided = |next: Set| item.looped && !item.all.meets(next);
        let own = if i + 1 == items.len() {
            item.at_end
        } else {
            item.degree
        };
        if !decided(at_end) {
            out.at_end = out.at_end.saturating_add(own);
        }
        if !decided(inside) {
            out.degree = out.degree.saturating_add(item.degree);
        }
        out.exp = out.exp.max(item.exp);
        out.all = out.all.or(item.all);
        at_end = follow(item, at_end);
        inside = follow(item, inside);
    }
    out.lead = items.first().map_or(ANY, Part::first);
    out.anchored = items.first().is_some_and(|p| p.anchored);
    out.single = matches!(items, [one] if one.single);
    let apart = |i: usize| {
        let others = items
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(Set::default(), |all, (_, p)| all.or(p.all));
        items[i].single && !items[i].all.meets(others)
    };
    out.delimited = !items.is_empty() && (apart(0) || apart(items.len() - 1));
    out
}

/// `body` repeated `min` to `max` times.
fn repeat(body: Part, min: u32, max: Option<u32>, loops: &mut bool) -> Part {
    let mut part = Part {
        lead: body.first(),
        passable: min == 0,
        all: body.all,
        ..Part::default()
    };
    if max.is_some_and(|m| m <= 1) {
        // Taken once at most: no loop.
        (part.degree, part.at_end, part.exp) = (body.degree, body.at_end, body.exp);
        return part;
    }
    let small = max.filter(|&m| m <= 16);
    *loops |= small.is_none();
    part.looped = body.single;
    part.degree = if body.exp > 0 {
        part.exp = body.exp + 1;
        0
    } else if body.single {
        // The count of repetitions is the only choice.
        u32::from(small.is_none())
    } else if body.delimited && body.at_end == 0 {
        1
    } else if let Some(m) = small {
        (body.degree + 1).saturating_mul(m)
    } else {
        part.exp = 2;
        0
    };
    part.at_end = part.degree;
    part
}

/// What an escape stands for: one character (which a class range may end with), or a class.
enum Escaped {
    Char(char),
    Class(Set),
}

impl Escaped {
    fn set(self) -> Set {
        match self {
            Escaped::Char(c) => Set::one(c),
            Escaped::Class(s) => s,
        }
    }
}

struct Reader<'a> {
    src: &'a str,
    at: usize,
    /// The largest cost of a lookaround, each run whole at a position.
    looks: u32,
    /// Whether some repetition has no small bound.
    loops: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.at..].chars().next()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }
    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.at += c.len_utf8();
        }
        hit
    }
    fn starts(&self, s: &str) -> bool {
        self.src[self.at..].starts_with(s)
    }
    fn skip_past(&mut self, end: char) {
        while self.next().is_some_and(|c| c != end) {}
    }

    fn alternation(&mut self, depth: usize) -> Part {
        let mut alt = self.sequence(depth);
        while self.eat('|') {
            let b = self.sequence(depth);
            alt = Part {
                degree: alt.degree.max(b.degree),
                at_end: alt.at_end.max(b.at_end),
                exp: alt.exp.max(b.exp),
                lead: alt.first().or(b.first()),
                all: alt.all.or(b.all),
                anchored: alt.anchored && b.anchored,
                ..Part::default()
            };
        }
        alt
    }

    fn sequence(&mut self, depth: usize) -> Part {
        let mut items = Vec::new();
        while self.peek().is_some_and(|c| c != '|' && c != ')') {
            let Some(atom) = self.atom(depth) else { break };
            let part = self.quantified(atom);
            items.push(part);
        }
        sequence(&items)
    }

    fn quantified(&mut self, body: Part) -> Part {
        let (min, max) = match self.peek() {
            Some('{') => match self.braces() {
                Some(q) => q,
                None => return body,
            },
            Some(q @ ('*' | '+' | '?')) => {
                self.at += 1;
                match q {
                    '*' => (0, None),
                    '+' => (1, None),
                    _ => (0, Some(1)),
                }
            }
            _ => return body,
        };
        // Lazy or greedy, the same choices.
        self.eat('?');
        repeat(body, min, max, &mut self.loops)
    }

    /// `{n}`, `{n,}`, `{n,m}` (consumed), or `None` (a literal `{`, nothing consumed).
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let start = self.at;
        self.at += 1;
        let q = self.number().map(|min| match self.eat(',') {
            true => (min, self.number()),
            false => (min, Some(min)),
        });
        match q {
            Some(q) if self.eat('}') => Some(q),
            _ => {
                self.at = start;
                None
            }
        }
    }

    fn number(&mut self) -> Option<u32> {
        let from = self.at;
        let mut n = 0u32;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d);
            self.at += 1;
        }
        (self.at > from).then_some(n)
    }

    fn atom(&mut self, depth: usize) -> Option<Part> {
        Some(match self.next()? {
            '(' => {
                if depth > MAX_DEPTH {
                    return None;
                }
                let look = ["?=", "?!", "?<=", "?<!"]
                    .into_iter()
                    .find(|s| self.starts(s));
                if let Some(s) = look {
                    self.at += s.len();
                } else if self.starts("?:") {
                    self.at += 2;
                } else if self.starts("?<") {
                    self.skip_past('>');
                }
                let inner = self.alternation(depth + 1);
                if !self.eat(')') {
                    return None;
                }
                if look.is_none() {
                    return Some(inner);
                }
                // A lookaround is atomic: run whole at a position, chosen nothing after.
                self.looks = self.looks.max(inner.degree.saturating_add(1));
                Part {
                    exp: inner.exp,
                    all: inner.all,
                    ..Part::default()
                }
            }
            '[' => Part::of(self.class()),
            '.' => Part::of(ANY),
            '^' => Part::assertion(true),
            '$' => Part {
                lead: Set::default(),
                ..Part::default()
            },
            '\\' => match self.next() {
                None => Part::of(ANY),
                Some('b' | 'B') => Part::assertion(false),
                Some(c @ ('1'..='9' | 'k')) if c != 'k' || self.peek() == Some('<') => {
                    if c == 'k' {
                        self.skip_past('>');
                    }
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.at += 1;
                    }
                    // A backreference: what it takes depends on the groups' choices.
                    Part {
                        exp: 2,
                        all: ANY,
                        ..Part::default()
                    }
                }
                Some(c) => Part::of(self.class_escape(c).set()),
            },
            c => Part::of(Set::one(c)),
        })
    }

    /// What `\c` stands for (after the backslash), in or out of a class.
    fn class_escape(&mut self, c: char) -> Escaped {
        let class = match c {
            'd' => DIGIT,
            'D' => DIGIT.not(),
            'w' => WORD,
            'W' => WORD.not(),
            's' => SPACE,
            'S' => SPACE.not(),
            'p' | 'P' => {
                if self.eat('{') {
                    self.skip_past('}');
                }
                ANY
            }
            // \uXXXX, \u{X…}, \xHH, \cX: some one character (which does not matter here
            // beyond being one).
            'u' | 'x' | 'c' => {
                if self.eat('{') {
                    self.skip_past('}');
                } else {
                    let digits = match c {
                        'u' => 4,
                        'x' => 2,
                        _ => 1,
                    };
                    for _ in 0..digits {
                        self.next();
                    }
                }
                ANY
            }
            'n' => return Escaped::Char('\n'),
            't' => return Escaped::Char('\t'),
            'r' => return Escaped::Char('\r'),
            'f' => return Escaped::Char('\x0C'),
            'v' => return Escaped::Char('\x0B'),
            '0' => return Escaped::Char('\0'),
            c => return Escaped::Char(c),
        };
        Escaped::Class(class)
    }

    /// After `[`: the class's characters (its `]` consumed).
    fn class(&mut self) -> Set {
        let negated = self.eat('^');
        let mut set = Set::default();
        while let Some(c) = self.next() {
            let lo = match c {
                ']' => break,
                '\\' => match self.next().map(|e| self.class_escape(e)) {
                    Some(Escaped::Char(one)) => one,
                    Some(Escaped::Class(class)) => {
                        set = set.or(class);
                        continue;
                    }
                    None => break,
                },
                c => c,
            };
            let range = self.peek() == Some('-')
                && !matches!(self.src[self.at + 1..].chars().next(), None | Some(']'));
            if !range {
                set = set.or(Set::one(lo));
                continue;
            }
            self.at += 1;
            let hi = match self.next() {
                Some('\\') => match self.next().map(|e| self.class_escape(e)) {
                    Some(Escaped::Char(one)) => one as u32,
                    _ => 0x10FFFF,
                },
                Some(h) => h as u32,
                None => 0x10FFFF,
            };
            let lo = lo as u32;
            set = set.or(Set::range(lo.min(hi), lo.max(hi)));
        }
        if negated {
            set.not()
        } else {
            set
        }
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
            ("^\\d{4}-\\d{2}-\\d{2}$", Shape::Power(1)),
            ("^[a-z0-9]+(\\.[a-z0-9]+)*$", Shape::Power(2)),
            ("^[^@]+@[^@]+\\.[a-z]{2,}$", Shape::Power(2)),
            ("^(?=.*[a-z])(?=.*\\d).{8,}$", Shape::Power(2)),
            ("abc", Shape::Power(1)),
            ("\\babc", Shape::Power(1)),
            ("[0-9]+", Shape::Power(2)),
            ("\\b[0-9]+", Shape::Power(2)),
            ("^a*a*a*b$", Shape::Power(3)),
            ("^[é-ü]+[a-z]+$", Shape::Power(1)),
            ("^(é)+$", Shape::Power(1)),
            ("^(a+)+$", Shape::Exponential(2)),
            ("^(a|a)*$", Shape::Exponential(2)),
            ("((a+)+)+", Shape::Exponential(3)),
            ("(.)\\1", Shape::Exponential(2)),
            ("(?<x>.)\\k<x>", Shape::Exponential(2)),
        ] {
            assert_eq!(Shape::of(p), shape, "{p}");
        }
    }

    #[test]
    fn bounds() {
        assert_eq!(Shape::Power(2).bound(9), 100);
        assert_eq!(Shape::Exponential(2).bound(3), 32);
        assert_eq!(Shape::Exponential(2).bound(1 << 20), u64::MAX);
        assert_eq!(Shape::Exponential(2).longest(20_000_000), 19);
        assert_eq!(Shape::Power(1).longest(20_000_000), 19_999_999);
    }
}
