// The Vue binding rendered on the server (what Nuxt does, or Vue's own `renderToString`): a
// component tree with provideClientTools, useClientTools and useTools renders its HTML with the
// client "registering", and nothing registers from the server (setup runs there; onMounted and
// onScopeDispose do not). The module is loaded in Node first (init with the .wasm's bytes), so
// that a register from the server would reach the devserver; a control client registered
// directly afterwards shows that one does.
import { readFile } from "node:fs/promises";
import { createSSRApp, defineComponent, h } from "vue";
import { renderToString } from "vue/server-renderer";
import { provideClientTools, useClientTools, useTools } from "client-tools/vue";
import { agent, startDevserver } from "../../consumers/helpers.mjs";

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
/** The same module instance client-tools/vue imports (its browser entry, not the "node" one). */
const entry = new URL("./client_tools.js", import.meta.resolve("client-tools/vue"));

export async function checkServerRender(checks, { devserver }) {
  const session = "vue-ssr";
  const token = "vue-ssr-token";
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", `${session}:${token}`]);
  try {
    const { init, Client } = await import(entry.href);
    await init({ module_or_path: await readFile(new URL("./client_tools_bg.wasm", entry)) });
    const options = { baseUrl: server.url, sessionId: session, token };
    const Status = defineComponent({
      setup() {
        const { client, state } = useClientTools();
        return () => h("p", { id: "status", "data-state": state.value, "data-client": String(client.value) }, state.value);
      },
    });
    const Tools = defineComponent({
      setup() {
        useTools(() => [{ name: "ssr_tool", description: "A tool of a server-rendered page.", handler: () => "ssr" }]);
        return () => h("p", { id: "route" }, "ssr");
      },
    });
    const App = defineComponent({
      setup() {
        provideClientTools({ ...options, name: "vue-ssr" });
        return () => h("main", [h(Status), h(Tools)]);
      },
    });
    await checks.check("vue: renderToString renders the tree with the client registering, and nothing registers from the server (two requests)", async () => {
      const pages = [await renderToString(createSSRApp(App)), await renderToString(createSSRApp(App))];
      const want = '<main><p id="status" data-state="registering" data-client="null">registering</p><p id="route">ssr</p></main>';
      for (const html of pages) if (html !== want) throw new Error(`the HTML: ${html}`);
      // A control: a client registered from this process the same way reaches the devserver.
      const control = await Client.register({ ...options, name: "vue-ssr-control" });
      await sleep(1000);
      await control.leave();
      const { events } = await agent(server.url, session, token, "GET", "/events?after=0&limit=1000");
      const names = events.filter((e) => e.type === "client_registered").map((e) => e.data?.name);
      if (names.join() !== "vue-ssr-control") throw new Error(`the devserver saw these clients register: ${names.join(", ")} (only the control should)`);
    });
  } finally {
    await server.stop();
  }
}
