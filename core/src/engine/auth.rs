//! The token every request and stream connection carries (`Authorization: Bearer <token>`),
//! and its refresh after a `401` when the shell can get a fresh one ([`Config::token_refresh`]:
//! the app gave a function, not a string).
//!
//! Each transmission remembers the generation of the token it went out with. A `401` of one
//! sent with an older token than the current one is sent again at once. A `401` of the current
//! token asks the shell for a fresh one ([`Output::RefreshToken`](super::Output::RefreshToken))
//! and holds what was refused until it comes ([`Input::Token`](super::Input::Token)); what is
//! refused meanwhile waits too, without asking again. A fresh token that is refused before the
//! server accepted it even once is fatal, as a refused token is without a refresh: the app's
//! function hands out tokens the server does not take, and asking again would loop. A `403`
//! is always fatal (the token is known and not allowed), as is a refresh that fails or does
//! not come within [`TOKEN_REFRESH_TIMEOUT`].
//!
//! Every token, the config's and each fresh one, goes through [`sendable_token`] before use:
//! trimmed of the whitespace `fetch` trims, and refused naming the problem (never the token)
//! if an HTTP header cannot carry it.
//!
//! [`Config::token_refresh`]: super::Config::token_refresh

use crate::time::Duration;
use std::fmt;

/// How long the engine waits for the shell's fresh token after a `401`; then it stops with
/// `unauthorized`.
pub const TOKEN_REFRESH_TIMEOUT: Duration = Duration::from_ms(30_000);

/// What to do with a transmission the server answered `401`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// It went out with an older token: send it again with the current one.
    Resend,
    /// Hold it for the fresh token; `ask`: ask the shell for one now (the first refusal).
    Wait { ask: bool },
    /// Stop: a refused token the engine cannot (or can no longer) replace. The text is added
    /// to the refused request's message.
    Fatal(&'static str),
}

#[derive(Debug)]
pub(super) struct Auth {
    /// `Bearer <token>`, built once per token.
    header: String,
    /// Counts the tokens: 0 is the config's, each fresh one adds 1.
    generation: u32,
    /// The server accepted the current token at least once.
    accepted: bool,
    /// The shell can get a fresh token.
    refreshable: bool,
    /// A fresh token was asked for and has not come yet.
    waiting: bool,
}

impl Auth {
    /// `token`: the config's, which [`Config::validate`](super::Config::validate) checked
    /// with [`sendable_token`]; it is trimmed the same way here.
    pub(super) fn new(token: &str, refreshable: bool) -> Auth {
        Auth {
            header: bearer(trim_http_whitespace(token)),
            generation: 0,
            accepted: false,
            refreshable,
            waiting: false,
        }
    }

    /// `Bearer <token>` of the current token.
    pub(super) fn header(&self) -> &str {
        &self.header
    }

    /// The current token's generation, to be kept with each transmission.
    pub(super) fn generation(&self) -> u32 {
        self.generation
    }

    /// Whether a fresh token was asked for and has not come yet.
    pub(super) fn is_waiting(&self) -> bool {
        self.waiting
    }

    /// The server took a transmission of `generation` (anything but a 401/403).
    pub(super) fn accepted(&mut self, generation: u32) {
        if generation == self.generation {
            self.accepted = true;
        }
    }

    /// The server refused a transmission of `generation` with `status` (401 or 403: only a
    /// 401 may be refreshed).
    pub(super) fn refused(&mut self, status: u16, generation: u32) -> Refused {
        if status != 401 || !self.refreshable {
            return Refused::Fatal("");
        }
        if self.waiting {
            return Refused::Wait { ask: false };
        }
        if generation < self.generation {
            return Refused::Resend;
        }
        if self.generation > 0 && !self.accepted {
            return Refused::Fatal(
                " (a token just refreshed, refused before the server took it once)",
            );
        }
        self.waiting = true;
        Refused::Wait { ask: true }
    }

    /// The shell's fresh token: what is sent from now on carries it, trimmed. A token that
    /// cannot be sent is refused with the problem and changes nothing.
    pub(super) fn fresh(&mut self, token: &str) -> Result<(), TokenProblem> {
        self.header = bearer(sendable_token(token)?);
        self.generation += 1;
        self.accepted = false;
        self.waiting = false;
        Ok(())
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// What `fetch` strips from both ends of a header value: HTTP whitespace (tab, LF, CR, space).
fn trim_http_whitespace(token: &str) -> &str {
    token.trim_matches(HTTP_WHITESPACE)
}

/// What `fetch` trims from a header value's ends (Fetch's "HTTP whitespace").
const HTTP_WHITESPACE: [char; 4] = ['\t', '\n', '\r', ' '];

/// Why a token cannot be sent as `Authorization: Bearer <token>`. Its text names the problem
/// and where it is, never the token, e.g. `holds a line break (character 9), which an HTTP
/// header cannot carry`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenProblem {
    /// Nothing left once trimmed.
    Empty,
    /// A character no header value may hold: `what` it is, at `at` (1-based, counted in
    /// characters of the token as given).
    Unsendable {
        /// The kind of character, in words (`a NUL`, `a line break`, …): a token is a
        /// secret, so its characters are never quoted.
        what: &'static str,
        /// Where it is: 1-based, in characters of the token as given.
        at: usize,
    },
}

impl fmt::Display for TokenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenProblem::Empty => f.write_str("empty, a value is needed"),
            TokenProblem::Unsendable { what, at } => write!(
                f,
                "holds {what} (character {at}), which an HTTP header cannot carry"
            ),
        }
    }
}

