//! A tool a page serves: the core's one `Tool` builder over the browser shell.

use super::shell::Browser;

/// A tool the page offers: its declaration, its local rules and its handler. The builders are
/// [`client_tools_core::api::Tool`]'s, the same as the worker's (`client_tools_native::Tool`);
/// on wasm32 neither a handler nor its future need be `Send`: they may hold `Rc`s, signals and
/// DOM nodes.
///
/// ```no_run
/// use client_tools::Tool;
/// use serde_json::json;
///
/// let highlight = Tool::new("highlight_row", "Highlight a row of the table.", |args, _ctx| async move {
///     let row = args["row_id"].as_str().unwrap_or_default().to_owned();
///     format!("Row {row} is highlighted.")
/// })
/// .parameters(json!({"type": "object", "required": ["row_id"],
///     "properties": {"row_id": {"type": "string"}}}))
/// .max_calls_per_run(10);
///
/// #[derive(serde::Deserialize)]
/// struct Row { row_id: String }
///
/// let open = Tool::typed("open_row", "Open a row.", |row: Row, _ctx| async move {
///     format!("Row {} is open.", row.row_id)
/// });
/// ```
pub type Tool = client_tools_core::api::Tool<Browser>;
