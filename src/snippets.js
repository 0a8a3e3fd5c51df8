// The JS that the SDK's Rust imports, in one module that wasm-bindgen ships beside the glue:
// WsTools' frame test (src/js_api/ws.rs) and WebMCP's registrations (src/exposure.rs). One file,
// not one per feature: without a bundler each snippet is one more module the page fetches
// before the SDK starts, and wasm-bindgen-test-runner's headless page stalled intermittently
// (1 of 4 to 2 of 3 runs of tests/web_ws, at page load) once a second snippet module came,
// never in 8 runs with one. A bundler drops the half a build does not import: the glue imports
// the module's functions by name (scripts/min-names.mjs rewrites wasm-bindgen's `import * as`),
// so the lite build carries none of WebMCP's.

// ---- WsTools' frame test ----

// The JS half of WsTools' frame test: whether a message can be one the bridge reads (a tool
// call; in OpenAI's dialect also a frame about the response's state), decided on the JS string
// before anything crosses into the WebAssembly module, so that audio frames and transcripts,
// most of what a voice socket carries, are never copied into it. The markers are the
// dialect's (`Dialect::markers`, core/src/adapters/ws/types.rs): a frame of interest holds one.
// src/js_api/ws.rs imports it.

/**
 * The test of a message's data for `markers`: true when it is a string holding one of them.
 * The markers are looked for by their first character: a character only one marker starts
 * with is one `includes` (V8 scans for the first character as a memchr, and an audio frame's
 * base64 holds no quote or backslash); the markers sharing one (four of OpenAI's five start
 * with a quote) are one `indexOf` pass over the frame, each hit's next character compared
 * before the marker is, rather than one pass per marker.
 */
export function frameTest(markers) {
  const firsts = [...new Set(markers.map((m) => m[0]))];
  const groups = firsts.map((c) => markers.filter((m) => m[0] === c));
  const seconds = groups.map((group) => group.map((m) => m.charCodeAt(1)));
  return (data) => {
    if (typeof data !== "string") return false;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g];
      if (group.length === 1) {
        if (data.includes(group[0])) return true;
        continue;
      }
      const first = firsts[g];
      const second = seconds[g];
      for (let at = data.indexOf(first); at !== -1; at = data.indexOf(first, at + 1)) {
        const next = data.charCodeAt(at + 1);
        for (let k = 0; k < group.length; k++) {
          if (second[k] === next && data.startsWith(group[k], at)) return true;
        }
      }
    }
    return false;
  };
}

/** What puts `test` in front of a `message` listener: the listener that hands it only the
 * events whose data pass. */
export function frameFront(test) {
  return (listener) => (event) => {
    if (test(event.data)) listener(event);
  };
}

// ---- WebMCP ----

// WebMCP's side of `exposeToWebMCP` (src/exposure.rs imports it): the registrations with the
// browser's `modelContext`, kept in JS because they are JS objects, promises and abort signals
// through and through. What a call does is the SDK's one call runtime, in Rust: a registered
// tool's `execute` hands the call to `run` and shapes what comes back for the host.
//
// What Chromium 156 and the MCP-B polyfill offer: `registerTool(tool, { signal })` returning a
// promise, unregistering when that signal aborts; no `unregisterTool`. So each tool has its own
// registration and signal: a new list unregisters only the tools that went or changed and
// registers only the new or changed ones, side by side, so a tool kept across a swap stays
// registered (a call in flight on it is never cut off) and an MCP client hears one
// `list_changed` per tool that changed (MCP-B sends one per registration).

/** `document.modelContext`, else `navigator.modelContext`, if it can register tools. */
export function modelContext() {
  for (const owner of [globalThis.document, globalThis.navigator]) {
    const mc = owner?.modelContext;
    if (typeof mc?.registerTool === 'function') return mc;
  }
}

/**
 * An error as MCP's tool result. A throw would lose its message in Chromium, and a plain string
 * reads as a success to an MCP client on MCP-B; Chromium's own agent reads this object as its
 * JSON text.
 */
const errorResult = (text) => ({ content: [{ type: 'text', text }], isError: true });

/**
 * Warns that a followed client's new tools were not registered, and `why` (the text of the
 * browser's refusal, or of the SDK's error for the list): nobody awaits them.
 */
export function followFailed(why) {
  console.warn(`exposeToWebMCP: the client's new tools: ${why}`);
}

/** One `exposeToWebMCP`'s registrations. */
export class Exposure {
  /**
   * `run(name, input)` runs a call through the SDK: it resolves the answer's text, or rejects
   * with the text of an error answer (a tool no longer offered included).
   */
  constructor(modelContext, run) {
    this.mc = modelContext;
    this.run = run;
    /** @type {Map<string, { shape: string, controller: AbortController }>} by name */
    this.tools = new Map();
    /** The names the latest list registered, once it has. */
    this.names = [];
    this.list = 0;
    this.stopped = false;
    this.registering = Promise.resolve();
  }

  /**
   * Registers `tools` (an array of `{ name, description, inputSchema, annotations? }`)
   * in place of the list registered before. Resolves once they are registered, or once a newer
   * list or a stop replaced this one; rejects with the text naming a tool the browser refused
   * (the others of the list stay registered).
   */
  update(tools) {
    const done = this.register(tools);
    this.registering = done.catch(() => {});
    return done;
  }

  /** `update` for a followed client's new tools: a refusal is warned of, as nobody awaits it. */
  follow(tools) {
    this.update(tools).catch(followFailed);
  }

  async register(wanted) {
    if (this.stopped) return;
    const list = ++this.list;
    const shapes = new Map(wanted.map((t) => [t.name, JSON.stringify(t)]));
    // The tools that went or changed are unregistered before anything registers, so a changed
    // tool's name is free again.
    for (const [name, { shape, controller }] of this.tools) {
      if (shapes.get(name) !== shape) {
        this.tools.delete(name);
        controller.abort();
      }
    }
    const added = wanted.filter((t) => !this.tools.has(t.name));
    const refusals = await Promise.all(added.map((t) => this.add(t, shapes.get(t.name))));
    if (list !== this.list || this.stopped) return; // a newer list or the app's signal
    const refused = refusals.find((r) => r !== undefined);
    if (refused !== undefined) throw refused;
    this.names = [...this.tools.keys()];
  }

  /** Registers one tool; resolves the text of its refusal, if the browser refused it. */
  async add(tool, shape) {
    const controller = new AbortController();
    // Kept from now on, so that a stop or a newer list meanwhile unregisters it too.
    this.tools.set(tool.name, { shape, controller });
    const name = tool.name;
    tool.execute = async (input) => {
      let text;
      try {
        text = await this.run(name, input);
      } catch (e) {
        text = errorResult(String(e));
      }
      // The ordering rule: the tools a handler put in place register before its answer goes.
      await this.settled();
      return text;
    };
    try {
      await this.mc.registerTool(tool, { signal: controller.signal });
    } catch (e) {
      if (this.tools.get(name)?.controller !== controller) return; // unregistered meanwhile
      this.tools.delete(name);
      controller.abort();
      // An Error (a DOMException included) reads "Name: message".
      return `registerTool(${JSON.stringify(name)}) was refused: ${String(e)}`;
    }
  }

  /** Settles once the latest list is registered: until no newer list replaced the one awaited. */
  async settled() {
    let awaited;
    while (awaited !== this.registering) {
      awaited = this.registering;
      await awaited;
    }
  }

  /** Unregisters every tool, for good. */
  stop() {
    this.stopped = true;
    this.names = [];
    for (const { controller } of this.tools.values()) controller.abort();
    this.tools.clear();
  }
}
