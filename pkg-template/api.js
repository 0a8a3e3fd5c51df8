// The package's public API around the wasm-bindgen glue (client_tools_wasm.js): it loads the
// WebAssembly module; the entries (client_tools.js for browsers and bundlers, node.js for
// Node) differ only in where the module comes from. The call runtime (call ids, deadlines,
// `execute`'s `callId` / `deadlineMs`) and `leave` are the module's. What is still here, and
// why it is JS:
// - one memoized load that every entry point awaits, so no app calls init() (the module
//   cannot load itself);
// - a guard on each glue class: a freed object answers a coded Error without entering the
//   module (wasm-bindgen's own check throws through it);
// - `WsTools.receive`'s frame test in JS, so audio frames are not copied into the module;
// - a Client (and ToolScope) wrapper that `using` disposes of, made by an async register that
//   loads the module first, and the sync classes' "not loaded yet" errors;
// - page-tool factories usable before the module loaded, and React/Vue refs read per call;
// - a Standard Schema (zod, valibot) converted to JSON Schema (standard.js), and the hub
//   where client-tools/adapters finds the registry class.
// docs/internals/architecture.md lists the same.

import { fromStandardSchema } from "./standard.js";
import { refKeys, resolveRefs, withoutRefs } from "./refs.js";

/** Marks a page tool made before the module loaded: register/setTools complete it. */
const PENDING = Symbol("client-tools pending page tool");

/** The page-tool factories the full build's glue exports, with each tool's default name (the
 * lite build, `client-tools/lite`, has none). */
const FACTORIES = {
  describeFormTool: "describe_form",
  fillFormTool: "fill_form",
  submitFormTool: "submit_form",
  navigateTool: "navigate",
};

/** The glue's classes whose constructors (and static methods) are synchronous: usable once
 * the module is loaded (after `await init()`, or once any async entry point has run). */
const SYNC_CLASSES = { ToolRegistry: [], TurnTools: [], WsTools: ["attach"] };

/** What each build's glue must export for this wrapper (checked by scripts/build-pkg). */
export const GLUE_EXPORTS = [
  "default", "initSync", "Client", "exposeToWebMCP", "wsFrameTest", ...Object.keys(FACTORIES), ...Object.keys(SYNC_CLASSES),
];
export const LITE_GLUE_EXPORTS = GLUE_EXPORTS.filter((name) => !(name in FACTORIES));

/** What to do when the module is not found, in browsers (the entries may give their own). */
export const BROWSER_HINT =
  "A bundler that does not copy client_tools_bg.wasm (esbuild) needs the file copied and its URL " +
  "given before the first Client.register: init({ module_or_path: url }) (README: esbuild).";

/** An `Error` with a `code` a program can switch on (the codes: `ClientErrorCode`). */
function coded(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

/** The text of what an app's code threw, whatever it is (a Proxy, a symbol, a throwing getter). */
function messageOf(error) {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "an error that cannot be read";
  }
}

/** Runs `read` (code that reads the app's values: getters, Proxies, iterators); what it throws
 * becomes an `invalid_option` error naming `field`, unless it is the SDK's own coded error. */
function readOrRefuse(field, read) {
  try {
    return read();
  } catch (error) {
    let code;
    try {
      code = error instanceof Error ? error.code : undefined;
    } catch {}
    if (typeof code === "string") throw error;
    throw coded("invalid_option", `${field}: cannot be read (${messageOf(error)})`);
  }
}

/** The glue's promise-returning methods, by class: misused, they reject instead of throwing. */
const ASYNC_METHODS = { Client: ["setTools", "leave"], ToolRegistry: ["execute"], TurnTools: ["answer"], WsTools: [] };

/**
 * Guards every method and getter of the glue's class `name`, once per glue: an object that was
 * freed (or a `this` that is none of its objects) answers an `Error` coded `freed` (or
 * `invalid_option`) without entering the WebAssembly module, where wasm-bindgen's own check
 * would throw through it and leave the module's stack behind; `free()` of a freed object does
 * nothing, and `free()` while one of the object's methods is running (from a getter or handler
 * that method called) frees it once that method returns.
 */
