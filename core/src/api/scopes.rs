//! Tool scopes: what a client offers is the union of its live scopes in creation order (the
//! root scope, which `set_tools` sets, first); a name two scopes declare is the newest one's.
//! A change only marks the union changed: the shell sends it (one `PUT` for every change of
//! one task) when it takes the [`Offer`], and before any call's result is posted.

use super::Error;
use crate::calls::ToolDef;
use crate::engine::validate_tool_refs;

/// One scope of a client's tools, as [`Scopes::open`] gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScopeId(u64);

impl ScopeId {
    /// The scope `set_tools` sets; it is first in the union and lives as long as the client.
    pub const ROOT: ScopeId = ScopeId(0);

    /// The number a shell's JS side holds for this scope.
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// The scope numbered `raw` by [`ScopeId::to_raw`] (an unknown one is a released one).
    pub fn from_raw(raw: u64) -> ScopeId {
        ScopeId(raw)
    }
}

/// The union to declare, once something changed.
#[derive(Debug, PartialEq)]
pub struct Offer<T> {
    /// The tools on offer, each name once: the newest scope's.
    pub tools: Vec<T>,
    /// The names shadowed now that were not before (to report once each).
    pub shadowed: Vec<String>,
}

/// The live scopes of one client, oldest first.
#[derive(Debug)]
pub struct Scopes<T> {
    next: u64,
    live: Vec<(u64, Vec<T>)>,
    /// The names reported shadowed and still shadowed.
    shadowed: Vec<String>,
    changed: bool,
}

fn def<T: AsRef<ToolDef>>(t: &T) -> &ToolDef {
    t.as_ref()
}

impl<T: AsRef<ToolDef> + Clone> Scopes<T> {
    /// The scopes of a client that registered with `root` (already checked).
    pub fn new(root: Vec<T>) -> Scopes<T> {
        Scopes {
            next: 1,
            live: vec![(0, root)],
            shadowed: Vec::new(),
            changed: false,
        }
    }

    /// Opens the newest scope, of `tools`. Fails, changing nothing, as [`Scopes::update`] does.
    pub fn open(&mut self, tools: Vec<T>) -> Result<ScopeId, Error> {
        let id = self.next;
        self.live.push((id, Vec::new()));
        match self.update(ScopeId(id), tools) {
            Ok(()) => {
                self.next += 1;
                Ok(ScopeId(id))
            }
            Err(e) => {
                self.live.pop();
                Err(e)
            }
        }
    }

    /// Replaces the tools of scope `id` (a released scope's: nothing to do). A list that is
    /// wrong in itself fails naming the tool (`tools[1].name: …`); one that would take the
    /// union over the protocol's limits fails naming the scope's tools. Either way the
    /// scope keeps its last good list.
    pub fn update(&mut self, id: ScopeId, tools: Vec<T>) -> Result<(), Error> {
        let Some(i) = self.live.iter().position(|(s, _)| *s == id.0) else {
            return Ok(());
        };
        let defs: Vec<&ToolDef> = tools.iter().map(def).collect();
        // The scope's first 8 names, for an error about the whole list.
        let mut names = String::new();
        for (n, d) in defs.iter().enumerate() {
            if n == 8 {
                names.push_str(", …");
                break;
            }
            if n > 0 {
                names.push_str(", ");
            }
            names.push_str(&d.spec.name);
        }
        let over = |e: crate::protocol::ValidationError| {
            let why = format!(
                "the scope of [{names}] would take the tool list over a limit ({})",
                Error::from(e)
            );
            Error::invalid_option("tools", why)
        };
        match validate_tool_refs(&defs) {
            // A limit of the whole list (64 tools, the size); a tool's own fault names it.
            // (The root's own list is `set_tools`': its error as it always was.)
            Err(e) if e.field == "tools" && id != ScopeId::ROOT => return Err(over(e)),
            Err(e) => return Err(e.into()),
            Ok(()) => {}
        }
        let old = std::mem::replace(&mut self.live[i].1, tools);
        let mut union = Vec::new();
        for (s, t) in self.union().0 {
            union.push(def(&self.live[s].1[t]));
        }
        if let Err(e) = validate_tool_refs(&union) {
            self.live[i].1 = old;
            return Err(over(e));
        }
        self.changed = true;
        Ok(())
    }

    /// Releases scope `id`: its tools are no longer offered, and those it shadowed are again.
    /// The root scope is not released (it is emptied by `set_tools` with no tools).
    pub fn release(&mut self, id: ScopeId) {
        if id == ScopeId::ROOT {
            return;
        }
        let before = self.live.len();
        self.live.retain(|(s, _)| *s != id.0);
        self.changed |= self.live.len() != before;
    }

    /// The union (each name once, the newest scope's, in creation order) as (scope, tool)
    /// indices, and the names shadowed in it. (Indices and loops: less .wasm than iterators
    /// of references.)
    fn union(&self) -> (Vec<(usize, usize)>, Vec<String>) {
        let mut tools = Vec::new();
        let mut shadowed: Vec<String> = Vec::new();
        for i in 0..self.live.len() {
            for (j, t) in self.live[i].1.iter().enumerate() {
                let name = &def(t).spec.name;
                let mut newer = false;
                for (_, s) in &self.live[i + 1..] {
                    for u in s {
                        newer |= def(u).spec.name == *name;
                    }
                }
                if !newer {
                    tools.push((i, j));
                } else if !shadowed.contains(name) {
                    shadowed.push(name.clone());
                }
            }
        }
        (tools, shadowed)
    }

    /// The union to declare, if anything changed since the last one taken.
    pub fn take(&mut self) -> Option<Offer<T>> {
        if !std::mem::take(&mut self.changed) {
            return None;
        }
        let (at, now) = self.union();
        let mut tools = Vec::with_capacity(at.len());
        for (s, t) in at {
            tools.push(self.live[s].1[t].clone());
        }
        let mut shadowed = Vec::new();
        for n in &now {
            if !self.shadowed.contains(n) {
                shadowed.push(n.clone());
            }
        }
        self.shadowed = now;
        Some(Offer { tools, shadowed })
    }

    /// Whether a change waits to be taken.
    pub fn changed(&self) -> bool {
        self.changed
    }
}

impl AsRef<ToolDef> for ToolDef {
    fn as_ref(&self) -> &ToolDef {
        self
    }
}
