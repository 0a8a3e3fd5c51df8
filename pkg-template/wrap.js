// The package's API over the wasm-bindgen glue (client_tools_wasm.js): what the entries export.
// It is JS because it is the shape of the JS API itself, or runs before the module is loaded:
// - one memoized load (api.js's) that every entry point awaits, so that no app calls init()
//   (the module cannot load itself), and the sync classes' "not loaded yet" errors;
// - a Client (and ToolScope) that `using` disposes of by leaving (the glue's own
//   `Symbol.dispose` frees), made by an async register that loads the module first;
// - exposeToWebMCP, loading the module first and taking a Client as the wrapper it is;
// - the hub where client-tools/adapters finds the registry class (it imports neither build).
// The behaviour is the module's: the call runtime (call ids, deadlines, `execute`'s `callId` /
// `deadlineMs`), `leave`'s idempotence, the scopes' rules. guards.js and tools.js hold the
// rest of the JS; docs/internals/architecture.md lists each file and why it is JS.

import { coded, readOrRefuse } from "./errors.js";
import { BROWSER_HINT, compileEarly, load } from "./api.js";
import { guardGlue } from "./guards.js";
import { completeAll, FACTORIES } from "./tools.js";

/** The glue's classes whose constructors (and static methods) are synchronous: usable once
 * the module is loaded (after `await init()`, or once any async entry point has run). */
const SYNC_CLASSES = { ToolRegistry: [], TurnTools: [], WsTools: ["attach"] };

/** What each build's glue must export for this wrapper (checked by scripts/build-pkg): the lite
 * build's has no page tools and no WebMCP. A function, so that an app's bundle, which never
 * calls it, leaves it out. */
export function glueExports(lite) {
  const fullOnly = lite ? [] : ["exposeToWebMCP", ...Object.keys(FACTORIES)];
  return ["default", "initSync", "Client", "wsFrameTest", ...fullOnly, ...Object.keys(SYNC_CLASSES)];
}

/** Where `client-tools/adapters` finds the registry classes (it imports neither build, so
 * its code stays out of an app's bundle until the app imports it): each build's wrap adds its
 * ToolRegistry here and runs the installers the adapters added, whichever loads first. */
const HUB = Symbol.for("client-tools.registries");

/**
 * Builds the API over `glue` (the wasm-bindgen module). `defaultSource()` says where the module
 * is when `init` gets no options: a URL in browsers, the file's bytes in Node; `hint` says what
 * to do when it is not there. `pageTools` is tools.js' maker of the page-tool factories, which
 * the full build's entries pass: the lite entries leave it out, so that their bundles hold none
 * of its code (the lite glue has no page tools to make). `early` (the browser entries'): in a
 * page, the module's fetch and compile start at import, in a microtask, unless the app called
 * `init` first (with its own `module_or_path`, say); `init()` then instantiates what compiled.
 */
