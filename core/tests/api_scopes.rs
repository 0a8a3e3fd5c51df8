//! Tool scopes: the union of the live scopes in creation order, the newest scope's tool for a
//! shared name, one offer per batch of changes, and limits that keep the last good list.

use client_tools_core::api::{ErrorKind, ScopeId, Scopes};
use client_tools_core::calls::ToolDef;
use client_tools_core::protocol::ToolSpec;

fn tool(name: &str, description: &str) -> ToolDef {
    ToolDef::new(ToolSpec {
        name: name.into(),
        description: description.into(),
        parameters: None,
    })
}

fn names(tools: &[ToolDef]) -> Vec<String> {
    tools
        .iter()
        .map(|t| format!("{}:{}", t.spec.name, t.spec.description))
        .collect()
}

#[test]
fn the_union_is_in_creation_order_and_changes_batch_into_one_offer() {
    let mut s = Scopes::new(vec![tool("nav", "root")]);
    assert_eq!(s.take(), None, "nothing changed yet");
    let a = s.open(vec![tool("list", "a")]).unwrap();
    let b = s.open(vec![tool("open", "b"), tool("close", "b")]).unwrap();
    s.update(a, vec![tool("list", "a2")]).unwrap();
    let offer = s.take().expect("three changes, one offer");
    assert_eq!(
        names(&offer.tools),
        ["nav:root", "list:a2", "open:b", "close:b"]
    );
    assert!(offer.shadowed.is_empty());
    assert_eq!(s.take(), None);
    s.release(b);
    s.release(b); // twice: nothing more
    let offer = s.take().unwrap();
    assert_eq!(names(&offer.tools), ["nav:root", "list:a2"]);
    s.update(b, vec![tool("gone", "b")]).unwrap(); // a released scope: nothing to do
    assert_eq!(s.take(), None);
    s.update(ScopeId::ROOT, vec![]).unwrap();
    s.release(ScopeId::ROOT); // the root stays
    assert_eq!(names(&s.take().unwrap().tools), ["list:a2"]);
}

#[test]
fn the_newest_scope_wins_a_name_and_the_shadowing_is_reported_once() {
    let mut s = Scopes::new(vec![]);
    let old = s
        .open(vec![tool("search", "old"), tool("x", "old")])
        .unwrap();
    let new = s.open(vec![tool("search", "new")]).unwrap();
    let offer = s.take().unwrap();
    assert_eq!(names(&offer.tools), ["x:old", "search:new"]);
    assert_eq!(offer.shadowed, ["search"]);
    s.update(old, vec![tool("search", "old2"), tool("x", "old")])
        .unwrap();
    let offer = s.take().unwrap();
    assert_eq!(names(&offer.tools), ["x:old", "search:new"]);
    assert!(
        offer.shadowed.is_empty(),
        "reported once while it stays shadowed"
    );
    s.release(new);
    let offer = s.take().unwrap();
    assert_eq!(names(&offer.tools), ["search:old2", "x:old"]);
    let _again = s.open(vec![tool("search", "third")]).unwrap();
    assert_eq!(
        s.take().unwrap().shadowed,
        ["search"],
        "a new shadowing is reported"
    );
}

#[test]
fn over_the_limit_the_update_fails_naming_the_scope_and_the_last_good_list_stays() {
    let mut s = Scopes::new((0..60).map(|i| tool(&format!("t{i}"), "")).collect());
    let a = s.open(vec![tool("a", "")]).unwrap();
    s.take();
    let five: Vec<ToolDef> = (0..5).map(|i| tool(&format!("s{i}"), "")).collect();
    let e = s.update(a, five.clone()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidOption);
    let text = e.to_string();
    assert!(text.contains("[s0, s1, s2, s3, s4]"), "{text}");
    assert!(text.contains("64"), "says the limit: {text}");
    assert_eq!(s.take(), None, "nothing changed");
    let e = s.open(five).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidOption);
    // A scope over 64 on its own is named too (its first 8 names).
    let seventy: Vec<ToolDef> = (0..70).map(|i| tool(&format!("big{i}"), "")).collect();
    let text = s.update(a, seventy).unwrap_err().to_string();
    assert!(
        text.contains("[big0, big1, big2, big3, big4, big5, big6, big7, …]") && text.contains("64"),
        "{text}"
    );
    s.update(a, vec![tool("b", "")]).unwrap();
    let offer = s.take().unwrap();
    assert_eq!(offer.tools.len(), 61);
    assert_eq!(offer.tools[60].spec.name, "b");
    // A list wrong in itself names the tool, in the list's own indices.
    let e = s
        .update(a, vec![tool("ok", ""), tool("bad name", "")])
        .unwrap_err();
    assert_eq!(e.field(), Some("tools[1].name"), "{e}");
    let e = s
        .update(a, vec![tool("dup", ""), tool("dup", "")])
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidOption, "{e}");
    assert_eq!(s.take(), None);
}