function guardClass(Glue, name) {
  const proto = Glue?.prototype;
  if (!proto || Object.prototype.hasOwnProperty.call(proto, GUARDED)) return;
  Object.defineProperty(proto, GUARDED, { value: true });
  const busy = new WeakMap();
  const doomed = new WeakSet();
  const realFree = proto.free;
  const asyncs = ASYNC_METHODS[name] ?? [];
  const guarded = (f, key) => {
    const what = `${name}.${String(key)}`;
    const isFree = f === realFree;
    const isAsync = asyncs.includes(key);
    const fail = (error) => {
      if (isAsync) return Promise.reject(error);
      throw error;
    };
    return function (...args) {
      let ptr;
      try {
        ptr = this === null || this === undefined ? undefined : this.__wbg_ptr;
      } catch {}
      if (typeof ptr !== "number") {
        return fail(coded("invalid_option", `client-tools: ${what}: called on something that is not a ${name}`));
      }
      if (ptr === 0 || doomed.has(this)) {
        if (isFree) return undefined;
        return fail(coded("freed", `client-tools: ${what}: this ${name} was freed (free()) and cannot be used any more`));
      }
      if (isFree) {
        if (busy.get(this)) {
          doomed.add(this);
          return undefined;
        }
        return f.apply(this, args);
      }
      busy.set(this, (busy.get(this) ?? 0) + 1);
      try {
        return f.apply(this, args);
      } finally {
        const depth = busy.get(this) - 1;
        if (depth > 0) {
          busy.set(this, depth);
        } else {
          busy.delete(this);
          if (doomed.has(this) && this.__wbg_ptr !== 0) realFree.call(this);
        }
      }
    };
  };
  for (const key of Reflect.ownKeys(proto)) {
    if (key === "constructor" || key === "__destroy_into_raw" || key === GUARDED) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (typeof d.value === "function") d.value = guarded(d.value, key);
    else if (typeof d.get === "function") d.get = guarded(d.get, key);
    else continue;
    Object.defineProperty(proto, key, d);
  }
}

/** Marks a glue class's prototype as guarded (`guardClass`). */
const GUARDED = Symbol("client-tools guarded");

/**
 * Runs each WsTools' frame test (its dialect's markers, `testOf(dialect)`: src/ws/frames.js)
 * on `receive`'s data in JS first: a frame that cannot be one the bridge reads (audio, a
 * transcript: most of a voice socket's frames) is answered `false` without being copied into
 * the WebAssembly module. Installed under `guardClass`, which checks the object first.
 */
function testFrames(WsTools, testOf) {
  const proto = WsTools?.prototype;
  // Once per glue: `guardClass` marks the prototype after this ran.
  if (!proto || Object.prototype.hasOwnProperty.call(proto, GUARDED)) return;
  const receive = proto.receive;
  const tests = new WeakMap();
  proto.receive = function (data) {
    let test = tests.get(this);
    if (!test) tests.set(this, (test = testOf(this.dialect) ?? (() => true)));
    return test(data) ? receive.call(this, data) : false;
  };
}


/** Where `client-tools/adapters` finds the registry classes (it imports neither build, so
 * its code stays out of an app's bundle until the app imports it): each build's wrap adds its
 * ToolRegistry here and runs the installers the adapters added, whichever loads first. */
const HUB = Symbol.for("client-tools.registries");

/**
 * Builds the API over `glue` (the wasm-bindgen module). `defaultSource()` says where the module
 * is when `init` gets no options: a URL in browsers, the file's bytes in Node; `hint` says what
 * to do when it is not there.
 */
