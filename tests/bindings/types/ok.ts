// Compiles under --strict: the handler's arguments are inferred from a zod schema and from a
// JSON Schema written `as const`, and the bindings' hooks take the tools.
import { z } from "zod";
import { defineTool, useTools, useToolNavigate } from "client-tools/react";
import { defineTool as defineVueTool, useTools as useVueTools } from "client-tools/vue";

const signup = defineTool({
  name: "signup",
  parameters: z.object({ email: z.string().email(), code: z.string(), n: z.number().default(3) }),
  handler(args) {
    const email: string = args.email;
    const n: number = args.n; // the default makes it a number in the output
    return `${email.toLowerCase()} ${n.toFixed(0)} ${args.code.length}`;
  },
});

const open = defineTool({
  name: "open_row",
  parameters: {
    type: "object",
    properties: { row: { type: "integer" }, mode: { enum: ["view", "edit"] }, tags: { type: "array", items: { type: "string" } } },
    required: ["row"],
  } as const,
  handler(args) {
    const row: number = args.row;
    const mode: "view" | "edit" | undefined = args.mode;
    const tags: string[] | undefined = args.tags;
    return `${row + 1} ${mode ?? "view"} ${tags?.join(",") ?? ""}`;
  },
});

export function Screen() {
  useTools([signup, open, { name: "plain", handler: () => "ok" }]);
  const go = useToolNavigate((path: string) => path);
  const done: Promise<void> = go("/b");
  return done;
}

export function setup() {
  useVueTools(() => [defineVueTool({ name: "v", parameters: z.object({ q: z.string() }), handler: ({ q }) => q.trim() })]);
}
