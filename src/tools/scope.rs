//! Where a tool may act: its root element, and the form (or, for an app without `<form>`, the
//! root itself) that a call names. The agent's locator is hostile input: it is length-checked,
//! matched inside the root only, and must name exactly one form.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlFormElement};

use super::js::{document, proto_call, proto_get};
use super::options::{Config, FormChoice};

/// Longest locator (form or field name, label, id or selector) an agent may send.
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
    Ok(js_sys::Array::from(&list)
        .iter()
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect())
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

/// The tool's root: the app's element, or the body.
pub(crate) fn root(config: &Config) -> Result<Element, String> {
    let root = match &config.root {
        Some(r) => r.clone(),
        None => document()?
            .body()
            .map(Into::into)
            .ok_or("the page has no <body> yet")?,
    };
    if !connected(&root) {
        return Err("the tool's root element is no longer in the page".into());
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
    if let Some(f) = root.dyn_ref::<HtmlFormElement>() {
        forms.push(f.clone());
    }
    for el in query_all(root, "form")? {
        if let Ok(f) = el.dyn_into::<HtmlFormElement>() {
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

/// The form the agent named among `forms`: by id, by name, by its `form N` place, else by a
/// CSS selector that matches exactly one of them.
fn pick_form(
    root: &Element,
    forms: &[HtmlFormElement],
    loc: &str,
) -> Result<HtmlFormElement, String> {
    check_locator("form", loc)?;
    for (i, f) in forms.iter().enumerate() {
        if form_ref(f, i) == loc {
            return Ok(f.clone());
        }
    }
    let by_name: Vec<&HtmlFormElement> = forms
        .iter()
        .filter(|f| attr(f.unchecked_ref(), "name").as_deref() == Some(loc))
        .collect();
    if by_name.len() == 1 {
        return Ok(by_name[0].clone());
    }
    let matched = query_all(root, loc).map_err(|e| {
        format!("form: {loc:?} is no form's id or name in scope, nor a valid CSS selector ({e})")
    })?;
    match matched.as_slice() {
        [] => Err(format!(
            "form: no form in scope is called {loc:?} or matches it"
        )),
        [one] => one.clone().dyn_into::<HtmlFormElement>().map_err(|_| {
            format!(
                "form: {loc:?} matches a <{}>, not a form",
                one.tag_name().to_ascii_lowercase()
            )
        }),
        many => Err(format!(
            "form: {loc:?} matches {} elements, not one form",
            many.len()
        )),
    }
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
            let forms: Vec<HtmlFormElement> = found
                .into_iter()
                .filter_map(|e| e.dyn_into().ok())
                .collect();
            match forms.as_slice() {
                [one] => one.clone(),
                [] => return Err(format!("no form matching {sel:?} is on the page now")),
                many => {
                    return Err(format!(
                        "{} forms match {sel:?}; the tool needs one",
                        many.len()
                    ))
                }
            }
        }
        None => {
            let forms = forms_in(&root)?;
            match asked {
                Some(loc) => pick_form(&root, &forms, loc)?,
                None => match forms.as_slice() {
                    [one] => one.clone(),
                    [] if !need_form => return Ok(Container::Area(root)),
                    [] => return Err("there is no form in scope".into()),
                    many => {
                        let refs: Vec<String> = many
                            .iter()
                            .enumerate()
                            .map(|(i, f)| form_ref(f, i))
                            .collect();
                        return Err(format!(
                            "{} forms in scope; pass \"form\" as one of: {}",
                            many.len(),
                            refs.join(", ")
                        ));
                    }
                },
            }
        }
    };
    Ok(Container::Form(form))
}
