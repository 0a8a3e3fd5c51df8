//! The one visibility rule of every page tool: a text, a field or a control counts only when a
//! person could see it. Only what counts reaches the model (labels, legends, button names,
//! values) or can be acted on (`fill_form` refuses the rest, saying which of [`Unseen`]).
//!
//! An element counts when it is rendered (`Element.checkVisibility`: not `display: none`, not
//! `visibility: hidden`, not inside a closed `<details>` or `content-visibility: hidden`), is not
//! `inert`, is not near-transparent (the product of its and its ancestors' opacity), is at least
//! [`CONTROL_MIN`] px wide and high after transforms, lies where scrolling can bring it (not
//! left of or above the page, not clipped away by an `overflow: hidden` box, `clip` or
//! `clip-path`) and, where it is in the viewport, is what a hit test at the centre of each of
//! its boxes (client rects) finds (or inside it): otherwise it is covered.
//!
//! A text node counts when its parent is not `content-visibility: hidden` (`hidden="until-found"`
//! sets it) and is not a closed `<details>` (text outside its `<summary>`), and one of its lines
//! is at least [`TEXT_MIN`] px high where it can be seen (inside the page and every clipping
//! box), not near-transparent, in a colour that stands out from its background, and (in the
//! viewport) not under another element.
//!
//! A scroll box's content is within reach as far as the box scrolls, past the document's end
//! too (an app shell: a fixed-height box holding the page), when part of the box itself is.
//!
//! What is judged lies in the whole page, not only in the tool's root: an overlay or a clipping
//! box outside it hides what is inside it as much as one inside.

use super::dom::{closest, is_a, node_get};
use super::js::{get, number_prop, object, proto_call, set, string_prop};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// Lowest opacity (an element's times its ancestors') at which a text or a control counts.
const OPACITY_MIN: f64 = 0.1;
/// Smallest width and height, in CSS pixels after transforms, of a control a person can see
/// and use (a 1 × 1 field, a 2 × 2 "visually hidden" box are below it).
const CONTROL_MIN: f64 = 4.0;
/// Smallest height, in CSS pixels after transforms, of a line of text a person can read (a
/// 1 px font, text scaled to 2 %, a 2 px `overflow: hidden` box are below it).
const TEXT_MIN: f64 = 6.0;
/// Lowest contrast ratio (WCAG's formula) between a text's colour and its background at which
/// the text counts (white on white is 1; WCAG asks 4.5 of readable text).
const CONTRAST_MIN: f64 = 1.5;
/// Most ancestors looked at for opacity, clipping and background.
const DEPTH_MAX: usize = 256;

/// Why a control does not count as seen: the reason `fill_form` gives. "covered" never names
/// what covers it (that may lie outside the tool's root).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unseen {
    Hidden,
    Transparent,
    Small,
    OffPage,
    Clipped,
    Covered,
}

impl Unseen {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Unseen::Hidden => "hidden",
            Unseen::Transparent => "transparent or nearly so",
            Unseen::Small => "too small to see",
            Unseen::OffPage => "off the page",
            Unseen::Clipped => "clipped out of view",
            Unseen::Covered => "covered",
        }
    }
}

/// An extent along one axis: (start, end).
type Span = (f64, f64);
/// What no box overlaps.
const NOWHERE: Span = (f64::INFINITY, f64::NEG_INFINITY);

fn overlap(a: Span, b: Span) -> bool {
    a.0.max(b.0) < a.1.min(b.1)
}

