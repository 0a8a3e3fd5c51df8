import { test } from "node:test";
import assert from "node:assert/strict";
import { ORDER, runScenario, scenarioSteps } from "../../../www/console/scenario.js";

const SCREEN_TOOLS = {
  "/orders": ["list_orders", "highlight_row", "navigate"],
  "/orders/new": ["describe_form", "fill_form", "submit_form", "navigate"],
};

/**
 * An agent whose "page" behaves like the demo app. `lateTools` declares a new screen's tools
 * only after answering the navigate call; `mangle` lets a test break one tool's answer.
 */
function fakeAgent({ lateTools = false, mangle = {} } = {}) {
  const page = { route: "/orders/new", declared: "/orders/new", orders: [{ id: "1001", customer: "Grace Hopper", product: "kettle", quantity: 1, express: false }], form: {}, highlighted: null };
  const results = new Map();
  let next = 0;
  const run = {
    navigate: ({ url }) => {
      page.route = url;
      if (!lateTools) page.declared = url;
      return `Now on ${url}.`;
    },
    list_orders: () => JSON.stringify({ orders: page.orders }),
    describe_form: () => "Fields: customer (text, required), product (select: Burr grinder, Kettle), quantity (number).",
    fill_form: ({ fields }) => {
      page.form = { ...fields, product: fields.product === ORDER.product ? ORDER.productValue : fields.product };
      return "Set customer, product, quantity, express, notes.";
    },
    submit_form: () => {
      page.orders.push({ id: "1002", customer: page.form.customer, product: page.form.product, quantity: Number(page.form.quantity), express: page.form.express });
      return "Submitted; the app handled the submit event.";
    },
    highlight_row: ({ row_id }) => {
      page.highlighted = row_id;
      return `Row ${row_id} is highlighted.`;
    },
  };
  return {
    page,
    cancelled: [],
    startRun: async () => "run_1",
    cancelRun: async function (id) { this.cancelled.push(id); },
    tools: async () => (SCREEN_TOOLS[page.declared] ?? []).map((tool) => ({ fullName: `client__web__${tool}`, client: "web", tool })),
    call: async (runId, fullName, args) => {
      const tool = fullName.split("__")[2];
      const callId = `call_${++next}`;
      const answer = (mangle[tool] ?? run[tool])(args);
      results.set(callId, typeof answer === "object" ? answer : { state: "succeeded", text: answer, is_error: false, reason: null });
      return callId;
    },
    settled: async (runId, callId) => results.get(callId),
  };
}

test("an app that follows the rules passes every step and the new row is highlighted", async () => {
  const agent = fakeAgent();
  const states = [];
  const outcome = await runScenario({ agent, client: "web", onStep: (i, s) => states.push([i, s.state]), now: () => 0 });
  assert.deepEqual(outcome, { passed: scenarioSteps().length, failed: 0, skipped: 0, newRowId: "1002" });
  assert.equal(agent.page.highlighted, "1002");
  assert.equal(agent.page.form.customer, ORDER.customer);
  assert.deepEqual(agent.cancelled, ["run_1"]);
  assert.equal(states.filter(([, s]) => s === "passed").length, scenarioSteps().length);
});

test("tools declared after the navigate result fail the step that navigated", async () => {
  const errors = [];
  // The late app still offers the form's tools when the model reads the navigate result.
  const agent = fakeAgent({ lateTools: true });
  const outcome = await runScenario({ agent, client: "web", onStep: (i, s) => s.error && errors.push([i, s.error]), now: () => 0 });
  assert.equal(outcome.failed, 1);
  assert.equal(outcome.passed, 0);
  assert.equal(errors[0][0], 0);
  assert.match(errors[0][1], /not declared before the result/);
});

test("an is_error answer, a failed call and a wrong text each fail with the reason", async () => {
  const cases = [
    [{ describe_form: () => ({ state: "succeeded", text: "form not found", is_error: true }) }, 3, /answered with an error: form not found/],
    [{ submit_form: () => ({ state: "failed", text: null, is_error: true, reason: "result_timeout" }) }, 5, /call failed: result_timeout/],
    [{ highlight_row: () => "Row 1001 is highlighted." }, 8, /expected "Row 1002 is highlighted\."/],
    [{ fill_form: () => "nothing set" }, 4, /does not mention customer, product, quantity/],
    [{ describe_form: () => "customer product quantity Burr grinder, action /?session=demo&token=demo-token" }, 3, /shows the session token/],
    [{ submit_form: () => "ok" }, 7, /no new order for Ada Lovelace/],
  ];
  for (const [mangle, failingStep, pattern] of cases) {
    const errors = [];
    const outcome = await runScenario({ agent: fakeAgent({ mangle }), client: "web", onStep: (i, s) => s.error && errors.push([i, s.error]), now: () => 0 });
    assert.equal(outcome.failed, 1, JSON.stringify(mangle));
    assert.equal(outcome.passed, failingStep);
    assert.equal(outcome.skipped, scenarioSteps().length - failingStep - 1);
    assert.equal(errors[0][0], failingStep);
    assert.match(errors[0][1], pattern);
  }
});

test("a tool the model does not see is reported with what it does see", async () => {
  const errors = [];
  const outcome = await runScenario({ agent: fakeAgent(), client: "web-2", onStep: (i, s) => s.error && errors.push(s.error), now: () => 0 });
  assert.equal(outcome.failed, 1);
  assert.match(errors[0], /does not see client__web-2__navigate; it sees client__web__describe_form/);
});