export function wrap(glue, defaultSource, hint = BROWSER_HINT) {
  testFrames(glue.WsTools, glue.wsFrameTest);
  for (const name of Object.keys(ASYNC_METHODS)) guardClass(glue[name], name);
  let loaded = false;
  let loading = null;

  async function load(options) {
    let source;
    try {
      source = options === undefined ? await defaultSource() : await options.module_or_path;
    } catch (error) {
      throw coded("wasm_load", `client-tools: cannot find client_tools_bg.wasm: ${messageOf(error)}. ${hint}`);
    }
    if (typeof source === "string" || source instanceof URL) {
      const url = String(source);
      let response;
      try {
        response = await fetch(url);
      } catch (error) {
        throw coded("wasm_load", `client-tools: cannot load the WebAssembly module from ${url}: ${messageOf(error)}`);
      }
      if (!response.ok) {
        throw coded("wasm_load", `client-tools: cannot load the WebAssembly module: ${url} answered ${response.status}. ${hint}`);
      }
      source = response;
    }
    try {
      await glue.default({ module_or_path: source });
    } catch (error) {
      throw coded("wasm_load", `client-tools: cannot instantiate the WebAssembly module: ${messageOf(error)}`);
    }
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
    loading = load(options).then(
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

  /** A page tool from a factory, completed now if it was made before the module loaded. */
  function complete(tool, field) {
    if (tool === null || typeof tool !== "object") return tool;
    if (!(PENDING in tool)) return fromStandardSchema(tool, field, coded);
    try {
      return tool[PENDING]();
    } catch (error) {
      throw coded(error?.code ?? "invalid_option", `${field}: ${messageOf(error)}`);
    }
  }

  function completeAll(tools, field) {
    return Array.isArray(tools) ? tools.map((tool, i) => complete(tool, `${field}[${i}]`)) : tools;
  }

  const CONSTRUCT = Symbol("construct");
  /** Each wrapper Client's wasm client, for the entry points that take a Client. */
  const inners = new WeakMap();

  /** Throws, with a code, when a synchronous entry point is used before the module loaded. */
  function ready(what) {
    if (loaded) return;
    throw coded(
      "not_loaded",
      `client-tools: ${what} is synchronous and the WebAssembly module is not loaded yet: ` +
        "await init() first (Client.register and the page-tool factories need no init)",
    );
  }

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

  const factories = {};
  for (const [exportName, defaultName] of Object.entries(FACTORIES)) {
    if (!(exportName in glue)) continue; // the lite build
    factories[exportName] = (options) => {
      const refs = readOrRefuse(exportName, () => refKeys(options));
      if (refs.length > 0) return withRefs(exportName, options, refs);
      if (loaded) return glue[exportName](options);
      // Before the module is loaded the definition is completed (and its options checked)
      // when Client.register or setTools takes it, once the module is there.
      let built;
      const build = () => (built ??= glue[exportName](options));
      const name = readOrRefuse(exportName, () =>
        options !== null && typeof options === "object" && typeof options.name === "string" ? options.name : defaultName,
      );
      const tool = {
        name,
        async handler(args, ctx) {
          await init();
          return build().handler(args, ctx);
        },
      };
      return Object.defineProperty(tool, PENDING, { value: build });
    };
  }

  /** A page tool whose `form` or `root` is a React or Vue ref: defined without it, and each
   * call made with the element the ref holds then (an empty ref answers `is_error`). */
  function withRefs(exportName, options, refs) {
    const call = async (args, ctx) => {
      await init();
      const now = readOrRefuse(exportName, () => resolveRefs(options, refs));
      if (now.empty) return { isError: true, text: `The ${now.empty} this tool works on is not on the page now.` };
      return glue[exportName](now.options).handler(args, ctx);
    };
    const build = () => ({ ...glue[exportName](readOrRefuse(exportName, () => withoutRefs(options, refs))), handler: call });
    const name = readOrRefuse(exportName, () => (typeof options.name === "string" ? options.name : FACTORIES[exportName]));
    return Object.defineProperty({ name, handler: call }, PENDING, { value: build });
  }

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

  return { init, Client, exposeToWebMCP, ...factories, ...classes };
}
