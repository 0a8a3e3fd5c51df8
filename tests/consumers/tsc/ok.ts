// The whole public API, as an app in strict TypeScript uses it, with interface-typed arguments.
// Compiled with tsc --strict and without skipLibCheck (check.mjs): the package's declarations
// must hold up under every lib and resolution setting here.
import init, {
  Client,
  clickTool,
  describeFormTool,
  highlightTool,
  readPageTool,
  readTableTool,
  fillFormTool,
  navigateTool,
  submitFormTool,
  type CallEvent,
  type ClientOptions,
  type ClientState,
  type ClientStatus,
  type FormToolOptions,
  type HandlerReturn,
  type InitOptions,
  type Json,
  type JsonObject,
  type JsonSchema,
  type Lifetime,
  type ClickToolOptions,
  type HighlightToolOptions,
  type NavigateToolOptions,
  type PageAction,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
  type WhenHidden,
} from "client-tools";
import wasmUrl from "client-tools/client_tools_bg.wasm";

interface RowArgs {
  row_id: string;
  note?: string;
  tags: string[];
}

const schema: JsonSchema = { type: "object", properties: { row_id: { type: "string" } }, required: ["row_id"] };

const highlight: ToolDefinition<RowArgs> = {
  name: "highlight_row",
  description: "Highlight a row.",
  parameters: schema,
  timeoutMs: 5000,
  maxCallsPerRun: 3,
  handler: async ({ row_id, note, tags }, ctx: ToolContext) => {
    const deadline: Date = ctx.deadline;
    const signal: AbortSignal = ctx.signal;
    ctx.afterResult(() => console.log(ctx.callId, ctx.runId));
    return `Row ${row_id} (${note ?? ""}, ${tags.join()}) until ${deadline.toISOString()} ${signal.aborted}`;
  },
};

const refused: ToolDefinition = {
  name: "refused",
  handler: (): ToolResult => ({ isError: true, text: "no such row" }),
};
const asJson: ToolDefinition<{ n: number }> = { name: "as_json", handler: ({ n }) => ({ rows: [n, 2], ok: true, next: null }) };
const nothing: ToolDefinition = { name: "nothing", handler: () => {} };
const aResult: HandlerReturn = { isError: false, text: "fine" };
const args: JsonObject = { a: [1, "two", { three: null }] as Json[] };

export async function whole(sessionId: string, token: string, form: HTMLFormElement): Promise<void> {
  const loading: InitOptions = { module_or_path: wasmUrl };
  await init(loading);
  const lifetime: Lifetime = { type: "ttl", data: { seconds: 60 } };
  const whenHidden: WhenHidden = "pause";
  const abort = new AbortController();
  const statuses: ClientStatus[] = [];
  const options: ClientOptions = {
    baseUrl: "http://127.0.0.1:8787",
    sessionId,
    token,
    name: "web",
    lifetime,
    whenHidden,
    tools: [highlight, refused, asJson, nothing],
    registerTimeoutMs: 10000,
    onStatus: (status) => {
      statuses.push(status);
      if (status.type === "registered") console.log(status.id, status.name, status.expiresAt);
    },
    onCall: (event: CallEvent) => {
      if (event.type === "answered") console.log(event.isError, event.elapsedMs);
    },
    signal: abort.signal,
  };
  const client = await Client.register(options);
  const id: string = client.id;
  const name: string = client.name;
  const expiresAt: Date | null = client.expiresAt;
  const state: ClientState = client.state;
  console.log(id.startsWith("cli_"), name.length, expiresAt?.getTime(), state === "registered", aResult, args);

  const formOptions: FormToolOptions = { form, root: document.body, allowSensitive: false, allowFiles: false, allowHidden: false, allowOrigins: ["https://pay.example"] };
  const highlightOptions: HighlightToolOptions = { highlight: (el: Element | null) => { el?.classList.toggle("selected"); } };
  const clickOptions: ClickToolOptions = { clickable: ["td button"], confirm: (a: PageAction) => a.kind === "click" && a.element instanceof Element };
  const navigateOptions: NavigateToolOptions = { router: async (path: string) => console.log(path), allowOrigins: [], mode: "history" };
  await client.setTools([
    highlight,
    describeFormTool(formOptions),
    fillFormTool({ form: "#order-form", timeoutMs: 10000, maxCallsPerRun: 5 }),
    submitFormTool({ form, confirm: (action: PageAction) => action.kind === "submit" && window.confirm(action.summary) }),
    navigateTool(navigateOptions),
    navigateTool(),
    readPageTool({ root: document.body }),
    readTableTool(),
    highlightTool(highlightOptions),
    clickTool(clickOptions),
  ]);
  await client.leave();
  await client.leave();
  await Client.register({ baseUrl: "http://127.0.0.1:8787", sessionId, token, lifetime: { type: "never" } }).then((c) => c.leave());
}
