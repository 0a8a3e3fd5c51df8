// The app every browser consumer builds (Vite, webpack, esbuild, the import-map page): it uses
// client-tools as the README says, with no init() call, and reports on the page what happened.
// The check (harness.mjs) reads #status and window.__consumer, and calls the tools through the
// devserver's agent routes.
import { Client, describeFormTool } from "client-tools";

const EXPECTED_TYPO = "whenHiden: unknown option; did you mean whenHidden?";

/** Registers as client `name` with the base, session and token from the page's query. */
export async function start(name) {
  const status = document.getElementById("status");
  const query = new URLSearchParams(location.search);
  const report = (window.__consumer = { typo: null, registered: false });
  try {
    const options = {
      baseUrl: query.get("base"),
      sessionId: query.get("session"),
      token: query.get("token"),
      name,
      lifetime: { type: "ttl", data: { seconds: 60 } },
      // Made before the module is loaded: completed when Client.register takes it.
      tools: [
        describeFormTool({ name: "describe_contact", form: "#contact" }),
        {
          name: "add",
          description: "Add two numbers.",
          parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
          handler: async ({ a, b }) => String(a + b),
        },
        {
          name: "fail",
          description: "Always fails, to show how an error reaches the model.",
          handler: () => {
            throw new Error("this tool always fails");
          },
        },
        {
          name: "malformed",
          description: "Returns a result object with a typo'd flag.",
          handler: () => ({ is_error: true, text: "meant as an error" }),
        },
      ],
    };
    // A typo'd option is refused by name, before anything is sent.
    report.typo = await Client.register({ ...options, whenHiden: "pause" }).then(
      () => "registered despite the typo",
      (error) => (error.message === EXPECTED_TYPO ? "refused" : `wrong message: ${error.message}`),
    );
    const client = await Client.register(options);
    report.registered = true;
    report.expiresAt = client.expiresAt instanceof Date;
    status.textContent = `registered as ${client.name}`;
    status.dataset.state = "registered";
  } catch (error) {
    status.textContent = `error: ${error.message}`;
    status.dataset.state = "error";
  }
}
