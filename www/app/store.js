// The demo's data: orders and settings kept in memory (settings also in localStorage), so the
// app behaves like a real one without a backend of its own.

/** The products the order form offers; the select's values. */
export const PRODUCTS = Object.freeze([
  { value: "espresso-beans", label: "Espresso beans, 1 kg" },
  { value: "filter-papers", label: "Filter papers, 200" },
  { value: "grinder", label: "Burr grinder" },
  { value: "kettle", label: "Gooseneck kettle" },
]);

const SEED_ORDERS = [
  { id: "1001", customer: "Grace Hopper", product: "grinder", quantity: 1, express: false, status: "shipped" },
  { id: "1002", customer: "Alan Turing", product: "espresso-beans", quantity: 3, express: true, status: "shipped" },
  { id: "1003", customer: "Katherine Johnson", product: "kettle", quantity: 1, express: false, status: "packing" },
  { id: "1004", customer: "Edsger Dijkstra", product: "filter-papers", quantity: 5, express: false, status: "new" },
];

const SETTINGS_KEY = "client-tools-demo.settings";
const DEFAULT_SETTINGS = Object.freeze({ displayName: "Demo shop", currency: "EUR", theme: "light", compact: false, confirmAgent: false });

/** Orders in placement order; ids are increasing decimal strings. */
export class OrderStore {
  constructor(orders = SEED_ORDERS) {
    this.orders = orders.map((order) => ({ ...order }));
    this.listeners = new Set();
  }

  /** Every order, oldest first, as copies. */
  list() {
    return this.orders.map((order) => ({ ...order }));
  }

  /** The order with this id, or undefined. */
  get(id) {
    return this.orders.find((order) => order.id === String(id));
  }

  /**
   * Places an order and returns it. Throws an Error naming the field when a value is missing or
   * out of range (the form validates first; this guards the store's own invariants).
   */
  place({ customer, email = "", product, quantity, deliveryDate = "", express = false, notes = "" }) {
    if (!customer || !customer.trim()) throw new Error("customer: required");
    if (!PRODUCTS.some((p) => p.value === product)) throw new Error(`product: unknown product ${JSON.stringify(product)}`);
    const count = Number(quantity);
    if (!Number.isInteger(count) || count < 1 || count > 99) throw new Error(`quantity: ${JSON.stringify(quantity)} is not a whole number from 1 to 99`);
    const lastId = this.orders.reduce((max, order) => Math.max(max, Number(order.id)), 1000);
    const order = {
      id: String(lastId + 1),
      customer: customer.trim(),
      email,
      product,
      quantity: count,
      deliveryDate,
      express: Boolean(express),
      notes,
      status: "new",
    };
    this.orders.push(order);
    for (const listener of this.listeners) listener(order);
    return { ...order };
  }

  /** Calls `listener(order)` after each placed order; returns a function that unsubscribes. */
  onPlaced(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The product's label for a value, or the value itself when unknown. */
export function productLabel(value) {
  return PRODUCTS.find((p) => p.value === value)?.label ?? value;
}

/** The saved settings, or the defaults when none (or unreadable ones) are stored. */
export function loadSettings(storage = globalThis.localStorage) {
  try {
    const saved = JSON.parse(storage?.getItem(SETTINGS_KEY) ?? "null");
    return { ...DEFAULT_SETTINGS, ...(saved && typeof saved === "object" ? saved : {}) };
  } catch {
    // A corrupt entry must not stop the app: fall back to the defaults.
    return { ...DEFAULT_SETTINGS };
  }
}

/** Stores the settings; a storage that refuses (private mode, quota) only loses persistence. */
export function saveSettings(settings, storage = globalThis.localStorage) {
  try {
    storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
    return true;
  } catch {
    return false;
  }
}
