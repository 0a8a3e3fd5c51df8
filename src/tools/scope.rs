//! Where a tool may act: its root element, and the form (or, for an app without `<form>`, the
//! root itself) that a call names. The agent's locator is hostile input: it is length-checked,
//! compared as text with the refs of the forms inside the root only (never run as a selector),
//! and must name exactly one form. The app's own `form` option is a selector: the app is trusted.

use client_tools_core::quote::Quoted;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlFormElement};

use super::dom::cast;
use super::js::{document, proto_call, proto_get};
use super::options::{Config, FormChoice};

/// Longest locator (a form's or field's id, name, label or ref) an agent may send.
pub(crate) const LOCATOR_MAX: usize = 200;

/// The element whose fields a call works on.
pub(crate) enum Container {
    Form(HtmlFormElement),
    /// The tool's root, for pages whose fields sit in no `<form>`.
    Area(Element),
}

impl Container {
    pub(crate) fn element(&self) -> &Element {
        match self {
            Container::Form(f) => f.unchecked_ref(),
            Container::Area(e) => e,
        }
    }
}

/// `Element.prototype.getAttribute`, safe on a form whose controls shadow its methods.
pub(crate) fn attr(el: &Element, name: &str) -> Option<String> {
    proto_call("Element", "getAttribute", el, &[&JsValue::from_str(name)])
        .ok()
        .and_then(|v| v.as_string())
}

/// `root.querySelectorAll(selector)` through the prototype, as a vector.
pub(crate) fn query_all(root: &Element, selector: &str) -> Result<Vec<Element>, String> {
    let list = proto_call(
        "Element",
        "querySelectorAll",
        root,
        &[&JsValue::from_str(selector)],
    )?;
    Ok(super::js::elements(&list))
}

/// Whether `node` is `root` or inside it.
pub(crate) fn contains(root: &Element, node: &Element) -> bool {
    proto_call("Node", "contains", root, &[node])
        .map(|v| v.is_truthy())
        .unwrap_or(false)
}

/// Whether the element is still in the document.
pub(crate) fn connected(el: &Element) -> bool {
    proto_get("Node", "isConnected", el).is_truthy()
}

/// The answer when the tool's root element has left the page.
pub(crate) const ROOT_GONE: &str = "the tool's root element is no longer in the page";

/// The tool's root: the app's element, or the body.
pub(crate) fn root(config: &Config) -> Result<Element, String> {
    let root = match &config.root {
        Some(r) => r.clone(),
        None => super::dom::node_get("Document", "body", document()?.as_ref())
            .ok_or("the page has no <body> yet")?
            .unchecked_into(),
    };
    if !connected(&root) {
        return Err(ROOT_GONE.into());
    }
    Ok(root)
}

/// How a form is named to the agent: its id, else its name, else its place among the forms.
pub(crate) fn form_ref(form: &HtmlFormElement, index: usize) -> String {
    let el: &Element = form.unchecked_ref();
    match (attr(el, "id"), attr(el, "name")) {
        (Some(id), _) if !id.is_empty() => id,
        (_, Some(name)) if !name.is_empty() => name,
        _ => format!("form {}", index + 1),
    }
}

/// The forms inside the root, the root included.
pub(crate) fn forms_in(root: &Element) -> Result<Vec<HtmlFormElement>, String> {
    let mut forms: Vec<HtmlFormElement> = Vec::new();
    for el in std::iter::once(root.clone()).chain(query_all(root, "form")?) {
        if let Some(f) = cast(el.into(), "HTMLFormElement") {
            forms.push(f);
        }
    }
    Ok(forms)
}

/// Checks an agent-given locator: not empty, not huge, no control characters.
pub(crate) fn check_locator(what: &str, loc: &str) -> Result<(), String> {
    if loc.trim().is_empty() {
        return Err(format!("{what} is empty"));
    }
    let n = loc.chars().count();
    if n > LOCATOR_MAX {
        return Err(format!(
            "{what} is {n} characters long; at most {LOCATOR_MAX}"
        ));
    }
    if loc.chars().any(char::is_control) {
        return Err(format!("{what} contains control characters"));
    }
    Ok(())
}

/// Most refs listed when a form locator names none.
const REFS_LISTED: usize = 20;

