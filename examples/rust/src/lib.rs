//! A small Rust web app's tools: an orders table the agent can highlight a row of, and a
//! `navigate` tool that opens another screen. Its tests (tests/web.rs) run the tools against
//! `client_tools::testing`'s agent in the page, under `wasm-pack test --headless --chrome`.
//!
//! [`Navigation::Router`] is the mistake an app makes most easily: its navigate handler pushes
//! the route with the router and returns, and the route's effect declares the new screen's
//! tools afterwards, so the result reaches the model while it still sees the old screen's
//! tools. The agent names it: `tools_declared_before_navigating_result`.

use client_tools::{Client, Options, Tool};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::spawn_local;
use web_sys::Element;

/// The orders on the table: id and customer.
pub const ORDERS: [(&str, &str); 4] = [
    ("1001", "Grace Hopper"),
    ("1002", "Alan Turing"),
    ("1003", "Katherine Johnson"),
    ("1004", "Edsger Dijkstra"),
];

/// How the app's navigate tool changes screens.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Navigation {
    /// Shows the new screen and declares its tools, then answers.
    DeclareFirst,
    /// Pushes the route and answers; the route's effect declares the tools a moment later.
    Router,
}

/// The app: its screen in `root`, its client once registered.
pub struct OrdersApp {
    root: Element,
    navigation: Navigation,
    client: RefCell<Option<Client>>,
}

fn window() -> web_sys::Window {
    web_sys::window().expect("a page")
}

impl OrdersApp {
    /// Renders the orders screen into a new element of the page's body.
    pub fn mount(navigation: Navigation) -> Rc<OrdersApp> {
        let document = window().document().expect("a document");
        let root = document.create_element("main").expect("an element");
        document
            .body()
            .expect("a body")
            .append_child(&root)
            .expect("appended");
        let app = Rc::new(OrdersApp {
            root,
            navigation,
            client: RefCell::new(None),
        });
        app.show("/orders");
        app
    }

    /// The screen's route, from the URL's hash.
    pub fn route(&self) -> String {
        let hash = window().location().hash().unwrap_or_default();
        match hash.strip_prefix('#') {
            Some(route) if !route.is_empty() => route.to_owned(),
            _ => "/orders".to_owned(),
        }
    }

    /// The page's element for `selector` inside the app.
    pub fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).ok().flatten()
    }

    fn show(&self, route: &str) {
        let html = match route {
            "/orders" => {
                let rows: String = ORDERS
                    .iter()
                    .map(|(id, who)| {
                        format!("<tr data-row-id=\"{id}\"><td>{id}</td><td>{who}</td></tr>")
                    })
                    .collect();
                format!("<h1>Orders</h1><table><tbody>{rows}</tbody></table>")
            }
            _ => "<h1>Settings</h1>".to_owned(),
        };
        self.root.set_inner_html(&html);
    }

    /// The tools of the screen `route` shows.
    pub fn tools(self: &Rc<Self>, route: &str) -> Vec<Tool> {
        let mut tools = vec![self.navigate()];
        if route == "/orders" {
            tools.push(self.highlight_row());
        }
        tools
    }

    fn highlight_row(self: &Rc<Self>) -> Tool {
        let app = Rc::downgrade(self);
        Tool::new(
            "highlight_row",
            "Highlights an order's row.",
            move |args: Map<String, Value>, _ctx| {
                let app = app.upgrade();
                async move {
                    let app = app.ok_or("the app is gone")?;
                    let id = args["row_id"].as_str().unwrap_or_default().to_owned();
                    let rows = app
                        .root
                        .query_selector_all("tr[data-row-id]")
                        .map_err(|_| "no table")?;
                    let mut found = false;
                    for i in 0..rows.length() {
                        let Some(row) = rows.item(i).and_then(|n| n.dyn_into::<Element>().ok())
                        else {
                            continue;
                        };
                        let this = row.get_attribute("data-row-id").as_deref() == Some(id.as_str());
                        found |= this;
                        let _ = row.class_list().toggle_with_force("highlight", this);
                    }
                    if found {
                        Ok(format!("Row {id} is highlighted."))
                    } else {
                        Err(format!("row_id: no order {id} in the table"))
                    }
                }
            },
        )
        .parameters(json!({
            "type": "object",
            "properties": {"row_id": {"type": "string"}},
            "required": ["row_id"]
        }))
    }

    fn navigate(self: &Rc<Self>) -> Tool {
        let app = Rc::downgrade(self);
        Tool::new(
            "navigate",
            "Opens a screen: /orders or /settings.",
            move |args: Map<String, Value>, _ctx| {
                let app = app.upgrade();
                async move {
                    let app = app.ok_or("the app is gone")?;
                    let route = args["route"].as_str().unwrap_or_default().to_owned();
                    if route != "/orders" && route != "/settings" {
                        return Err(format!(
                            "route: no screen {route}; the app has /orders, /settings"
                        ));
                    }
                    let url = format!("#{route}");
                    window()
                        .history()
                        .and_then(|h| h.push_state_with_url(&JsValue::NULL, "", Some(&url)))
                        .map_err(|_| "the history refused the route")?;
                    app.show(&route);
                    match app.navigation {
                        Navigation::DeclareFirst => app.declare_tools(&route).await?,
                        Navigation::Router => {
                            // The route's effect, after the handler returned.
                            let later = app.clone();
                            spawn_local(async move {
                                let _ = later.declare_tools(&route).await;
                            });
                        }
                    }
                    Ok::<_, String>(format!("Opened {url}."))
                }
            },
        )
        .parameters(json!({
            "type": "object",
            "properties": {"route": {"type": "string"}},
            "required": ["route"]
        }))
    }

    async fn declare_tools(self: &Rc<Self>, route: &str) -> Result<(), String> {
        let swap = self
            .client
            .borrow()
            .as_ref()
            .map(|c| c.set_tools(self.tools(route)));
        match swap {
            Some(swap) => swap.await.map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// Registers with `options` and the current screen's tools.
    pub async fn connect(self: &Rc<Self>, options: Options) -> Result<(), client_tools::Error> {
        let client = Client::register(options.tools(self.tools(&self.route()))).await?;
        *self.client.borrow_mut() = Some(client);
        Ok(())
    }

    /// Leaves, takes the app out of the page and puts the URL back.
    pub async fn close(&self) {
        let client = self.client.borrow_mut().take();
        if let Some(client) = client {
            let _ = client.leave().await;
        }
        self.root.remove();
        let _ = window()
            .history()
            .and_then(|h| h.replace_state_with_url(&JsValue::NULL, "", Some("#")));
    }
}
