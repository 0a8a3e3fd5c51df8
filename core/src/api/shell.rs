//! What differs between the shells' [`Tool`](super::Tool) and [`Options`](super::Options): the
//! context a handler gets, whether handlers and callbacks may move between threads, the
//! defaults, and what only one shell's options hold.
//!
//! This is the `SendOutsideWasm` idea of matrix-rust-sdk (`Send` in a worker, nothing in a tab),
//! keyed on the shell instead of the target: the browser crate is also compiled natively (its
//! unit tests in `cargo test --workspace`, clippy), and there its handlers still hold JS values
//! and `Rc`s, so a bound that means `Send` on every native target would not compile it. Each
//! shell names its [`Threads`] instead: [`Local`] for the page's event loop, [`Sendable`] for
//! tokio's threads.

use super::IntoToolResult;
use crate::calls::Returned;
use crate::protocol::Lifetime;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::future::{self, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;

/// A shell of the SDK: the browser's (`client_tools`) or the worker's (`client_tools_native`).
/// Its `Tool` and `Options` are [`Tool<Self>`](super::Tool) and
/// [`Options<Self>`](super::Options).
pub trait Shell: Sized + 'static {
    /// What a handler gets besides its arguments (the shell's `CallContext`).
    type Context: 'static;
    /// Where handlers and callbacks run: [`Local`] (one thread, need not be `Send`) or
    /// [`Sendable`] (`Send + Sync`, futures `Send`).
    type Threads: Threads;
    /// What only this shell's options hold (the browser's: the shared stream, the abort signal).
    type Extra: Clone;
    /// The client name [`Options::new`](super::Options::new) asks for: `web` or `worker`.
    const NAME: &'static str;
    /// The lifetime [`Options::new`](super::Options::new) asks for.
    fn lifetime() -> Lifetime;
    /// [`Shell::Extra`] as [`Options::new`](super::Options::new) sets it.
    fn extra() -> Self::Extra;
}

/// Where a shell's handlers and callbacks run, and so how they are held once their closure
/// type is erased.
pub trait Threads: 'static {
    /// A handler with its closure type erased: every transport of the shell runs tools
    /// through it.
    type Handler<C: 'static>: Clone;
    /// A callback told of the client's status or of a call's progress.
    type Callback<T: 'static>: Clone;
    /// Where a fresh token comes from after a 401: a fresh token, or why there is none.
    type TokenSource: Clone;
}

/// One thread, the page's event loop: closures and their futures may hold `Rc`s, signals and
/// DOM nodes.
pub enum Local {}

/// Tokio's threads: closures are `Send + Sync` and their futures `Send`.
pub enum Sendable {}

/// A handler's answer on one thread.
pub type LocalAnswer = Pin<Box<dyn Future<Output = Returned>>>;
/// A handler's answer that may move between threads.
pub type SendableAnswer = Pin<Box<dyn Future<Output = Returned> + Send>>;
/// A fresh token, or why there is none, on one thread.
pub type LocalToken = Pin<Box<dyn Future<Output = Result<String, String>>>>;
/// A fresh token, or why there is none, that may move between threads.
pub type SendableToken = Pin<Box<dyn Future<Output = Result<String, String>> + Send>>;

impl Threads for Local {
    type Handler<C: 'static> = Rc<dyn Fn(Map<String, Value>, C) -> LocalAnswer>;
    type Callback<T: 'static> = Rc<dyn Fn(&T)>;
    type TokenSource = Rc<dyn Fn() -> LocalToken>;
}

impl Threads for Sendable {
    type Handler<C: 'static> = Arc<dyn Fn(Map<String, Value>, C) -> SendableAnswer + Send + Sync>;
    type Callback<T: 'static> = Arc<dyn Fn(&T) + Send + Sync>;
    type TokenSource = Arc<dyn Fn() -> SendableToken + Send + Sync>;
}

/// How a handler takes its arguments: as they came ([`Untyped`], `Tool::new`) or deserialized
/// into its own type ([`Typed`], `Tool::typed`).
pub trait Arguments: 'static {
    /// What the handler gets.
    type Read;
    /// The arguments as the handler takes them, or why they do not fit (naming the field).
    fn read(arguments: Map<String, Value>) -> Result<Self::Read, String>;
}