/// The token as it is sent: trimmed of leading and trailing HTTP whitespace (as `fetch` does),
/// then refused if a header value cannot carry it in a tab, in Node and in a worker alike: no
/// NUL, line break or other control character but tab, and every character in Latin-1 (a
/// `fetch` header is a ByteString). The one check of every token, the config's and each fresh
/// one.
pub fn sendable_token(token: &str) -> Result<&str, TokenProblem> {
    let trimmed = trim_http_whitespace(token);
    if trimmed.is_empty() {
        return Err(TokenProblem::Empty);
    }
    let before = token[..token.len() - token.trim_start_matches(HTTP_WHITESPACE).len()]
        .chars()
        .count();
    for (i, c) in trimmed.chars().enumerate() {
        let what = match c {
            '\0' => "a NUL",
            '\r' | '\n' => "a line break",
            '\t' => continue,
            c if (c as u32) < 0x20 || c == '\u{7f}' => "a control character",
            c if (c as u32) > 0xFF => "a character outside Latin-1",
            _ => continue,
        };
        return Err(TokenProblem::Unsendable {
            what,
            at: before + i + 1,
        });
    }
    Ok(trimmed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_refresh_a_401_is_fatal_and_a_403_always() {
        let mut a = Auth::new("t", false);
        assert_eq!(a.refused(401, 0), Refused::Fatal(""));
        let mut b = Auth::new("t", true);
        assert_eq!(b.refused(403, 0), Refused::Fatal(""));
    }

    #[test]
    fn the_first_401_asks_once_and_the_rest_wait() {
        let mut a = Auth::new("t", true);
        assert_eq!(a.refused(401, 0), Refused::Wait { ask: true });
        assert_eq!(a.refused(401, 0), Refused::Wait { ask: false });
        a.fresh("u").unwrap();
        assert_eq!(a.header(), "Bearer u");
        assert_eq!(a.generation(), 1);
        // Sent before the fresh token came: sent again, no new refresh.
        assert_eq!(a.refused(401, 0), Refused::Resend);
    }

    #[test]
    fn a_fresh_token_refused_before_it_was_taken_is_fatal() {
        let mut a = Auth::new("t", true);
        a.refused(401, 0);
        a.fresh("u").unwrap();
        assert!(matches!(a.refused(401, 1), Refused::Fatal(why) if !why.is_empty()));
    }

    #[test]
    fn a_fresh_token_taken_once_may_be_refreshed_again() {
        let mut a = Auth::new("t", true);
        for generation in 0..3 {
            assert_eq!(a.refused(401, generation), Refused::Wait { ask: true });
            a.fresh("next").unwrap();
            a.accepted(generation + 1);
        }
        assert_eq!(a.generation(), 3);
        // An old answer does not prove the current token.
        let mut b = Auth::new("t", true);
        b.refused(401, 0);
        b.fresh("u").unwrap();
        b.accepted(0);
        assert!(matches!(b.refused(401, 1), Refused::Fatal(_)));
    }

    #[test]
    fn a_token_is_trimmed_as_fetch_trims_it() {
        assert_eq!(sendable_token("abc\n"), Ok("abc"));
        assert_eq!(sendable_token(" \t\r\nabc def\t\n"), Ok("abc def"));
        // Not HTTP whitespace: kept (U+00A0 is Latin-1 and may be sent).
        assert_eq!(sendable_token("abc\u{a0}"), Ok("abc\u{a0}"));
        let mut a = Auth::new("t\n", true);
        assert_eq!(a.header(), "Bearer t");
        a.refused(401, 0);
        a.fresh(" u\r\n").unwrap();
        assert_eq!(a.header(), "Bearer u");
    }

    #[test]
    fn a_token_a_header_cannot_carry_is_refused_naming_the_problem_not_the_token() {
        let cases = [
            ("SECRET-1\nx", "a line break", 9),
            ("\nSECRET-1\rx", "a line break", 10),
            ("SECRET\0", "a NUL", 7),
            ("SE\u{1}CRET", "a control character", 3),
            ("SECRET\u{7f}x", "a control character", 7),
            ("SECRET-\u{20ac}", "a character outside Latin-1", 8),
        ];
        for (token, what, at) in cases {
            let problem = sendable_token(token).unwrap_err();
            assert_eq!(problem, TokenProblem::Unsendable { what, at }, "{token:?}");
            let text = problem.to_string();
            assert!(text.contains(what) && !text.contains("SE"), "{text}");
        }
        assert_eq!(sendable_token(" \n\t"), Err(TokenProblem::Empty));
        // A refused fresh token changes nothing: still waiting for one that can be sent.
        let mut a = Auth::new("t", true);
        a.refused(401, 0);
        assert!(a.fresh("u\nv").is_err());
        assert_eq!(
            (a.header(), a.generation(), a.is_waiting()),
            ("Bearer t", 0, true)
        );
    }
}
