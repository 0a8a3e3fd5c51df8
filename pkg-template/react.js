// client-tools/react: a provider that registers one client, and hooks that keep its tool list
// in step with what is on screen (each mounted component's tools are a scope of the client:
// bindings.js). React is an optional peer dependency; nothing runs at import.
import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  useTransition,
} from "react";
import { Client } from "./client_tools.js";
import { latestHandlers, newPlace, settleWithin, signatureOf, ToolScopes } from "./bindings.js";
export { defineTool } from "./bindings.js";

const Context = createContext(null);

/** A provider's client and scopes, and what `useClientTools` reads; `own`: the registration
 * the provider made itself (`register`), until `leave`. */
class Store {
  constructor() {
    this.scopes = new ToolScopes((error) => this.set({ error }));
    this.snapshot = { client: null, state: "registering", error: null };
    this.listeners = new Set();
    this.own = null;
    this.subscribe = (listener) => {
      this.listeners.add(listener);
      return () => this.listeners.delete(listener);
    };
    this.get = () => this.snapshot;
  }

  set(change) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  /** Starts registering the provider's own client (`given`: `Client.register`'s options). */
  register(given) {
    const controller = new AbortController();
    const own = (this.own = { controller, client: null, kept: false });
    const mine = () => this.own === own;
    if (this.snapshot.state !== "registering") this.set({ state: "registering", error: null });
    const onStatus = given.onStatus;
    Client.register({
      ...given,
      signal: controller.signal,
      onStatus: (status) => {
        // A registration left behind reports to the app only.
        if (mine()) this.follow(status);
        onStatus?.(status);
      },
    }).then(
      (registered) => {
        if (!mine()) return;
        own.client = registered;
        this.scopes.attach(registered);
        this.set({ client: registered, state: registered.state });
      },
      (error) => {
        if (mine()) this.set({ state: "failed", error });
      },
    );
    return own;
  }

  /** What a status of the own registration changes in the snapshot. */
  follow(status) {
    if (status.type === "registered" || status.type === "reregistered") this.set({ state: "registered" });
    else if (status.type === "lapsed") this.set({ state: "registering" });
    else if (status.type === "error" && status.fatal) this.set({ state: "failed", error: Object.assign(new Error(status.message), { code: status.kind }) });
    else if (status.type === "error") this.set({ error: new Error(status.message) });
  }

  /** Ends the own registration `own` if it is still the store's: aborts it (a registration in
   * flight), detaches the scopes and leaves. */
  leave(own) {
    if (!own || this.own !== own) return;
    this.own = null;
    own.controller.abort();
    this.scopes.detach();
    if (own.client) {
      own.client.leave().catch(() => {});
      this.set({ client: null, state: "left" });
    }
  }
}

function useStore(what) {
  const store = useContext(Context);
  if (!store) throw new Error(`client-tools/react: ${what} needs a <ClientToolsProvider> above it`);
  return store;
}

/**
 * Registers one client for the components below (`options`: `Client.register`'s, read once),
 * or serves `client`, made elsewhere. StrictMode-safe, whenever React re-runs the effects: an
 * unmount tears down a microtask later, and the provider mounted again before then (StrictMode's
 * re-run, which runs the cleanup and the effect in one go) keeps its registration, so one client
 * registers. Unmounting leaves (a `client` given is left to its owner); a `client` given in
 * place of `options` ends the provider's own registration at once.
 */
export function ClientToolsProvider({ options, client, children }) {
  const [store] = useState(() => new Store());
  const optionsRef = useRef(options);
  optionsRef.current = options;
  useLayoutEffect(() => {
    if (client) {
      store.leave(store.own);
      store.scopes.attach(client);
      store.set({ client, state: client.state, error: null });
      return () => store.scopes.detach();
    }
    const own = store.own ?? store.register(optionsRef.current ?? {});
    own.kept = true;
    return () => {
      own.kept = false;
      queueMicrotask(() => own.kept || store.leave(own));
    };
  }, [store, client]);
  return createElement(Context.Provider, { value: store }, children);
}

/** `{ client, state, error }`: the provider's client (`null` until registered), where it
 * stands, and the last error (a registration that failed, a tool list refused). */
export function useClientTools() {
  const store = useStore("useClientTools");
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * Offers `tools` while this component is mounted (and not hidden by `<Activity>`): declared in
 * a layout effect (a new route's tools are in place in the commit that shows it), re-declared
 * only when a name, description, schema or option changes; each handler runs the latest
 * render's closure. A name declared twice is the innermost component's (siblings: the later
 * one's), as the nearest context provider is. A page tool made
 * before the module loaded is compared by identity: make it once (outside the component, or
 * `useMemo`).
 */
export function useTools(tools) {
  const store = useStore("useTools");
  const latest = useRef(tools);
  const entry = useRef(null);
  // Taken in render, which runs parent first (effects run child first): the innermost
  // declaration of a name answers whatever order the effects ran in.
  const [place] = useState(newPlace);
  const signature = signatureOf(tools);
  useLayoutEffect(() => {
    latest.current = tools;
  });
  useLayoutEffect(() => {
    const mine = store.scopes.add(latestHandlers(latest.current, () => latest.current), place);
    mine.signature = signatureOf(latest.current);
    entry.current = mine;
    return () => {
      store.scopes.remove(mine);
      entry.current = null;
    };
  }, [store, place]);
  useLayoutEffect(() => {
    const mine = entry.current;
    if (!mine || mine.signature === signature) return;
    mine.signature = signature;
    store.scopes.update(mine, latestHandlers(latest.current, () => latest.current));
  }, [store, signature]);
}

/**
 * Wraps the app's router function (React Router's `useNavigate()`, Next.js `router.push`) so
 * that awaiting it resolves once the new route has committed and its `useTools` ran: the
 * navigation runs as a transition, which ends when the route is on screen (a lazy route's code
 * and a data loader included). Past `settleTimeoutMs` (2,000) it warns and resolves.
 * `navigateTool({ router: toolNavigate })`, or a handler that awaits it, is answered after
 * the new route's tools are declared.
 */
export function useToolNavigate(navigate, { settleTimeoutMs = 2000 } = {}) {
  const [pending, startTransition] = useTransition();
  const latest = useRef(navigate);
  const waiting = useRef([]);
  useLayoutEffect(() => {
    latest.current = navigate;
  });
  useLayoutEffect(() => {
    if (pending || waiting.current.length === 0) return;
    const done = waiting.current;
    waiting.current = [];
    for (const resolve of done) resolve();
  }, [pending]);
  return useCallback(
    (...args) => {
      const committed = new Promise((resolve, reject) => {
        startTransition(async () => {
          try {
            await latest.current(...args);
            waiting.current.push(resolve);
          } catch (error) {
            reject(error);
          }
        });
      });
      return settleWithin(committed, settleTimeoutMs, `the navigation to ${String(args[0])}`);
    },
    [settleTimeoutMs],
  );
}
