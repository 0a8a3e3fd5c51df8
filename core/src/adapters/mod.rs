//! The pure halves of the transports other than the Sessions API: each reads how a call
//! arrives and writes how its answer leaves, over the shared [call runtime](crate::calls).

pub mod ws;
