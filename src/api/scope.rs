//! Tool scopes: the tools of one part of a page (a component, a route) for as long as it is
//! on screen. The client offers the union of its live scopes; the rules are the core's
//! ([`client_tools_core::api::Scopes`]).

use super::client::{declared, Client, Pending};
use super::Tool;
use crate::browser::oneshot;
use crate::browser::Shared;
use client_tools_core::api::{Error, ScopeId};
use std::future::Future;
use std::rc::{Rc, Weak};

/// Some of a client's tools, offered while the scope lives: [`ToolScope::update`] replaces
/// them, [`ToolScope::release`] (or dropping the scope) withdraws them.
///
/// What the client offers is the union of its live scopes in the order they were made, after
/// the tools of [`Client::set_tools`]; a name two scopes declare is the newest scope's tool
/// (the older one's again once the newer scope is released; the status reports the shadowing
/// once). Every change made in one task goes out as one `PUT`, and changes made before a
/// handler's future completes are declared before that call's result is posted.
#[must_use = "dropping a ToolScope withdraws its tools"]
pub struct ToolScope {
    shared: Weak<Shared>,
    id: ScopeId,
}

impl Client {
    /// Offers `tools` as a new scope, on top of the client's other tools. Fails, offering
    /// nothing new, with [`ErrorKind::InvalidOption`](client_tools_core::api::ErrorKind)
    /// naming a bad tool (`tools[1].name: …`), or naming the scope's tools when the union
    /// would cross the protocol's limits (64 tools, sizes).
    pub fn scope(&self, tools: Vec<Tool>) -> Result<ToolScope, Error> {
        self.open_scope(tools).map_err(Error::in_rust_spelling)
    }

    /// [`Client::scope`], errors in the JS spelling.
    pub(crate) fn open_scope(&self, tools: Vec<Tool>) -> Result<ToolScope, Error> {
        let id = self.shared.open_scope(tools)?;
        Ok(ToolScope {
            shared: std::rc::Rc::downgrade(&self.shared),
            id,
        })
    }
}

/// The scope operations by id, which `ToolScope` and the JS `Client` (holding only the
/// number) share.
impl Shared {
    pub(crate) fn open_scope(self: &Rc<Self>, tools: Vec<Tool>) -> Result<ScopeId, Error> {
        let id = self.scopes.borrow_mut().open(tools)?;
        self.scopes_changed(None);
        Ok(id)
    }

    pub(crate) fn update_scope(
        self: &Rc<Self>,
        id: ScopeId,
        tools: Vec<Tool>,
    ) -> Result<Pending, Error> {
        self.scopes.borrow_mut().update(id, tools)?;
        let (waiter, pending) = oneshot::channel();
        self.scopes_changed(Some(waiter));
        Ok(pending)
    }

    pub(crate) fn release_scope(self: &Rc<Self>, id: ScopeId) {
        self.scopes.borrow_mut().release(id);
        if self.scopes.borrow().changed() {
            self.scopes_changed(None);
        }
    }
}

impl ToolScope {
    /// Replaces this scope's tools; the future completes once the server has the new union
    /// (at once if it offers the same list). Fails as [`Client::scope`] does, and then the
    /// scope keeps its last good list.
    pub fn update(&self, tools: Vec<Tool>) -> impl Future<Output = Result<(), Error>> {
        let started = self.begin_update(tools);
        declared(self.shared.upgrade().as_ref(), started)
    }

    /// The synchronous part of `update`, errors in the JS spelling.
    fn begin_update(&self, tools: Vec<Tool>) -> Result<Pending, Error> {
        match self.shared.upgrade() {
            Some(shared) => shared.update_scope(self.id, tools),
            None => {
                let (waiter, pending) = oneshot::channel();
                waiter.send(Ok(()));
                Ok(pending)
            }
        }
    }

    /// Withdraws this scope's tools (with the other changes of this task, in one `PUT`).
    /// Releasing twice does nothing.
    pub fn release(&self) {
        if let Some(shared) = self.shared.upgrade() {
            shared.release_scope(self.id);
        }
    }
}

impl Drop for ToolScope {
    fn drop(&mut self) {
        self.release();
    }
}
