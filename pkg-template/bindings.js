// What the framework bindings (react.js, vue.js) share and is not a framework's: the tools each
// mounted component declares, held as one scope of the client each (`client.scope`: the union,
// shadowing, one PUT per task and the ordering rule are the client's), opened in tree order so
// that the innermost declaration of a name answers, declared once the client is there; handlers that always run the latest definition; and the definition's signature, so
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

let places = 0;

/** A component's place in tree order, taken when it first renders (React) or sets up (Vue):
 * both frameworks render a tree parent first, siblings in order, so an inner component's place
 * is after its parent's, and of two siblings rendered together the later one's is after. The
 * place is kept while the component lives (a cached or hidden screen keeps its own). */
export function newPlace() {
  return ++places;
}

/**
 * The tools of one provider's components: each live component's list is a scope of the
 * client once there is one, opened in tree order (their places), so that a name declared twice
 * is the innermost component's (siblings: the later one's), as the nearest React context
 * provider is, whatever order the components mounted in. What goes wrong (a bad tool, a list
 * over the limits) is reported to `onError`, never thrown into the framework's effect.
 */
export class ToolScopes {
  #client = null;
  /** The live entries, in tree order. */
  #entries = [];
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

  /** A component's tools at `place` (newPlace), declared now (or when the client comes); the
   * handle updates, removes and restores them. */
  add(tools, place) {
    const entry = { tools, place, scope: null };
    this.restore(entry);
    return entry;
  }

  /** Declares `entry` again (a cached screen shown again), in its place: the scopes after it
   * in tree order are opened again after it, in this task (one `PUT` with it). */
  restore(entry) {
    if (this.#entries.includes(entry)) return;
    let at = this.#entries.findIndex((e) => e.place > entry.place);
    if (at < 0) at = this.#entries.length;
    this.#entries.splice(at, 0, entry);
    if (!this.#client) return;
    const after = this.#entries.slice(at + 1);
    for (const e of after) {
      e.scope?.release();
      e.scope = null;
    }
    this.#open(entry);
    for (const e of after) this.#open(e);
  }

  update(entry, tools) {
    entry.tools = tools;
    if (!this.#entries.includes(entry)) return;
    if (entry.scope) entry.scope.update(tools).catch((error) => this.#onError(error));
    else if (this.#client) this.#open(entry);
  }

  /** Releases `entry`'s tools (a component unmounted, or a screen cached or hidden). */
  remove(entry) {
    const at = this.#entries.indexOf(entry);
    if (at >= 0) this.#entries.splice(at, 1);
    entry.scope?.release();
    entry.scope = null;
  }

  /** The client is there: every live component's tools are declared, in tree order, in this
   * task (so in one `PUT`). */
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