/// The refs of `forms` for a refusal, all from inside the root.
fn list_refs(forms: &[HtmlFormElement]) -> String {
    let mut refs: Vec<String> = Vec::new();
    for (i, f) in forms.iter().take(REFS_LISTED).enumerate() {
        refs.push(Quoted(&form_ref(f, i)).to_string());
    }
    if forms.len() > REFS_LISTED {
        refs.push("…".into());
    }
    client_tools_core::text::join(&refs, ", ")
}

/// The form the agent named among `forms` (those inside the root): an exact id, else an exact
/// name, else its `form N` place. The locator is compared as text and never given to a
/// selector engine: a selector would let the model test any attribute of the page (a CSRF
/// token, a password's `value`), and `:has()` reaches outside the root. A refusal lists only
/// in-scope refs, so it reads the same whether the name exists outside the root or nowhere.
fn pick_form(forms: &[HtmlFormElement], loc: &str) -> Result<HtmlFormElement, String> {
    check_locator("form", loc)?;
    let by = |pick: &dyn Fn(usize, &HtmlFormElement) -> bool| -> Vec<&HtmlFormElement> {
        let mut hits = Vec::new();
        for (i, f) in forms.iter().enumerate() {
            if pick(i, f) {
                hits.push(f);
            }
        }
        hits
    };
    let tiers = [
        by(&|_, f| attr(f.unchecked_ref(), "id").as_deref() == Some(loc)),
        by(&|_, f| attr(f.unchecked_ref(), "name").as_deref() == Some(loc)),
        by(&|i, _| format!("form {}", i + 1) == loc),
    ];
    for tier in tiers {
        match tier.as_slice() {
            [] => continue,
            [one] => return Ok((*one).clone()),
            many => {
                return Err(format!(
                    "form: {} names {} forms; pass one of: {}",
                    Quoted(loc),
                    many.len(),
                    list_refs(forms)
                ))
            }
        }
    }
    if forms.is_empty() {
        return Err(format!(
            "form: no form in scope is called {}; there is no form in scope",
            Quoted(loc)
        ));
    }
    Err(format!(
        "form: no form in scope is called {}; pass one of: {}",
        Quoted(loc),
        list_refs(forms)
    ))
}

/// The container a call works on. `asked` is the agent's `form` argument; `need_form` is set
/// by submit, which cannot work on a bare area.
pub(crate) fn container(
    config: &Config,
    asked: Option<&str>,
    need_form: bool,
) -> Result<Container, String> {
    let root = root(config)?;
    let form = match &config.form {
        Some(FormChoice::Element(f)) => {
            if !connected(f.unchecked_ref()) {
                return Err("the tool's form is no longer in the page".into());
            }
            if !contains(&root, f.unchecked_ref()) {
                return Err("the tool's form is outside its root element".into());
            }
            f.clone()
        }
        Some(FormChoice::Selector(sel)) => {
            let found =
                query_all(&root, sel).map_err(|e| format!("the tool's form selector: {e}"))?;
            let mut forms: Vec<HtmlFormElement> = Vec::new();
            for e in found {
                if let Some(f) = cast(e.into(), "HTMLFormElement") {
                    forms.push(f);
                }
            }
            match forms.as_slice() {
                [one] => one.clone(),
                [] => {
                    return Err(format!(
                        "no form matching {} is on the page now",
                        Quoted(sel)
                    ))
                }
                many => {
                    return Err(format!(
                        "{} forms match {}; the tool needs one",
                        many.len(),
                        Quoted(sel)
                    ))
                }
            }
        }
        None => {
            let forms = forms_in(&root)?;
            match asked {
                Some(loc) => pick_form(&forms, loc)?,
                None => match forms.as_slice() {
                    [one] => one.clone(),
                    [] if !need_form => return Ok(Container::Area(root)),
                    [] => return Err("there is no form in scope".into()),
                    many => {
                        let mut refs: Vec<String> = Vec::new();
                        for (i, f) in many.iter().enumerate() {
                            refs.push(form_ref(f, i));
                        }
                        return Err(format!(
                            "{} forms in scope; pass \"form\" as one of: {}",
                            many.len(),
                            client_tools_core::text::join(&refs, ", ")
                        ));
                    }
                },
            }
        }
    };
    Ok(Container::Form(form))
}
