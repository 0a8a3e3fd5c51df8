// What the framework bindings (react.js, vue.js) share and is not a framework's: the tools each
// mounted component declares, held as one scope of the client each (`client.scope`: the union,
// shadowing, one PUT per task and the ordering rule are the client's), declared once the client
// is there; handlers that always run the latest definition; and the definition's signature, so
// that a component is re-declared only when a name, description, schema or option changes.
// Nothing here runs at import.

/** Numbers for objects compared by identity in a signature (page tools made before the module
 * loaded, Standard Schema objects). */
const ids = new WeakMap();
let nextId = 1;
function idOf(object) {
  let id = ids.get(object);
  if (id === undefined) ids.set(object, (id = nextId++));
  return id;
}

/** A page tool made before the module loaded carries its definition behind a symbol: it is
 * passed on as it is, and compared by identity. */
function opaque(tool) {
  return tool !== null && typeof tool === "object" && Object.getOwnPropertySymbols(tool).length > 0;
}

/** What declaring `tools` declares, as text: equal texts need no new `PUT`. */
export function signatureOf(tools) {
  if (!Array.isArray(tools)) return `#${tools === null || typeof tools !== "object" ? String(tools) : idOf(tools)}`;
  return JSON.stringify(
    tools.map((t) => {
      if (t === null || typeof t !== "object") return [String(t)];
      if (opaque(t)) return ["#", idOf(t)];
      const p = t.parameters;
      const schema = p !== null && typeof p === "object" && "~standard" in p ? ["#", idOf(p)] : p;
      return [t.name, t.description, schema, t.timeoutMs, t.maxCallsPerRun, t.assertFormats, t.annotations, t.expectsResponse];
    }),
  );
}

/** `tools` declared so that each handler runs the newest definition of its name that
 * `latest()` gives (the latest render's closure), else its own. */
export function latestHandlers(tools, latest) {
  if (!Array.isArray(tools)) return tools;
  return tools.map((tool) => {
    if (tool === null || typeof tool !== "object" || opaque(tool) || typeof tool.handler !== "function") return tool;
    const name = tool.name;
    return {
      ...tool,
      handler(args, ctx) {
        const now = latest();
        const current = Array.isArray(now) ? now.find((t) => t !== null && typeof t === "object" && t.name === name) : undefined;
        const run = current && typeof current.handler === "function" ? current : tool;
        return run.handler(args, ctx);
      },
    };
  });
}

/**
 * The tools of one provider's components: each mounted component's list is a scope of the
 * client once there is one. What goes wrong (a bad tool, a list over the limits) is reported
 * to `onError`, never thrown into the framework's effect.
 */
export class ToolScopes {
  #client = null;
  #entries = new Set();
  #onError;

  constructor(onError) {
    this.#onError = onError;
  }

  get client() {
    return this.#client;
  }

  #open(entry) {
    try {
      entry.scope = this.#client.scope(entry.tools);
    } catch (error) {
      entry.scope = null;
      this.#onError(error);
    }
  }

  /** A component's tools, declared now (or when the client comes); the handle updates and
   * releases them. */
  add(tools) {
    const entry = { tools, scope: null };
    this.#entries.add(entry);
    if (this.#client) this.#open(entry);
    return entry;
  }

  update(entry, tools) {
    entry.tools = tools;
    if (!this.#entries.has(entry)) return;
    if (entry.scope) entry.scope.update(tools).catch((error) => this.#onError(error));
    else if (this.#client) this.#open(entry);
  }

  remove(entry) {
    this.#entries.delete(entry);
    entry.scope?.release();
    entry.scope = null;
  }

  /** The client is there: every mounted component's tools are declared, in mount order, in
   * this task (so in one `PUT`). */
  attach(client) {
    this.#client = client;
    for (const entry of this.#entries) this.#open(entry);
  }

  /** The client went: the components stay mounted, and are declared again on the next one. */
  detach() {
    for (const entry of this.#entries) {
      try {
        entry.scope?.release();
      } catch {}
      entry.scope = null;
    }
    this.#client = null;
  }
}

/** Resolves `settle()` (a promise, or nothing) or, after `timeoutMs`, warns that `what` did not
 * settle and resolves anyway. */
export function settleWithin(settled, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      console.warn(`client-tools: ${what} did not settle within ${timeoutMs} ms (settleTimeoutMs); going on without it`);
      resolve();
    }, timeoutMs);
    Promise.resolve(settled).then(
      () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve();
      },
      (error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A tool definition as it is: for TypeScript, which infers the handler's arguments from its
 * `parameters` (a zod schema, or a JSON Schema written `as const`). */
export function defineTool(tool) {
  return tool;
}
