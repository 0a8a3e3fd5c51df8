// Each marked line must fail to compile (an unused @ts-expect-error fails the build).
import { z } from "zod";
import { defineTool } from "client-tools/react";

defineTool({
  name: "signup",
  parameters: z.object({ email: z.string() }),
  handler(args) {
    // @ts-expect-error: no such property in the zod schema
    return args.emial;
  },
});

defineTool({
  name: "open_row",
  parameters: { type: "object", properties: { row: { type: "integer" } }, required: ["row"] } as const,
  handler(args) {
    // @ts-expect-error: row is a number, not a string
    const row: string = args.row;
    return row;
  },
});

defineTool({
  name: "open_row",
  parameters: { type: "object", properties: { row: { type: "integer" } } } as const,
  handler(args) {
    // @ts-expect-error: row is optional (not in required), so possibly undefined
    const row: number = args.row;
    return String(row);
  },
});
