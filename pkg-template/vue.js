// client-tools/vue: provide one client to a component tree, and composables that keep its tool
// list in step with what is on screen (each component's tools are a scope of the client:
// bindings.js). Vue is an optional peer dependency; nothing runs at import.
import { getCurrentInstance, inject, nextTick, onActivated, onDeactivated, onMounted, onScopeDispose, provide, shallowRef, watch } from "vue";
import { Client } from "./client_tools.js";
import { latestHandlers, newPlace, settleWithin, signatureOf, ToolScopes } from "./bindings.js";
export { defineTool } from "./bindings.js";

const KEY = Symbol("client-tools");
/** The context a component provided, for its own composables (`inject` sees only the parents'). */
const own = new WeakMap();

/**
 * Registers one client for this component's tree (`options`: `Client.register`'s), or serves
 * `{ client }` made elsewhere; call it in `setup`. A component registers once it is mounted
 * (`onMounted`: in the browser only, so a page rendered on the server registers nothing there;
 * `state` is "registering" until then); outside a component, at once. The client leaves when
 * the component's scope is disposed (a client given is left to its owner). Returns what
 * `useClientTools` does.
 */
export function provideClientTools(options) {
  const client = shallowRef(null);
  const state = shallowRef("registering");
  const error = shallowRef(null);
  const scopes = new ToolScopes((e) => (error.value = e));
  const context = { client, state, error, scopes };
  provide(KEY, context);
  const instance = getCurrentInstance();
  if (instance) own.set(instance, context);
  if (options && options.client) {
    scopes.attach(options.client);
    client.value = options.client;
    state.value = options.client.state;
    onScopeDispose(() => scopes.detach());
    return context;
  }
  const controller = new AbortController();
  let mine = null;
  const onStatus = options?.onStatus;
  const register = () => {
    if (controller.signal.aborted) return;
    Client.register({
      ...options,
      signal: controller.signal,
      onStatus(status) {
        if (status.type === "registered" || status.type === "reregistered") state.value = "registered";
        else if (status.type === "lapsed") state.value = "registering";
        else if (status.type === "error" && status.fatal) {
          state.value = "failed";
          error.value = Object.assign(new Error(status.message), { code: status.kind });
        } else if (status.type === "error") error.value = new Error(status.message);
        onStatus?.(status);
      },
    }).then(
      (registered) => {
        if (controller.signal.aborted) return;
        mine = registered;
        scopes.attach(registered);
        client.value = registered;
        state.value = registered.state;
      },
      (e) => {
        if (controller.signal.aborted) return;
        state.value = "failed";
        error.value = e;
      },
    );
  };
  // setup runs on the server too (renderToString, Nuxt); onMounted only in the browser.
  if (instance) onMounted(register);
  else register();
  onScopeDispose(() => {
    controller.abort();
    scopes.detach();
    mine?.leave().catch(() => {});
    client.value = null;
    state.value = "left";
  });
  return context;
}

function useContext(what) {
  const instance = getCurrentInstance();
  const context = (instance && own.get(instance)) ?? inject(KEY, null);
  if (!context) throw new Error(`client-tools/vue: ${what} needs provideClientTools() in a component above`);
  return context;
}

/** `{ client, state, error }` as refs: the client (`null` until registered), where it stands,
 * and the last error (a registration that failed, a tool list refused). */
export function useClientTools() {
  const { client, state, error } = useContext("useClientTools");
  return { client, state, error };
}

/**
 * Offers the tools `getter()` gives while the calling component (or effect scope) lives:
 * declared at once in `setup`, re-declared when a reactive dependency changes a name,
 * description, schema or option (not when only a handler's closure does: handlers always run
 * the newest definition), released when the scope is disposed, and while `<KeepAlive>` keeps
 * the component cached (deactivated), offered again when it is activated. A name declared
 * twice is the innermost component's (siblings: the later one's).
 */
export function useTools(getter) {
  const { scopes } = useContext("useTools");
  const read = typeof getter === "function" ? getter : () => getter;
  let latest = read();
  const entry = scopes.add(latestHandlers(latest, () => latest), newPlace());
  if (getCurrentInstance()) {
    // Also called for a component inside a cached one; activated also at the first mount.
    onDeactivated(() => scopes.remove(entry));
    onActivated(() => scopes.restore(entry));
  }
  let signature = signatureOf(latest);
  watch(
    read,
    (tools) => {
      latest = tools;
      const now = signatureOf(tools);
      if (now === signature) return;
      signature = now;
      scopes.update(entry, latestHandlers(tools, () => latest));
    },
    { flush: "sync" },
  );
  onScopeDispose(() => scopes.remove(entry));
}

/**
 * Wraps vue-router's `router.push` (or any function that returns once the navigation is
 * confirmed) so that awaiting it resolves once the new route is rendered and its `useTools`
 * ran (lazy route components and guards are part of the navigation). Past `settleTimeoutMs`
 * (2,000) it warns and resolves.
 */
export function useToolNavigate(router, { settleTimeoutMs = 2000 } = {}) {
  const push = typeof router === "function" ? router : (to) => router.push(to);
  return (to) => {
    // A navigation failure (a guard that said no, the same route) is no error here: the
    // screen is what it is, and its tools are declared.
    const rendered = Promise.resolve(push(to)).then(() => nextTick());
    return settleWithin(rendered, settleTimeoutMs, `the navigation to ${String(to)}`);
  };
}
