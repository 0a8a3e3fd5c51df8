// scripts/bench-dispatch's stream reader, a worker thread: reads the session's event stream
// and posts each call event as it arrives, { id, kind, at } (at: performance.timeOrigin +
// performance.now(), the same clock as the main thread's), and { open: true } once connected.
import { parentPort, workerData } from "node:worker_threads";

const KINDS = {
  client_tool_dispatched: "dispatched",
  client_tool_acked: "acked",
  client_tool_succeeded: "answered",
  client_tool_failed: "failed",
};
const response = await fetch(workerData.url, {
  headers: { Authorization: `Bearer ${workerData.token}`, Accept: "text/event-stream" },
});
if (!response.ok) throw new Error(`the stream: HTTP ${response.status}`);
parentPort.postMessage({ open: true });
const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of response.body) {
  const at = performance.timeOrigin + performance.now();
  buffer += decoder.decode(chunk, { stream: true });
  for (let end; (end = buffer.indexOf("\n\n")) >= 0;) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const data = block.split("\n").find((l) => l.startsWith("data:"));
    if (!data) continue;
    const event = JSON.parse(data.slice(5));
    const kind = KINDS[event.type];
    if (kind) parentPort.postMessage({ id: event.call_id, kind, at });
  }
}
