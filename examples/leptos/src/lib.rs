//! A small Leptos app (client-side rendering, `leptos_router`) whose tools an agent calls:
//! an orders list it can read (the page tool `read_table`) and highlight a row of
//! (`highlight_order`, the app's own tool), a filter panel whose tool exists while the panel is
//! open, and a new-order form it can fill (the page tool `fill_form`). `navigate` moves between
//! the routes through the app's router and answers once the new route's tools are declared.
//! Every tool is declared by the component that shows what it acts on ([`agent::use_tools`]).

pub mod agent;

use agent::{provide_agent, use_agent, use_tools, Agent};
use client_tools::tools::{
    fill_form, navigate, read_table, FormOptions, NavigateOptions, PageOptions,
};
use client_tools::{Options, Tool};
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::hooks::use_navigate;
use leptos_router::path;
use serde::Deserialize;
use serde_json::json;

/// An order as the list shows it.
#[derive(Clone, PartialEq)]
pub struct Order {
    pub id: u32,
    pub customer: String,
    pub total: String,
}

/// What the pages share: the orders and the highlighted one.
#[derive(Clone, Copy)]
struct Orders {
    list: RwSignal<Vec<Order>>,
    highlighted: RwSignal<Option<u32>>,
}

/// Mounts the app into `parent`, its components' tools served through `agent` (registered
/// with [`Agent::connect`], a voice agent's socket with [`Agent::voice`]). Keep the handle:
/// the app lives until it is dropped (and the registration until the last `Agent` is).
pub fn mount(
    parent: web_sys::HtmlElement,
    agent: Agent,
) -> leptos::mount::UnmountHandle<impl leptos::tachys::view::Mountable> {
    leptos::mount::mount_to(parent, move || {
        provide_agent(agent);
        view! { <App/> }
    })
}

/// The page's entry (index.html): mounts the app into a new `<div>` of the body, registered on
/// the session `session` of the server at `server` with `token`, for as long as the page lives.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn start(server: &str, session: &str, token: &str) {
    let document = leptos::prelude::document();
    let root = document.create_element("div").expect("a div");
    document
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("appended");
    let agent = Agent::default();
    agent.connect(Options::new(server, session, token).name("leptos"));
    std::mem::forget(mount(wasm_bindgen::JsCast::unchecked_into(root), agent));
}

#[component]
fn App() -> impl IntoView {
    let orders = Orders {
        list: RwSignal::new(vec![
            Order {
                id: 1,
                customer: "Ada".into(),
                total: "12.00".into(),
            },
            Order {
                id: 2,
                customer: "Grace".into(),
                total: "40.50".into(),
            },
            Order {
                id: 3,
                customer: "Edsger".into(),
                total: "7.25".into(),
            },
        ]),
        highlighted: RwSignal::new(None),
    };
    provide_context(orders);
    view! {
        <Router>
            <Navigation/>
            <main>
                <Routes fallback=|| view! { <p>"Not found."</p> }>
                    <Route path=path!("/") view=OrderList/>
                    <Route path=path!("/orders/new") view=NewOrder/>
                </Routes>
            </main>
        </Router>
    }
}

// ANCHOR: navigation
/// The links, and the `navigate` tool: the app's router moves, then the call waits until the
/// new route's components have declared their tools, so its result follows that `PUT`.
#[component]
fn Navigation() -> impl IntoView {
    let go = use_navigate();
    let agent = use_agent();
    let router = move |path: String| {
        let (go, agent) = (go.clone(), agent.clone());
        async move {
            go(&path, Default::default());
            // The router renders the new route in a task of its own: let it run first.
            gloo_timers::future::TimeoutFuture::new(0).await;
            agent.settled().await;
        }
    };
    use_tools(vec![
        navigate(NavigateOptions::default().router(router)).expect("valid options")
    ]);
    view! {
        <nav>
            <A href="/">"Orders"</A>
            " "
            <A href="/orders/new">"New order"</A>
        </nav>
    }
}
// ANCHOR_END: navigation

#[derive(Deserialize)]
struct OrderId {
    id: u32,
}

