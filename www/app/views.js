// The three screens, rendered from the <template>s of index.html. Each returns its root element;
// the tools of a screen find their targets inside it.
import { PRODUCTS, productLabel } from "./store.js";

function fromTemplate(id) {
  const template = document.getElementById(id);
  return template.content.firstElementChild.cloneNode(true);
}

/** The orders table; each row carries `data-row-id`, the id `highlight_row` takes. */
export function renderOrders(store) {
  const root = fromTemplate("tpl-orders");
  const body = root.querySelector("tbody");
  for (const order of store.list()) {
    const row = document.createElement("tr");
    row.dataset.rowId = order.id;
    for (const text of [order.id, order.customer, productLabel(order.product), String(order.quantity), order.express ? "yes" : "no", order.status]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    body.append(row);
  }
  return root;
}

/** The order form; a valid submit places the order and says so on the page. */
export function renderOrderForm(store) {
  const root = fromTemplate("tpl-order-form");
  const form = root.querySelector("form");
  const select = form.elements.namedItem("product");
  for (const product of PRODUCTS) select.add(new Option(product.label, product.value));
  const message = root.querySelector("[data-role=message]");
  form.addEventListener("submit", (event) => {
    // The app handles the submit itself, as a SPA would: no page load.
    event.preventDefault();
    const data = new FormData(form);
    try {
      const order = store.place({
        customer: data.get("customer"),
        email: data.get("email"),
        product: data.get("product"),
        quantity: data.get("quantity"),
        deliveryDate: data.get("delivery_date"),
        express: data.get("express") === "on",
        notes: data.get("notes"),
      });
      message.textContent = `Order ${order.id} placed for ${order.customer}.`;
      message.dataset.kind = "ok";
      form.reset();
    } catch (error) {
      message.textContent = `Not placed: ${error.message}`;
      message.dataset.kind = "error";
    }
  });
  return root;
}

/** The settings form; a submit saves and applies them through `apply(settings)`. */
export function renderSettings(settings, apply) {
  const root = fromTemplate("tpl-settings");
  const form = root.querySelector("form");
  form.elements.namedItem("display_name").value = settings.displayName;
  form.elements.namedItem("currency").value = settings.currency;
  form.elements.namedItem("compact").checked = settings.compact;
  form.elements.namedItem("confirm_agent").checked = settings.confirmAgent;
  for (const radio of form.querySelectorAll("input[name=theme]")) radio.checked = radio.value === settings.theme;
  const message = root.querySelector("[data-role=message]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const saved = apply({
      displayName: String(data.get("display_name")),
      currency: String(data.get("currency")),
      theme: String(data.get("theme")),
      compact: data.get("compact") === "on",
      confirmAgent: data.get("confirm_agent") === "on",
    });
    message.textContent = saved ? "Settings saved." : "Settings applied (this browser does not let the page store them).";
    message.dataset.kind = "ok";
  });
  return root;
}
