//! The error answer of PROTOCOL.md: `{"error": {"type", "message", "param"}}` with its status,
//! defined once with the session rules that refuse requests (`client-tools-sessions`), and an
//! axum response there (its feature `axum`).

pub use client_tools_sessions::HttpError;