#[derive(Deserialize)]
struct Filter {
    text: String,
}

/// The orders: `read_table` reads them as shown, `highlight_order` marks one.
#[component]
fn OrderList() -> impl IntoView {
    let orders = expect_context::<Orders>();
    let filter = RwSignal::new(String::new());
    let filter_open = RwSignal::new(false);
    let highlight = Tool::typed(
        "highlight_order",
        "Highlights an order of the list by its id.",
        move |order: OrderId, _ctx| async move {
            let known = orders
                .list
                .with_untracked(|l| l.iter().any(|o| o.id == order.id));
            if !known {
                return Err(format!("no order has the id {}", order.id));
            }
            orders.highlighted.set(Some(order.id));
            Ok(format!("Order {} is highlighted.", order.id))
        },
    )
    .parameters(json!({
        "type": "object", "required": ["id"],
        "properties": {"id": {"type": "integer", "minimum": 1}}
    }));
    let table = read_table(PageOptions::default().name("read_orders")).expect("valid options");
    use_tools(vec![highlight, table]);
    let shown = move || {
        let text = filter.get().to_lowercase();
        orders
            .list
            .get()
            .into_iter()
            .filter(move |o| o.customer.to_lowercase().contains(&text))
    };
    view! {
        <h1>"Orders"</h1>
        <label>
            <input type="checkbox" prop:checked=filter_open on:change=move |_| filter_open.update(|o| *o = !*o)/>
            " Filter"
        </label>
        <Show when=move || filter_open.get()>
            <FilterPanel filter/>
        </Show>
        <table id="orders">
            <caption>"Orders"</caption>
            <thead><tr><th>"Id"</th><th>"Customer"</th><th>"Total"</th></tr></thead>
            <tbody>
                <For each=shown key=|o| o.id let:order>
                    <tr class:highlighted=move || orders.highlighted.get() == Some(order.id) data-id=order.id>
                        <td>{order.id}</td><td>{order.customer.clone()}</td><td>{order.total.clone()}</td>
                    </tr>
                </For>
            </tbody>
        </table>
    }
}

/// The filter panel: its tool is offered while the panel is open.
#[component]
fn FilterPanel(filter: RwSignal<String>) -> impl IntoView {
    let tool = Tool::typed(
        "filter_orders",
        "Shows only the orders whose customer's name contains the text.",
        move |f: Filter, _ctx| async move {
            filter.set(f.text.clone());
            format!(
                "Showing the orders of customers whose name contains \"{}\".",
                f.text
            )
        },
    )
    .parameters(json!({
        "type": "object", "required": ["text"],
        "properties": {"text": {"type": "string", "maxLength": 40}}
    }));
    use_tools(vec![tool]);
    view! {
        <label>"Customer " <input id="filter" prop:value=filter on:input=move |e| filter.set(event_target_value(&e))/></label>
    }
}

/// The new-order form: `fill_form` fills it; the person saves it.
#[component]
fn NewOrder() -> impl IntoView {
    let orders = expect_context::<Orders>();
    let go = use_navigate();
    use_tools(vec![
        fill_form(FormOptions::default().form("#new-order")).expect("valid options")
    ]);
    let (customer, total) = (
        NodeRef::<leptos::html::Input>::new(),
        NodeRef::<leptos::html::Input>::new(),
    );
    let save = move |e: leptos::ev::SubmitEvent| {
        e.prevent_default();
        let (Some(customer), Some(total)) = (customer.get(), total.get()) else {
            return;
        };
        orders.list.update(|l| {
            let id = l.iter().map(|o| o.id).max().unwrap_or(0) + 1;
            l.push(Order {
                id,
                customer: customer.value(),
                total: total.value(),
            });
        });
        go("/", Default::default());
    };
    view! {
        <h1>"New order"</h1>
        <form id="new-order" on:submit=save>
            <label>"Customer " <input name="customer" node_ref=customer required/></label>
            <label>"Total " <input name="total" node_ref=total inputmode="decimal"/></label>
            <button type="submit">"Save"</button>
        </form>
    }
}
