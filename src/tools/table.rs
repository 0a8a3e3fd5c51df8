//! The read-table tool: a table's columns, sort state and rows as a person sees them, a page
//! of rows at a time, each row with a ref (`highlight` takes it). Cell text is only the text
//! on screen (`labels::visible_text`, the visibility rule): no hidden column, no control's
//! value, no attribute (`data-*`, ids) reaches the model.

use client_tools_core::quote::Quoted;
use serde_json::Value;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::dom::closest;
use super::js::ok_result;
use super::labels::visible_text;
use super::options::Config;
use super::roles::{caption, role, CLICKABLE, ROWS, TABLES};
use super::scope::{attr, check_locator, query_all};
use super::{json_object, refs, visible};

/// What counts as a cell and a column header (HTML and ARIA grids).
const CELLS: &str = "td,th,[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]";
const HEADS: &str = "th,[role=columnheader]";
/// Rows per answer: the default and the most the model may ask for.
pub(crate) const COUNT_DEFAULT: u64 = 20;
pub(crate) const COUNT_MAX: u64 = 100;
/// Most tables listed when the model must pick one.
const TABLES_LISTED: usize = 20;

/// The elements of `within` matching `selector` whose nearest `owner` is `within` itself
/// (not a nested table's rows, not a nested row's cells).
fn own(within: &Element, selector: &str, owner: &str) -> Result<Vec<Element>, String> {
    let mut out = query_all(within, selector)?;
    out.retain(|e| closest(e, owner).is_some_and(|o| js_sys::Object::is(&o, within)));
    Ok(out)
}

/// The tables a person sees inside the roots, in document order, each with its root.
fn tables(roots: &[Element]) -> Result<Vec<(Element, Element)>, String> {
    let mut all = Vec::new();
    for root in roots {
        if super::dom::matches(root, TABLES) == Ok(true) {
            all.push((root.clone(), root.clone()));
        }
        for t in query_all(root, TABLES)? {
            all.push((t, root.clone()));
        }
    }
    all.retain(|(t, _)| visible::control(t, true).is_ok());
    Ok(all)
}

/// The table the model named (a ref, a caption, or `table N`; the only one when it names
/// none) and its root.
fn pick(roots: &[Element], asked: Option<&str>) -> Result<(Element, Element), String> {
    let all = tables(roots)?;
    let listing = || {
        let mut names: Vec<String> = Vec::new();
        for (i, (t, _)) in all.iter().take(TABLES_LISTED).enumerate() {
            let c = caption(t);
            names.push(if c.is_empty() {
                format!("table {}", i + 1)
            } else {
                format!("table {} ({})", i + 1, Quoted(&c))
            });
        }
        match names.len() {
            0 => "there is no table in scope".to_string(),
            _ => format!(
                "pass one of: {}",
                client_tools_core::text::join(&names, ", ")
            ),
        }
    };
    let Some(loc) = asked else {
        return match all.as_slice() {
            [one] => Ok(one.clone()),
            _ => Err(format!("{} tables in scope; {}", all.len(), listing())),
        };
    };
    check_locator("table", loc)?;
    if loc.starts_with('e') && loc[1..].bytes().all(|b| b.is_ascii_digit()) {
        let (el, _) = refs::resolve(loc, roots)?;
        return all
            .into_iter()
            .find(|(t, _)| js_sys::Object::is(t, &el))
            .ok_or_else(|| format!("table: {} is not a table in scope", Quoted(loc)));
    }
    let by_caption: Vec<&(Element, Element)> =
        all.iter().filter(|(t, _)| caption(t) == loc).collect();
    if let [one] = by_caption.as_slice() {
        return Ok((*one).clone());
    }
    if let Some(i) = loc
        .strip_prefix("table ")
        .and_then(|n| n.parse::<usize>().ok())
    {
        if let Some(t) = i.checked_sub(1).and_then(|i| all.get(i)) {
            if format!("table {i}") == loc {
                return Ok(t.clone());
            }
        }
    }
    Err(format!(
        "table: no table in scope is called {}; {}",
        Quoted(loc),
        listing()
    ))
}

/// A column header's sort state, when `aria-sort` gives one.
fn sort(head: &Element) -> Option<&'static str> {
    match attr(head, "aria-sort")?.as_str() {
        "ascending" => Some("ascending"),
        "descending" => Some("descending"),
        "other" => Some("other"),
        _ => None,
    }
}

