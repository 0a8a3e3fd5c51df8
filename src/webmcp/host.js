// WebMCP's side of `exposeToWebMCP` (src/webmcp.rs imports it): the registrations with the
// browser's `modelContext`, kept in JS because they are JS objects, promises and abort signals
// through and through. What a call does is the SDK's one call runtime, in Rust: a registered
// tool's `execute` hands the call to `run` and shapes what comes back for the host.
// wasm-bindgen ships this file beside the glue.
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

const reason = (e) =>
  e instanceof Error ? `${e.name}: ${e.message}` : typeof e === 'string' ? e : 'an unknown error';

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
    this.update(tools).catch((e) => console.warn(`exposeToWebMCP: the client's new tools: ${e}`));
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
      return `registerTool(${JSON.stringify(name)}) was refused: ${reason(e)}`;
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