export function wrap(glue, defaultSource, { hint = BROWSER_HINT, pageTools, early } = {}) {
  guardGlue(glue);
  let loaded = false;
  let loading = null;
  let compiled;
  if (early && typeof document === "object") {
    queueMicrotask(() => {
      if (!loading) compiled = compileEarly(defaultSource);
    });
  }

  function init(options) {
    if (loading) return loading;
    if (options !== undefined) {
      if (options === null || typeof options !== "object") {
        return Promise.reject(coded("invalid_option", "init: options must be { module_or_path }"));
      }
      const unknown = Object.keys(options).find((key) => key !== "module_or_path");
      if (unknown !== undefined) {
        return Promise.reject(coded("invalid_option", `init: ${unknown}: unknown option; the option is module_or_path`));
      }
    }
    loading = load(glue, options, defaultSource, hint, compiled).then(
      () => {
        loaded = true;
      },
      (error) => {
        loading = null; // a later call tries again (the network may be back)
        throw error;
      },
    );
    return loading;
  }

  /** Throws, with a code, when a synchronous entry point is used before the module loaded. */
  function ready(what) {
    if (loaded) return;
    throw coded(
      "not_loaded",
      `client-tools: ${what} is synchronous and the WebAssembly module is not loaded yet: ` +
        "await init() first (Client.register and the page-tool factories need no init)",
    );
  }

  const CONSTRUCT = Symbol("construct");
  /** Each wrapper Client's wasm client, for the entry points that take a Client. */
  const inners = new WeakMap();

  /** The glue's class `name`, its constructor and listed statics checked by `ready`. */
  function syncClass(name, statics) {
    const Glue = glue[name];
    return new Proxy(Glue, {
      construct(target, args, newTarget) {
        ready(`new ${name}`);
        return Reflect.construct(target, args, newTarget);
      },
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (!statics.includes(prop)) return value;
        return (...args) => {
          ready(`${name}.${String(prop)}`);
          return value.apply(target, args.map((a) => inners.get(a) ?? a));
        };
      },
    });
  }

  // The module's Client keeps its id and name once it left and makes `leave()` idempotent
  // (src/js_api/client.rs): this one only loads the module first and adds `using`.
  class Client {
    #inner;

    constructor(token, inner) {
      if (token !== CONSTRUCT) throw coded("invalid_option", "client-tools: a Client is made by Client.register(options)");
      this.#inner = inner;
      inners.set(this, inner);
    }

    static async register(options) {
      await init();
      const given = readOrRefuse("options", () =>
        options !== null && typeof options === "object" && Array.isArray(options.tools)
          ? { ...options, tools: completeAll(options.tools, "tools") }
          : options,
      );
      return new Client(CONSTRUCT, await glue.Client.register(given));
    }

    get id() {
      return this.#inner.id;
    }

    get name() {
      return this.#inner.name;
    }

    get expiresAt() {
      return this.#inner.expiresAt;
    }

    get state() {
      return this.#inner.state;
    }

    setTools(tools) {
      try {
        return this.#inner.setTools(readOrRefuse("tools", () => completeAll(tools, "tools")));
      } catch (error) {
        return Promise.reject(error);
      }
    }

    leave() {
      return this.#inner.leave();
    }

    scope(tools) {
      const inner = this.#inner;
      const n = inner.scope(0, readOrRefuse("tools", () => completeAll(tools, "tools")) ?? null);
      return new ToolScope(CONSTRUCT, inner, n);
    }
  }

  // A scope of a client's tools (the rules are the Rust core's: src/api/scope.rs); this only
  // holds the client and the scope's number, and adds `using`.
  class ToolScope {
    #inner;
    #n;

    constructor(token, inner, n) {
      if (token !== CONSTRUCT) throw coded("invalid_option", "client-tools: a ToolScope is made by client.scope(tools)");
      this.#inner = inner;
      this.#n = n;
    }

    update(tools) {
      try {
        return this.#inner.scope(this.#n, readOrRefuse("tools", () => completeAll(tools, "tools")) ?? null);
      } catch (error) {
        return Promise.reject(error);
      }
    }

    release() {
      // A freed client has no scopes left to release.
      if (this.#inner.__wbg_ptr !== 0) this.#inner.scope(this.#n, undefined);
    }
  }
  // Only where the runtime has them; TypeScript's `using` looks them up by these symbols.
  if (typeof Symbol.dispose === "symbol") {
    Object.defineProperty(Client.prototype, Symbol.dispose, {
      // A sync dispose cannot wait or report; `await using` sees leave's outcome.
      value() {
        this.leave().catch(() => {});
      },
    });
  }
  if (typeof Symbol.dispose === "symbol") {
    Object.defineProperty(ToolScope.prototype, Symbol.dispose, {
      value() {
        this.release();
      },
    });
  }
  if (typeof Symbol.asyncDispose === "symbol") {
    Object.defineProperty(Client.prototype, Symbol.asyncDispose, {
      value() {
        return this.leave();
      },
    });
  }

  const factories = pageTools ? pageTools(glue, init, () => loaded) : {};

  const classes = {};
  for (const [name, statics] of Object.entries(SYNC_CLASSES)) classes[name] = syncClass(name, statics);
  const hub = (globalThis[HUB] ??= { classes: [], installers: [] });
  if (glue.ToolRegistry && !hub.classes.includes(classes.ToolRegistry)) {
    hub.classes.push(classes.ToolRegistry);
    for (const install of hub.installers) install(glue.ToolRegistry.prototype);
  }

  /** Exposes tools (an array, a registry or a Client) to the browser's own agent (WebMCP). */
  async function exposeToWebMCP(source, options) {
    await init();
    const given = readOrRefuse("source", () =>
      Array.isArray(source) ? completeAll(source, "source") : inners.get(source) ?? source,
    );
    return glue.exposeToWebMCP(given, options);
  }

  // The lite build's glue has no WebMCP (and its entries export none).
  return { init, Client, ...(glue.exposeToWebMCP && { exposeToWebMCP }), ...factories, ...classes };
}