/// Runs read_table: `asked` names the table; `from` (1-based) and `count` pick the rows.
pub(crate) fn run(
    config: &Config,
    asked: Option<&str>,
    from: Option<u64>,
    count: Option<u64>,
) -> Result<JsValue, String> {
    let roots = super::roots::roots(config)?;
    let (table, root) = pick(&roots, asked)?;
    let rows = own(&table, ROWS, TABLES)?;
    let cells = |row: &Element| own(row, CELLS, ROWS);
    // The header row: the first whose cells are all column headers.
    let mut header: Option<(usize, Vec<Element>)> = None;
    for (i, row) in rows.iter().enumerate() {
        let c = cells(row)?;
        if !c.is_empty() && c.iter().all(|c| super::dom::matches(c, HEADS) == Ok(true)) {
            header = Some((i, c));
            break;
        }
    }
    // A column counts when its header is rendered; without a header row every cell counts.
    let (columns, kept) = match &header {
        Some((_, heads)) => {
            let (mut columns, mut kept) = (Vec::new(), Vec::new());
            for (i, h) in heads.iter().enumerate() {
                if !visible::subtree(h) {
                    continue;
                }
                let mut col = vec![("name", Value::String(visible_text(h)))];
                if let Some(s) = sort(h) {
                    col.push(("sort", s.into()));
                }
                columns.push(json_object(&mut col));
                kept.push(i);
            }
            (Some(columns), Some(kept))
        }
        None => (None, None),
    };
    let body: Vec<&Element> = (rows.iter().enumerate())
        .filter(|(i, r)| header.as_ref().map(|h| h.0) != Some(*i) && visible::subtree(r))
        .map(|(_, r)| r)
        .collect();
    let from = from.unwrap_or(1);
    let count = count.unwrap_or(COUNT_DEFAULT);
    let start = (from - 1).min(body.len() as u64) as usize;
    let mut shown = Vec::new();
    for row in body.iter().skip(start).take(count as usize) {
        let all = cells(row)?;
        let text = |c: Option<&Element>| match c {
            Some(c) if visible::subtree(c) => Value::String(visible_text(c)),
            _ => Value::String(String::new()),
        };
        let texts: Vec<Value> = match &kept {
            Some(kept) => kept.iter().map(|&i| text(all.get(i))).collect(),
            None => all.iter().map(|c| text(Some(c))).collect(),
        };
        // A row's ref notes its text on screen as its name (not shown: the cells are).
        let row_ref = role(row).map(|r| refs::issue(row, &root, &r).r);
        let mut line = vec![
            ("ref", row_ref.unwrap_or_default().into()),
            ("cells", Value::Array(texts)),
        ];
        // The buttons and links a person sees in the row, by the refs `click` takes.
        let mut controls = Vec::new();
        for c in query_all(row, CLICKABLE)? {
            let Some(r) = role(&c).filter(|_| visible::control(&c, true).is_ok()) else {
                continue;
            };
            let h = refs::issue(&c, &root, &r);
            let mut one = vec![("ref", h.r.into()), ("name", h.name.into())];
            if !h.shown {
                one.push(("nameShown", false.into()));
            }
            if super::dom::matches(&c, ":disabled,[aria-disabled=true]") == Ok(true) {
                one.push(("disabled", true.into()));
            }
            controls.push(json_object(&mut one));
        }
        if !controls.is_empty() {
            line.push(("controls", Value::Array(controls)));
        }
        shown.push(json_object(&mut line));
    }
    // The table's ref notes its caption as its name.
    let mut out = Vec::new();
    if let Some(r) = role(&table) {
        let h = refs::issue(&table, &root, &r);
        out.push(("table", Value::String(h.r)));
        if !h.name.is_empty() {
            out.push(("caption", h.name.into()));
        }
    }
    if let Some(columns) = columns {
        out.push(("columns", Value::Array(columns)));
    }
    let n = shown.len();
    out.push(("rows", Value::Array(shown)));
    out.push(("from", (start as u64 + 1).into()));
    out.push(("shown", n.into()));
    out.push(("rendered", body.len().into()));
    // A virtualised grid renders some rows and tells how many it has, header rows included.
    if let Some(total) = attr(&table, "aria-rowcount").and_then(|t| t.parse::<u64>().ok()) {
        out.push(("ariaRowCount", total.into()));
    }
    if start + n < body.len() {
        out.push(("more", true.into()));
    }
    Ok(ok_result(&json_object(&mut out)))
}
