// The scripted scenario, played as the model would: describe the order form, fill it, submit,
// go back to the list, find the new order and highlight its row. Every step must be answered
// correctly; a step that is not stops the scenario with the reason.

/** The order the scenario places; the customer name finds it again in the list. */
export const ORDER = Object.freeze({
  customer: "Ada Lovelace",
  email: "ada@example.com",
  product: "Burr grinder",
  productValue: "grinder",
  quantity: 2,
  notes: "Leave at the door.",
});

function parseOrders(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`list_orders answered text that is not JSON: ${text.slice(0, 80)}`);
  }
  if (!Array.isArray(value?.orders)) throw new Error("list_orders answered JSON without an \"orders\" array");
  return value.orders;
}

function mustMention(text, words) {
  const lower = text.toLowerCase();
  const missing = words.filter((word) => !lower.includes(word.toLowerCase()));
  if (missing.length) throw new Error(`the answer does not mention ${missing.join(", ")}: ${text.slice(0, 200)}`);
}

/**
 * The steps: `{ title, tool, args(ctx), check(text, ctx), offeredAfter, goneAfter }`. `check`
 * throws an Error saying what is wrong; `offeredAfter`/`goneAfter` are the tools the model must
 * (not) see as soon as the step is answered: a screen change declares its tools before its result.
 */
export function scenarioSteps() {
  return [
    {
      title: "Open the orders list",
      tool: "navigate",
      args: () => ({ url: "/orders" }),
      check: () => {},
      offeredAfter: ["list_orders", "highlight_row"],
      goneAfter: ["fill_form"],
    },
    {
      title: "Read the orders before",
      tool: "list_orders",
      args: () => ({}),
      check: (text, ctx) => {
        ctx.before = new Set(parseOrders(text).map((order) => String(order.id)));
      },
    },
    {
      title: "Open the order form",
      tool: "navigate",
      args: () => ({ url: "/orders/new" }),
      check: () => {},
      offeredAfter: ["describe_form", "fill_form", "submit_form"],
      goneAfter: ["highlight_row", "list_orders"],
    },
    {
      title: "Describe the form",
      tool: "describe_form",
      args: () => ({}),
      check: (text) => {
        mustMention(text, ["customer", "product", "quantity", "Burr grinder"]);
        // The page's URL reaches the model as the form's action: it must not carry the token.
        if (/[?&]token=/.test(text)) throw new Error("the answer shows the session token to the model");
      },
    },
    {
      title: "Fill the form",
      tool: "fill_form",
      args: () => ({
        fields: {
          customer: ORDER.customer,
          email: ORDER.email,
          product: ORDER.product,
          quantity: String(ORDER.quantity),
          express: true,
          notes: ORDER.notes,
        },
      }),
      check: (text) => mustMention(text, ["customer", "product", "quantity"]),
    },
    {
      title: "Submit the form",
      tool: "submit_form",
      args: () => ({}),
      check: () => {},
    },
    {
      title: "Go back to the list",
      tool: "navigate",
      args: () => ({ url: "/orders" }),
      check: () => {},
      offeredAfter: ["list_orders", "highlight_row"],
      goneAfter: ["fill_form", "submit_form"],
    },
    {
      title: "Find the new order",
      tool: "list_orders",
      args: () => ({}),
      check: (text, ctx) => {
        const fresh = parseOrders(text).filter((order) => !ctx.before.has(String(order.id)));
        const mine = fresh.find((order) => order.customer === ORDER.customer);
        if (!mine) throw new Error(`no new order for ${ORDER.customer}; new orders: ${JSON.stringify(fresh)}`);
        if (mine.product !== ORDER.productValue || Number(mine.quantity) !== ORDER.quantity || mine.express !== true) {
          throw new Error(`the new order does not hold what was filled in: ${JSON.stringify(mine)}`);
        }
        ctx.newRowId = String(mine.id);
      },
    },
    {
      title: "Highlight the new row",
      tool: "highlight_row",
      args: (ctx) => ({ row_id: ctx.newRowId }),
      check: (text, ctx) => {
        const expected = `Row ${ctx.newRowId} is highlighted.`;
        if (text !== expected) throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(text)}`);
      },
    },
  ];
}

/**
 * Plays the steps against client `client` through `agent` (see agent.js). Calls
 * `onStep(index, { state, text, error, ms })` as each step runs, passes or fails, and
 * `onCall(callId, tool, args, requestedAt)` when a call is made (`requestedAt` from `now`).
 * Resolves to `{ passed, failed, skipped, newRowId }`; never rejects (a failure is a failed step).
 */
export async function runScenario({ agent, client, onStep = () => {}, onCall = () => {}, now = () => performance.now(), timeoutMs = 30000 }) {
  const steps = scenarioSteps();
  const ctx = {};
  const outcome = { passed: 0, failed: 0, skipped: 0, newRowId: null };
  let runId = null;
  try {
    runId = await agent.startRun();
  } catch (error) {
    onStep(0, { state: "failed", error: error.message });
    return { ...outcome, failed: 1, skipped: steps.length - 1 };
  }
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index];
    const fullName = `client__${client}__${step.tool}`;
    const started = now();
    onStep(index, { state: "running" });
    try {
      const offered = (await agent.tools()).map((tool) => tool.fullName);
      if (!offered.includes(fullName)) throw new Error(`the model does not see ${fullName}; it sees ${offered.join(", ") || "no tools"}`);
      const args = step.args(ctx);
      const requestedAt = now();
      const callId = await agent.call(runId, fullName, args);
      onCall(callId, fullName, args, requestedAt);
      const result = await agent.settled(runId, callId, { timeoutMs });
      if (result.state !== "succeeded") throw new Error(`the call failed: ${result.reason ?? "no reason given"}`);
      const text = result.text ?? "";
      if (result.is_error) throw new Error(`the tool answered with an error: ${text}`);
      step.check(text, ctx);
      if (step.offeredAfter || step.goneAfter) {
        const after = (await agent.tools()).filter((tool) => tool.client === client).map((tool) => tool.tool);
        const missing = (step.offeredAfter ?? []).filter((name) => !after.includes(name));
        const stale = (step.goneAfter ?? []).filter((name) => after.includes(name));
        if (missing.length || stale.length) {
          throw new Error(`right after the answer the model sees ${after.join(", ")}: the new screen's tools were not declared before the result`);
        }
      }
      outcome.passed++;
      onStep(index, { state: "passed", text, ms: now() - started });
    } catch (error) {
      outcome.failed++;
      outcome.skipped = steps.length - index - 1;
      onStep(index, { state: "failed", error: error.message, ms: now() - started });
      break;
    }
  }
  outcome.newRowId = ctx.newRowId ?? null;
  // Ending the run fails any call still owed, so a stopped scenario leaves nothing pending.
  await agent.cancelRun(runId).catch(() => {});
  return outcome;
}
