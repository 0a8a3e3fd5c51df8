import { test } from "node:test";
import assert from "node:assert/strict";
import { OrderStore, loadSettings, saveSettings } from "../../../www/app/store.js";

test("place gives the next id, stores the order and tells listeners", () => {
  const store = new OrderStore([{ id: "1001", customer: "A", product: "kettle", quantity: 1, express: false, status: "new" }]);
  const placed = [];
  store.onPlaced((order) => placed.push(order.id));
  const order = store.place({ customer: "  Ada  ", product: "grinder", quantity: "2", express: true });
  assert.equal(order.id, "1002");
  assert.equal(order.customer, "Ada");
  assert.equal(order.quantity, 2);
  assert.deepEqual(placed, ["1002"]);
  assert.equal(store.list().length, 2);
  store.list()[1].customer = "changed";
  assert.equal(store.get("1002").customer, "Ada", "list() hands out copies");
});

test("place refuses bad values, naming the field", () => {
  const store = new OrderStore([]);
  assert.throws(() => store.place({ customer: " ", product: "grinder", quantity: 1 }), /^Error: customer: required/);
  assert.throws(() => store.place({ customer: "A", product: "boat", quantity: 1 }), /product: unknown product "boat"/);
  for (const quantity of [0, 100, 1.5, "x", ""]) {
    assert.throws(() => store.place({ customer: "A", product: "grinder", quantity }), /quantity: .* is not a whole number from 1 to 99/);
  }
  assert.equal(store.list().length, 0);
});

test("settings fall back to the defaults for missing or corrupt storage, and a refusing storage only loses persistence", () => {
  const memory = new Map();
  const storage = { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => memory.set(k, v) };
  assert.equal(loadSettings(storage).theme, "light");
  assert.equal(saveSettings({ ...loadSettings(storage), theme: "dark" }, storage), true);
  assert.equal(loadSettings(storage).theme, "dark");
  memory.set("client-tools-demo.settings", "{not json");
  assert.equal(loadSettings(storage).theme, "light");
  const refusing = { getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); } };
  assert.equal(saveSettings({ theme: "dark" }, refusing), false);
  assert.equal(loadSettings(undefined).confirmAgent, false);
});
