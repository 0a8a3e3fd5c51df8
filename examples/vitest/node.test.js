// The app's tools in Node (Vitest's default environment): client-tools/lite, which serves tools
// the same in Node and in a page, against client-tools/testing's agent. No server, no port.
import { describe, expect, it } from "vitest";
import { Client } from "client-tools/lite";
import { TestAgent, rules } from "client-tools/testing";
import { OrderStore } from "../../www/app/store.js";

/** The demo's data tools over its store: list the orders, place one. */
function orderTools(store) {
  return [
    {
      name: "list_orders",
      description: "List the orders: id, customer, product, quantity, express, status.",
      parameters: { type: "object", properties: {} },
      handler: () => ({ orders: store.list() }),
    },
    {
      name: "place_order",
      description: "Place an order.",
      parameters: {
        type: "object",
        properties: { customer: { type: "string" }, product: { type: "string" }, quantity: { type: "integer" } },
        required: ["customer", "product", "quantity"],
      },
      handler: (args) => `Placed order ${store.place(args).id}.`,
    },
  ];
}

describe("the orders tools, in Node", () => {
  it("answers the agent and keeps the protocol", async () => {
    const agent = new TestAgent();
    const store = new OrderStore();
    const client = await Client.register({ ...agent.options(), name: "orders", tools: orderTools(store) });
    expect(agent.tools()).toEqual(["client__orders__list_orders", "client__orders__place_order"]);

    const listed = await agent.call("list_orders", {});
    expect(listed.isError).toBe(false);
    expect(JSON.parse(listed.text).orders.map((o) => o.id)).toEqual(["1001", "1002", "1003", "1004"]);

    const placed = await agent.call("place_order", { customer: "Ada Lovelace", product: "kettle", quantity: 2 });
    expect(placed.text).toBe("Placed order 1005.");
    expect(store.get("1005").customer).toBe("Ada Lovelace");

    // The schema refuses what the model got wrong, before the handler runs.
    const refused = await agent.call("place_order", { customer: "Ada", product: "kettle" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("quantity");
    expect(store.list()).toHaveLength(5);

    agent.check();
    await client.leave();
  });

  it("answers calls made at once, each once, through faults", async () => {
    const agent = new TestAgent();
    const store = new OrderStore();
    let runs = 0;
    const tools = orderTools(store).map((t) => ({ ...t, handler: (args) => (runs++, t.handler(args)) }));
    const client = await Client.register({ ...agent.options(), name: "orders", tools });
    agent.repeatEvents(true); // each event twice: no handler may run twice
    agent.dropStream(); // the client reconnects with Last-Event-ID
    const [a, b] = await agent.callConcurrent([
      ["place_order", { customer: "Ada Lovelace", product: "kettle", quantity: 1 }],
      ["place_order", { customer: "Grace Hopper", product: "grinder", quantity: 1 }],
    ]);
    expect([a.text, b.text].sort()).toEqual(["Placed order 1005.", "Placed order 1006."]);
    expect(runs).toBe(2);

    agent.failNext(2); // two 503s: the client retries
    expect((await agent.call("list_orders")).isError).toBe(false);

    agent.expire(); // the registration lapses: the client registers again
    await expect.poll(() => agent.tools(), { timeout: 5000 }).toContain("client__orders__list_orders");
    expect((await agent.call("list_orders")).isError).toBe(false);
    agent.check();
    await client.leave();
  });

  it("answers a stuck handler's call with an error by its deadline", async () => {
    const agent = new TestAgent({ resultTimeoutMs: 300 });
    const stuck = { name: "list_orders", handler: () => new Promise(() => {}) };
    const client = await Client.register({ ...agent.options(), tools: [stuck] });
    // The client answers by the platform's deadline itself, so no rule is broken.
    const out = await agent.call("list_orders");
    expect(out.isError).toBe(true);
    expect(out.text).toContain("timed out");
    agent.check();
    await client.leave();
  });
});