/// The arguments as they came (already checked against the tool's schema).
pub enum Untyped {}

/// The arguments deserialized into an `A`.
pub struct Typed<A>(std::marker::PhantomData<fn() -> A>);

impl Arguments for Untyped {
    type Read = Map<String, Value>;
    fn read(arguments: Map<String, Value>) -> Result<Self::Read, String> {
        Ok(arguments)
    }
}

impl<A: DeserializeOwned + 'static> Arguments for Typed<A> {
    type Read = A;
    fn read(arguments: Map<String, Value>) -> Result<A, String> {
        super::typed_arguments(arguments)
    }
}

/// A handler closure `F` (of `As::Read` and a `C`, returning a `Fut`) these threads can hold.
#[diagnostic::on_unimplemented(
    message = "this closure cannot be the shell's tool handler",
    note = "a worker's handler (client-tools-native) and its future must be `Send`; the closure \
            takes the arguments and the shell's `CallContext`"
)]
pub trait HoldsHandler<As: Arguments, C: 'static, F, Fut>: Threads {
    /// `f` with its type erased: the arguments read, then `f` run, its output as
    /// [`IntoToolResult`] says; arguments that do not fit answer `is_error` without running it.
    fn handler(f: F) -> Self::Handler<C>;
}

impl<As, C, F, Fut> HoldsHandler<As, C, F, Fut> for Local
where
    As: Arguments,
    C: 'static,
    F: Fn(As::Read, C) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoToolResult,
{
    fn handler(f: F) -> Self::Handler<C> {
        Rc::new(move |arguments, ctx| match As::read(arguments) {
            Ok(read) => {
                let fut = f(read, ctx);
                Box::pin(async move { fut.await.into_returned() })
            }
            Err(why) => Box::pin(future::ready(Returned::Threw(why))),
        })
    }
}

impl<As, C, F, Fut> HoldsHandler<As, C, F, Fut> for Sendable
where
    As: Arguments,
    C: 'static,
    F: Fn(As::Read, C) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResult,
{
    fn handler(f: F) -> Self::Handler<C> {
        Arc::new(move |arguments, ctx| match As::read(arguments) {
            Ok(read) => {
                let fut = f(read, ctx);
                Box::pin(async move { fut.await.into_returned() })
            }
            Err(why) => Box::pin(future::ready(Returned::Threw(why))),
        })
    }
}

/// A callback `F` of a `&T` these threads can hold.
#[diagnostic::on_unimplemented(
    message = "this closure cannot be the shell's callback",
    note = "a worker's callbacks (client-tools-native) must be `Send + Sync`"
)]
pub trait HoldsCallback<T: 'static, F>: Threads {
    /// `f` with its type erased.
    fn callback(f: F) -> Self::Callback<T>;
}

impl<T: 'static, F: Fn(&T) + 'static> HoldsCallback<T, F> for Local {
    #[inline]
    fn callback(f: F) -> Self::Callback<T> {
        Rc::new(f)
    }
}

impl<T: 'static, F: Fn(&T) + Send + Sync + 'static> HoldsCallback<T, F> for Sendable {
    #[inline]
    fn callback(f: F) -> Self::Callback<T> {
        Arc::new(f)
    }
}

/// A token source `F` (returning a `Fut`) these threads can hold.
#[diagnostic::on_unimplemented(
    message = "this closure cannot be the shell's token source",
    note = "a worker's token source (client-tools-native) and its future must be `Send`"
)]
pub trait HoldsTokenSource<F, Fut>: Threads {
    /// `f` with its type erased.
    fn token_source(f: F) -> Self::TokenSource;
}

impl<F, Fut> HoldsTokenSource<F, Fut> for Local
where
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Result<String, String>> + 'static,
{
    #[inline]
    fn token_source(f: F) -> Self::TokenSource {
        Rc::new(move || Box::pin(f()))
    }
}

impl<F, Fut> HoldsTokenSource<F, Fut> for Sendable
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<String, String>> + Send + 'static,
{
    #[inline]
    fn token_source(f: F) -> Self::TokenSource {
        Arc::new(move || Box::pin(f()))
    }
}
