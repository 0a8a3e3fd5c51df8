import { test } from "node:test";
import assert from "node:assert/strict";
import { SseParser, followStream } from "../../../www/console/sse.js";

test("parses id, event and data, and ignores comments", () => {
  const parser = new SseParser();
  const events = parser.feed(": keep-alive\n\nid: 7\nevent: client_tool_acked\ndata: {\"call_id\":\"c1\"}\n\n");
  assert.deepEqual(events, [{ type: "client_tool_acked", data: "{\"call_id\":\"c1\"}", id: "7" }]);
  assert.equal(parser.lastEventId, "7");
});

test("joins data lines and defaults the type to message", () => {
  const events = new SseParser().feed("data: a\ndata:b\ndata\n\n");
  assert.deepEqual(events, [{ type: "message", data: "a\nb\n", id: "" }]);
});

test("an event split across chunks at every position comes out whole", () => {
  const text = "id: 1\r\nevent: run_started\r\ndata: {\"run_id\":\"r\"}\r\n\r\nid: 2\rdata: x\r\r";
  for (let cut = 0; cut <= text.length; cut++) {
    const parser = new SseParser();
    const events = [...parser.feed(text.slice(0, cut)), ...parser.feed(text.slice(cut))];
    assert.deepEqual(events, [
      { type: "run_started", data: "{\"run_id\":\"r\"}", id: "1" },
      { type: "message", data: "x", id: "2" },
    ], `cut at ${cut}`);
  }
});

test("a CR at the end of a chunk followed by LF ends one line, not two", () => {
  const parser = new SseParser();
  assert.deepEqual(parser.feed("data: a\r"), []);
  assert.deepEqual(parser.feed("\ndata: b\n\n"), [{ type: "message", data: "a\nb", id: "" }]);
});

test("a leading BOM is dropped, an id with NUL is ignored, retry takes only digits", () => {
  const parser = new SseParser();
  const events = parser.feed("\uFEFFid: 3\nretry: 25x\nretry: 1500\nid: bad\0id\ndata: y\n\n");
  assert.deepEqual(events, [{ type: "message", data: "y", id: "3" }]);
  assert.equal(parser.retryMs, 1500);
});

test("an event without data is not dispatched but its id is kept", () => {
  const parser = new SseParser();
  assert.deepEqual(parser.feed("id: 9\nevent: x\n\n"), []);
  assert.equal(parser.lastEventId, "9");
});

test("followStream reconnects with Last-Event-ID after the server closes", async () => {
  const controller = new AbortController();
  const seen = [];
  const sentIds = [];
  const bodies = ["id: 1\nevent: run_started\ndata: {\"run_id\":\"r1\"}\n\n", "id: 2\nevent: run_completed\ndata: {\"run_id\":\"r1\"}\n\n"];
  const fetchImpl = async (url, { headers }) => {
    sentIds.push(headers["Last-Event-ID"] ?? null);
    const body = bodies.shift();
    if (body === undefined) {
      controller.abort();
      throw new Error("aborted");
    }
    return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
  };
  await followStream({
    url: "http://127.0.0.1:1/v1/sessions/s/stream", token: "t", signal: controller.signal, fetchImpl, retryMs: 1,
    onEvent: (event) => seen.push(event), onState: () => {},
  });
  assert.deepEqual(sentIds, [null, "1", "2"]);
  assert.deepEqual(seen.map((e) => [e.type, e.data.run_id, e.id]), [["run_started", "r1", "1"], ["run_completed", "r1", "2"]]);
});
