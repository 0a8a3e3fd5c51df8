import { test } from "node:test";
import assert from "node:assert/strict";
import { CallLog, timingText } from "../../../www/console/calllog.js";

const dispatched = { type: "client_tool_dispatched", data: { call_id: "c1", tool: "highlight_row", client_id: "cli_1", run_id: "r1", arguments: { row_id: "7" } } };
const acked = { type: "client_tool_acked", data: { call_id: "c1", client_id: "cli_1" } };

test("a call goes requested → dispatched → acked → answered with timings", () => {
  const log = new CallLog();
  log.requested("c1", "client__web__highlight_row", { row_id: "7" }, 100);
  assert.equal(log.apply(dispatched, 103).state, "dispatched");
  assert.equal(log.apply(acked, 110).state, "acked");
  const entry = log.apply({ type: "client_tool_succeeded", data: { call_id: "c1", is_error: false } }, 143);
  assert.equal(entry.state, "answered");
  assert.equal(timingText(entry), "dispatched +3 ms · acked +7 ms · answered +40 ms");
});

test("a repeated event changes nothing and a late event never moves a settled call back", () => {
  const log = new CallLog();
  log.apply(dispatched, 0);
  assert.equal(log.apply(dispatched, 5), null);
  log.apply({ type: "client_tool_failed", data: { call_id: "c1", reason: "ack_timeout" } }, 60000);
  assert.equal(log.apply(acked, 60001).state, "failed");
  assert.equal(log.apply({ type: "client_tool_succeeded", data: { call_id: "c1", is_error: false } }, 60002), null);
  const [entry] = log.list();
  assert.equal(entry.reason, "ack_timeout");
  assert.equal(timingText(entry), "dispatched · acked +60001 ms · failed (ack_timeout) +60000 ms");
});

test("an is_error answer is shown as such; other events and events without call_id are ignored", () => {
  const log = new CallLog();
  log.apply(dispatched, 0);
  const entry = log.apply({ type: "client_tool_succeeded", data: { call_id: "c1", is_error: true } }, 9);
  assert.equal(timingText(entry), "dispatched · answered (is_error) +9 ms");
  assert.equal(log.apply({ type: "client_registered", data: { client_id: "x", name: "web" } }, 1), null);
  assert.equal(log.apply({ type: "client_tool_acked", data: {} }, 1), null);
  assert.equal(log.list().length, 1);
});
