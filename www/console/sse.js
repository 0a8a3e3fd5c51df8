// Server-Sent Events read with fetch(), because an EventSource cannot send `Authorization`.
// The parser follows the WHATWG HTML standard's event-stream rules (§9.2.6).

/**
 * An incremental event-stream parser: feed it decoded text in chunks of any size, get complete
 * events `{ type, data, id }` back. `lastEventId` is what a reconnect sends as `Last-Event-ID`.
 */
export class SseParser {
  constructor() {
    this.buffer = "";
    this.afterCR = false;
    this.started = false;
    this.data = [];
    this.type = "";
    this.lastEventId = "";
    this.retryMs = null;
  }

  /** Parses `text` and returns the events it completed, in order. */
  feed(text) {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    // A CR that ended the previous chunk already ended its line; its LF must not end another.
    if (this.afterCR && text.startsWith("\n")) text = text.slice(1);
    this.afterCR = false;
    this.buffer += text;
    const events = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer[i];
      if (ch !== "\n" && ch !== "\r") continue;
      this.line(this.buffer.slice(start, i), events);
      if (ch === "\r") {
        if (i + 1 === this.buffer.length) this.afterCR = true;
        else if (this.buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  line(line, events) {
    if (line === "") {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.type = value;
        break;
      case "data":
        this.data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.lastEventId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        // Unknown fields are ignored, as the standard says.
        break;
    }
  }

  dispatch(events) {
    const data = this.data;
    const type = this.type;
    this.data = [];
    this.type = "";
    if (data.length === 0) return;
    events.push({ type: type || "message", data: data.join("\n"), id: this.lastEventId });
  }
}

/**
 * Reads a session's event stream until `signal` aborts, reconnecting with `Last-Event-ID` after a
 * drop. Calls `onEvent({ type, data, id })` with `data` parsed as JSON (the raw text when it is
 * not JSON) and `onState(state, detail)` with "open", "reconnecting" or "closed".
 */
export async function followStream({ url, token, signal, onEvent, onState, fetchImpl = fetch, retryMs = 1000 }) {
  let lastEventId = "";
  while (!signal.aborted) {
    const parser = new SseParser();
    parser.lastEventId = lastEventId;
    try {
      const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream" };
      if (lastEventId) headers["Last-Event-ID"] = lastEventId;
      const response = await fetchImpl(url, { headers, signal, cache: "no-store" });
      if (!response.ok) throw new Error(`stream: HTTP ${response.status} ${await errorText(response)}`);
      onState("open");
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.feed(value)) {
          lastEventId = event.id;
          let data = event.data;
          try {
            data = JSON.parse(event.data);
          } catch {
            // Not JSON: hand the text on as it is.
          }
          onEvent({ type: event.type, data, id: event.id });
        }
      }
      lastEventId = parser.lastEventId;
      if (signal.aborted) break;
      onState("reconnecting", "the server closed the stream");
    } catch (error) {
      lastEventId = parser.lastEventId || lastEventId;
      if (signal.aborted) break;
      onState("reconnecting", error.message);
    }
    await sleep(parser.retryMs ?? retryMs, signal);
  }
  onState("closed");
}

async function errorText(response) {
  try {
    const body = await response.json();
    return body?.error?.message ?? "";
  } catch {
    return "";
  }
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
