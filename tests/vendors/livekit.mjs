// LiveKit, without a LiveKit server: a contract test through livekit-client's real RPC dispatch.
// A real `Room` (never connected) gets registry.toLiveKit(room); RPC requests are fed to it as
// the data packets its engine would deliver (`rpcRequest`, protocol version 1) and its replies
// (the ack and the `rpcResponse`) are taken where it hands them to the engine to send. What is
// covered: the SDK's own dispatch to our handlers (method lookup, payload in, response payload
// out, its 15,360-byte check, unregistering); not covered: the signalling and data channels
// of a real room, and a caller's data-stream replies for payloads over 15 KiB.
import { Room } from "livekit-client";
import { DataPacket, DataPacket_Kind, RpcRequest } from "@livekit/protocol";
import { init, ToolRegistry } from "client-tools";
import "client-tools/adapters";
import { assert, check, done, echoTool, waitFor } from "./lib.mjs";

await init();
const runs = { echo: 0, big: 0 };
const seen = {};
const registry = new ToolRegistry([
  echoTool(runs),
  {
    name: "big",
    handler: () => {
      runs.big += 1;
      return "é".repeat(20000);
    },
  },
  {
    name: "hang",
    timeoutMs: 30000,
    handler: (args, ctx) => new Promise(() => ctx.signal.addEventListener("abort", () => (seen.aborted = true))),
  },
]);

const room = new Room();
const sent = [];
room.engine.sendDataPacket = async (packet) => sent.push(packet);
let requests = 0;
/** An RPC request from `agent`, as the room's engine would deliver it; resolves the reply. */
async function rpc(method, payload, responseTimeoutMs = 10000) {
  const id = `req-${(requests += 1)}`;
  room.handleDataPacket(new DataPacket({
    kind: DataPacket_Kind.RELIABLE,
    participantIdentity: "agent",
    value: { case: "rpcRequest", value: new RpcRequest({ id, method, payload, responseTimeoutMs, version: 1 }) },
  }));
  const reply = await waitFor(`the reply to ${method}`, () =>
    sent.find((p) => p.value.case === "rpcResponse" && p.value.value.requestId === id), responseTimeoutMs + 2000);
  const value = reply.value.value.value;
  return value.case === "payload" ? { payload: value.value } : { error: value.value };
}

const unregister = registry.toLiveKit(room, { prefix: "shop." });

await check("livekit: a tool's method answers { success, data } as JSON, the call acked", async () => {
  const reply = await rpc("shop.echo", JSON.stringify({ text: "hi" }));
  assert.deepEqual(JSON.parse(reply.payload), { success: true, data: { echo: "hi" }, error: null });
  assert.ok(sent.some((p) => p.value.case === "rpcAck" && p.value.value.requestId === "req-1"));
  assert.equal(runs.echo, 1);
});

await check("livekit: bad arguments and a payload that is not JSON are answered success: false, the handler not run", async () => {
  const bad = JSON.parse((await rpc("shop.echo", JSON.stringify({ text: 7 }))).payload);
  assert.equal(bad.success, false);
  assert.match(bad.error, /Invalid arguments for "echo"/);
  const broken = JSON.parse((await rpc("shop.echo", "{oops")).payload);
  assert.match(broken.error, /the payload is not JSON/);
  assert.equal(runs.echo, 1);
});

await check("livekit: a result over 15,360 bytes is cut to fit, with a note (LiveKit would refuse it)", async () => {
  const reply = await rpc("shop.big", "");
  assert.ok(reply.payload, `an error came back: ${JSON.stringify(reply.error)}`);
  const bytes = new TextEncoder().encode(reply.payload).length;
  assert.ok(bytes <= 15360 && bytes > 15000, `${bytes} bytes`);
  const body = JSON.parse(reply.payload);
  assert.equal(body.success, true);
  assert.match(body.data, /\n\[cut: \d+ more characters; a result holds at most 15360 bytes\]$/);
  assert.ok(body.data.startsWith("éé"));
});

await check("livekit: a hanging handler is cut before the caller's responseTimeout, its signal aborted", async () => {
  const t0 = Date.now();
  const reply = await rpc("shop.hang", "{}", 1500);
  const took = Date.now() - t0;
  const body = JSON.parse(reply.payload);
  assert.equal(body.success, false);
  // The deadline: 1,500 ms less the way back (1 s, or half of it): 750 ms.
  assert.match(body.error, /timed out after 750 ms/);
  assert.ok(took < 1500, `${took} ms`);
  await waitFor("the handler's signal", () => seen.aborted === true);
});

await check("livekit: list_tools answers the declarations; unregistering removes every method", async () => {
  const list = JSON.parse((await rpc("shop.list_tools", "")).payload);
  assert.deepEqual(list.map((t) => t.name), ["echo", "big", "hang"]);
  assert.deepEqual(list[0].parameters.required, ["text"]);
  unregister();
  const after = await rpc("shop.echo", JSON.stringify({ text: "x" }));
  assert.equal(after.error?.code, 1400); // UNSUPPORTED_METHOD
  assert.throws(() => registry.toLiveKit({}), /room must be a livekit-client Room/);
  assert.throws(() => registry.toLiveKit(room, { prefix: 3 }), /prefix must be a string/);
});

done();