/// A box in viewport coordinates.
#[derive(Clone, Copy)]
struct Rect {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Rect {
    fn of(v: &JsValue) -> Rect {
        let n = |k| number_prop(v, k);
        Rect {
            left: n("left"),
            top: n("top"),
            right: n("right"),
            bottom: n("bottom"),
        }
    }
    fn width(&self) -> f64 {
        self.right - self.left
    }
    fn height(&self) -> f64 {
        self.bottom - self.top
    }
    fn at_least(&self, w: f64, h: f64) -> bool {
        self.width() >= w && self.height() >= h
    }
    /// Everywhere: what bounds nothing.
    const ALL: Rect = Rect {
        left: f64::NEG_INFINITY,
        top: f64::NEG_INFINITY,
        right: f64::INFINITY,
        bottom: f64::INFINITY,
    };
    /// Its extent along one axis.
    fn span(&self, x_axis: bool) -> Span {
        if x_axis {
            (self.left, self.right)
        } else {
            (self.top, self.bottom)
        }
    }
    /// Cuts it to `s` along one axis.
    fn narrow(&mut self, x_axis: bool, s: Span) {
        let (lo, hi) = if x_axis {
            (&mut self.left, &mut self.right)
        } else {
            (&mut self.top, &mut self.bottom)
        };
        *lo = lo.max(s.0);
        *hi = hi.min(s.1);
    }
    fn and(&self, o: &Rect) -> Rect {
        Rect {
            left: self.left.max(o.left),
            top: self.top.max(o.top),
            right: self.right.min(o.right),
            bottom: self.bottom.min(o.bottom),
        }
    }
}

fn global() -> JsValue {
    js_sys::global().into()
}

fn document_element() -> JsValue {
    node_get("Document", "documentElement", &get(&global(), "document")).unwrap_or_default()
}

/// The computed style of `el` (`getComputedStyle` lives on the window itself, not on
/// `Window.prototype`).
fn style(el: &Element) -> JsValue {
    super::js::call_method(&global(), "getComputedStyle", &[el]).unwrap_or_default()
}

/// One computed property, by its CSS name.
fn css(style: &JsValue, prop: &str) -> String {
    proto_call(
        "CSSStyleDeclaration",
        "getPropertyValue",
        style,
        &[&JsValue::from_str(prop)],
    )
    .ok()
    .and_then(|v| v.as_string())
    .unwrap_or_default()
}

fn bounds(el: &Element) -> Rect {
    Rect::of(&proto_call("Element", "getBoundingClientRect", el, &[]).unwrap_or_default())
}

/// The parent in the composed tree: a shadow root's host stands for the root.
fn parent(el: &Element) -> Option<Element> {
    if let Some(p) = node_get("Node", "parentElement", el) {
        return Some(p.unchecked_into());
    }
    let root = proto_call("Node", "getRootNode", el, &[]).ok()?;
    is_a(&root, "ShadowRoot")
        .then(|| get(&root, "host"))
        .filter(JsValue::is_object)
        .map(JsCast::unchecked_into)
}

/// What scrolling can bring into view: the whole document.
fn page() -> Rect {
    let (w, d) = (global(), document_element());
    let (x, y) = (number_prop(&w, "scrollX"), number_prop(&w, "scrollY"));
    Rect {
        left: -x,
        top: -y,
        right: number_prop(&d, "scrollWidth") - x,
        bottom: number_prop(&d, "scrollHeight") - y,
    }
}

/// What is in view now.
fn viewport() -> Rect {
    let d = document_element();
    Rect {
        left: 0.0,
        top: 0.0,
        right: number_prop(&d, "clientWidth"),
        bottom: number_prop(&d, "clientHeight"),
    }
}

/// What the ancestors of an element (itself included) do to it.
struct Context {
    /// The product of their opacities.
    opacity: f64,
    /// What of the page their `overflow` lets a person scroll into view.
    reach: Rect,
    /// What scrolling can bring into view of it: the page, except along an axis where a scroll
    /// box holds the element (its content may reach past the document's end, and only the
    /// scroll box must lie on the page); only the viewport when it or an ancestor is
    /// `position: fixed` (scrolling never moves it).
    page: Rect,
    /// What of the viewport their `overflow` shows now.
    now: Rect,
    /// One of them has a `clip-path` or a `clip`, which only a hit test can judge.
    clip_path: bool,
}

/// `own`: `el`'s own `overflow` counts too (it clips `el`'s text, not `el`).
fn context(el: &Element, own: bool) -> Context {
    let mut c = Context {
        opacity: 1.0,
        reach: Rect::ALL,
        page: page(),
        now: viewport(),
        clip_path: false,
    };
    // Per axis, the nearest scroll box holding the element (what lies above it must show part
    // of that box, not of its content).
    let mut anchor: [Option<Span>; 2] = [None, None];
    let root = document_element();
    // An absolutely positioned box escapes the overflow of ancestors up to a positioned one; a
    // fixed one escapes them all.
    let (mut absolute, mut fixed) = (false, false);
    let mut cur = Some(el.clone());
    for _ in 0..DEPTH_MAX {
        let Some(e) = cur else { break };
        let s = style(&e);
        c.opacity *= number(&css(&s, "opacity")).unwrap_or(1.0);
        if !matches!(css(&s, "clip-path").as_str(), "" | "none")
            || !matches!(css(&s, "clip").as_str(), "" | "auto")
        {
            c.clip_path = true;
        }
        let position = css(&s, "position");
        let is_page = js_sys::Object::is(&e, &root) || super::dom::matches(&e, "body") == Ok(true);
        let clips = !fixed && !is_page && (!absolute || position != "static");
        if clips && (own || !js_sys::Object::is(&e, el)) {
            let b = bounds(&e);
            let (sl, st) = (number_prop(&e, "scrollLeft"), number_prop(&e, "scrollTop"));
            for (x_axis, prop) in [(true, "overflow-x"), (false, "overflow-y")] {
                let o = css(&s, prop);
                if o.is_empty() || o == "visible" {
                    continue;
                }
                // A scroll box lets a person reach all of its content; `hidden` and `clip` do not.
                let scrolls = o == "auto" || o == "scroll";
                let reach = if !scrolls {
                    b
                } else if x_axis {
                    let left = b.left - sl;
                    Rect {
                        left,
                        right: left + number_prop(&e, "scrollWidth"),
                        ..b
                    }
                } else {
                    let top = b.top - st;
                    Rect {
                        top,
                        bottom: top + number_prop(&e, "scrollHeight"),
                        ..b
                    }
                };
                let (i, clip) = (usize::from(!x_axis), reach.span(x_axis));
                match anchor[i] {
                    Some(a) if !overlap(a, clip) => c.reach.narrow(x_axis, NOWHERE),
                    Some(a) => anchor[i] = Some((a.0.max(clip.0), a.1.min(clip.1))),
                    None => c.reach.narrow(x_axis, clip),
                }
                if scrolls {
                    anchor[i] = Some(b.span(x_axis));
                }
                c.now.narrow(x_axis, b.span(x_axis));
            }
        }
        if clips || js_sys::Object::is(&e, el) {
            absolute = position == "absolute";
        }
        fixed |= position == "fixed";
        cur = parent(&e);
    }
    for (i, x_axis) in [(0, true), (1, false)] {
        let page = c.page.span(x_axis);
        match anchor[i] {
            Some(a) => {
                if !overlap(a, page) {
                    c.reach.narrow(x_axis, NOWHERE);
                }
                // Along this axis the page bounds the scroll box, not its content.
                let whole = Rect::ALL;
                c.page = if x_axis {
                    Rect {
                        left: whole.left,
                        right: whole.right,
                        ..c.page
                    }
                } else {
                    Rect {
                        top: whole.top,
                        bottom: whole.bottom,
                        ..c.page
                    }
                };
            }
            None => c.reach.narrow(x_axis, page),
        }
    }
    // A `position: fixed` box (or one inside it) never moves as the page scrolls: only the
    // viewport is within its reach.
    if fixed {
        c.page = viewport();
        c.reach = c.reach.and(&c.page);
    }
    c
}

/// Whether the topmost element at the centre of `r` is `target` or (unless `exact`) inside it;
/// `None` when no hit test can tell: the centre is out of view, or `target` lets pointers
/// through. A text's own element must be hit `exact`ly: in the flow, nothing of its own lies
/// over its text but an overlay.
fn hit(target: &Element, r: &Rect, now: &Rect, exact: bool) -> Option<bool> {
    let shown = r.and(now);
    if !shown.at_least(1.0, 1.0) || css(&style(target), "pointer-events") == "none" {
        return None;
    }
    let x = JsValue::from_f64((shown.left + shown.right) / 2.0);
    let y = JsValue::from_f64((shown.top + shown.bottom) / 2.0);
    let root = proto_call("Node", "getRootNode", target, &[]).ok()?;
    let class = if is_a(&root, "ShadowRoot") {
        "ShadowRoot"
    } else {
        "Document"
    };
    let found = proto_call(class, "elementFromPoint", &root, &[&x, &y]).ok()?;
    Some(if exact {
        js_sys::Object::is(&found, target)
    } else {
        found.is_object()
            && proto_call("Node", "contains", target, &[&found]).is_ok_and(|v| v.is_truthy())
    })
}

/// The hit tests of each of `el`'s boxes (its client rects) cut to its reach: `Some(false)` when
/// one is not found there, `Some(true)` when one is and none is not, `None` when none can be
/// tested. One box's centre, not the bounding box's: that may lie in none of them (in Firefox a
/// `<table>` narrower than its `<caption>` has two, the caption and the grid beneath it).
fn hit_boxes(el: &Element, c: &Context) -> Option<bool> {
    let rects = proto_call("Element", "getClientRects", el, &[]).unwrap_or_default();
    let mut seen = None;
    for r in super::dom::items(&rects).iter() {
        match hit(el, &Rect::of(&r).and(&c.reach), &c.now, false) {
            Some(false) => return Some(false),
            Some(true) => seen = Some(true),
            None => {}
        }
    }
    seen
}

/// Rendered at all: `checkVisibility` (display, visibility, closed `<details>`,
/// `content-visibility: hidden` above it; opacity 0 when `opacity`), or the same read from
/// computed styles where the browser has none ([`rendered_by_style`]), and not `inert`.
fn rendered(el: &Element, opacity: bool) -> bool {
    if closest(el, "[inert]").is_some() {
        return false;
    }
    let check = object();
    set(&check, "visibilityProperty", &JsValue::TRUE);
    set(&check, "checkVisibilityCSS", &JsValue::TRUE);
    set(&check, "opacityProperty", &JsValue::from_bool(opacity));
    set(&check, "checkOpacity", &JsValue::from_bool(opacity));
    match proto_call("Element", "checkVisibility", el, &[&check]) {
        Ok(v) => v.as_bool() != Some(false),
        Err(_) => rendered_by_style(el, opacity),
    }
}

/// What `checkVisibility` answers, read from computed styles where the browser has no
/// `checkVisibility` (Safari before 17.4, Firefox before 106), up the flat tree: not rendered
/// under `display: none`, under `content-visibility: hidden`, outside the summary of a closed
/// `<details>`, as a shadow host's child that no slot shows, with `visibility: hidden` or
/// `collapse`, or (`opacity`) under opacity 0. What it cannot read (no computed style, a tree
/// deeper than [`DEPTH_MAX`]) counts as not rendered: the rule refuses what it cannot judge.
fn rendered_by_style(el: &Element, opacity: bool) -> bool {
    let mut cur = el.clone();
    for depth in 0..DEPTH_MAX {
        let s = style(&cur);
        if !s.is_object()
            || css(&s, "display") == "none"
            || (opacity && number(&css(&s, "opacity")) == Some(0.0))
            || (depth == 0 && matches!(css(&s, "visibility").as_str(), "hidden" | "collapse"))
            || (depth > 0 && css(&s, "content-visibility") == "hidden")
        {
            return false;
        }
        let slot = node_get("Element", "assignedSlot", &cur);
        let next = match (slot, node_get("Node", "parentElement", &cur)) {
            (Some(slot), _) => slot.unchecked_into(),
            // A child of a shadow host that no slot takes is not drawn at all.
            (None, Some(p)) if get(&p, "shadowRoot").is_object() => return false,
            (None, Some(p)) => p.unchecked_into(),
            (None, None) => match parent(&cur) {
                Some(host) => host,
                None => return true,
            },
        };
        // A closed `<details>` shows its first `<summary>` only.
        if super::dom::matches(&next, "details:not([open])") == Ok(true)
            && super::dom::matches(&cur, "summary:first-of-type") != Ok(true)
        {
            return false;
        }
        cur = next;
    }
    false
}

/// Whether a person could see the control `el`, else why not. `opacity: false` lets a
/// transparent control count (a checkbox drawn by its label).
pub(crate) fn control(el: &Element, opacity: bool) -> Result<(), Unseen> {
    if !rendered(el, opacity) {
        return Err(Unseen::Hidden);
    }
    let c = context(el, false);
    if opacity && c.opacity < OPACITY_MIN {
        return Err(Unseen::Transparent);
    }
    let r = bounds(el);
    if !r.at_least(CONTROL_MIN, CONTROL_MIN) {
        return Err(Unseen::Small);
    }
    if !r.and(&c.page).at_least(CONTROL_MIN, CONTROL_MIN) {
        return Err(Unseen::OffPage);
    }
    if !r.and(&c.reach).at_least(CONTROL_MIN, CONTROL_MIN) {
        return Err(Unseen::Clipped);
    }
    match hit_boxes(el, &c) {
        Some(false) if c.clip_path => Err(Unseen::Clipped),
        Some(false) => Err(Unseen::Covered),
        None if c.clip_path => Err(Unseen::Clipped),
        _ => Ok(()),
    }
}

/// Whether a person could see one control; a checkbox or radio may be drawn by its label.
pub(crate) fn choice(el: &Element) -> Result<(), Unseen> {
    let toggle = is_a(el, "HTMLInputElement") && {
        let t = string_prop(el, "type");
        t == "checkbox" || t == "radio"
    };
    let own = control(el, !toggle);
    if own.is_err() && toggle {
        let labels = get(el, "labels");
        if !labels.is_undefined()
            && !labels.is_null()
            && super::js::elements(&labels)
                .iter()
                .any(|l| control(l, true).is_ok())
        {
            return Ok(());
        }
    }
    own
}

/// Scrolls `el` into view when its centre is out of view, as a person scrolls to a field
/// before filling it, so that [`control`]'s hit test can judge it.
pub(crate) fn reveal(el: &Element) {
    let r = bounds(el);
    let v = viewport();
    let (x, y) = ((r.left + r.right) / 2.0, (r.top + r.bottom) / 2.0);
    if x < v.left || x >= v.right || y < v.top || y >= v.bottom {
        let how = object();
        set(&how, "block", &JsValue::from_str("nearest"));
        set(&how, "inline", &JsValue::from_str("nearest"));
        let _ = proto_call("Element", "scrollIntoView", el, &[&how]);
    }
}

/// Whether an `<option>` is offered: not `hidden` (itself or its `<optgroup>`), not
/// `display: none`.
pub(crate) fn option(o: &Element) -> bool {
    closest(o, "[hidden]").is_none() && css(&style(o), "display") != "none"
}

/// Whether the subtree of `el` may hold text a person sees (the text walk skips the rest).
pub(crate) fn subtree(el: &Element) -> bool {
    rendered(el, true)
}

/// A number as CSS writes it, parsed by JS (Rust's float parser and `powf` would add ~10 KB to
/// the .wasm); `None` when it is not one.
fn number(s: &str) -> Option<f64> {
    Some(js_sys::Number::parse_float(s)).filter(|n| !n.is_nan())
}

/// The colour `rgb(…)` / `rgba(…)` as red, green, blue (0-255) and alpha; `None` for
/// any other notation, which is not judged.
fn rgba(s: &str) -> Option<[f64; 4]> {
    let inner = s
        .strip_prefix("rgba(")
        .or_else(|| s.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for (i, part) in inner
        .split([',', ' ', '/'])
        .filter(|p| !p.is_empty())
        .enumerate()
    {
        *out.get_mut(i)? = number(part)?;
    }
    Some(out)
}

/// WCAG's relative luminance of an sRGB colour.
fn luminance(c: [f64; 3]) -> f64 {
    let lin = |v: f64| {
        let v = v / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            js_sys::Math::pow((v + 0.055) / 1.055, 2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// The first solid background behind `el`'s text (white, the canvas, when none is set);
/// `None` when an image or gradient, or a colour it cannot read, comes first.
fn background(el: &Element) -> Option<[f64; 3]> {
    let mut cur = Some(el.clone());
    for _ in 0..DEPTH_MAX {
        let Some(e) = cur else { break };
        let s = style(&e);
        if css(&s, "background-image") != "none" {
            return None;
        }
        let c = rgba(&css(&s, "background-color"))?;
        if c[3] >= 0.5 {
            return Some([c[0], c[1], c[2]]);
        }
        cur = parent(&e);
    }
    Some([255.0; 3])
}

/// Whether text in the colour of `s` stands out from the background behind `el`.
fn legible(el: &Element, s: &JsValue) -> bool {
    let Some(c) = rgba(&css(s, "color")) else {
        return true;
    };
    if c[3] < OPACITY_MIN {
        return false;
    }
    let Some(bg) = background(el) else {
        return true;
    };
    let mix = |i: usize| c[i] * c[3] + bg[i] * (1.0 - c[3]);
    let (a, b) = (luminance([mix(0), mix(1), mix(2)]), luminance(bg));
    (a.max(b) + 0.05) / (a.min(b) + 0.05) >= CONTRAST_MIN
}

/// Whether a person could see the text node `node`, a child of `parent`.
pub(crate) fn text(node: &JsValue, parent: &Element) -> bool {
    if string_prop(node, "data").trim().is_empty() {
        return true;
    }
    let s = style(parent);
    if css(&s, "content-visibility") == "hidden"
        || (super::dom::matches(parent, "details:not([open])") == Ok(true))
    {
        return false;
    }
    let c = context(parent, true);
    if c.opacity < OPACITY_MIN || !legible(parent, &s) {
        return false;
    }
    let Some(doc) = node_get("Node", "ownerDocument", node) else {
        return false;
    };
    let Ok(range) = proto_call("Document", "createRange", &doc, &[]) else {
        return false;
    };
    if proto_call("Range", "selectNodeContents", &range, &[node]).is_err() {
        return false;
    }
    let rects = proto_call("Range", "getClientRects", &range, &[]).unwrap_or_default();
    let area = c.reach;
    // A `display: contents` element has no box of its own to be hit.
    let exact = css(&s, "display") != "contents";
    super::dom::items(&rects).iter().any(|r| {
        let r = Rect::of(&r).and(&area);
        // Zero wide: a run of characters no one sees, which the answer shows escaped.
        r.at_least(0.0, TEXT_MIN)
            && match hit(parent, &r, &c.now, exact) {
                Some(seen) => seen,
                None => !c.clip_path,
            }
    })
}
