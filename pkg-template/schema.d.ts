// The types of tools whose arguments TypeScript infers from their `parameters`: a Standard
// Schema (zod >= 4.2, ArkType, Valibot) or a JSON Schema written `as const`. Used by
// client-tools/react and client-tools/vue (`defineTool`).
import type { HandlerReturn, Json, ToolContext, ToolDefinition } from "./client_tools.js";

/** A Standard Schema (https://standardschema.dev) as far as the SDK reads it. */
export interface StandardSchemaLike<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;

/** The type a JSON Schema (as const) describes, for the keywords the SDK checks. */
export type FromJsonSchema<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly type: "string" }
      ? string
      : S extends { readonly type: "number" | "integer" }
        ? number
        : S extends { readonly type: "boolean" }
          ? boolean
          : S extends { readonly type: "null" }
            ? null
            : S extends { readonly type: "array"; readonly items: infer I }
              ? FromJsonSchema<I>[]
              : S extends { readonly type: "object"; readonly properties: infer P }
                ? Simplify<
                    { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromJsonSchema<P[K]> } & {
                      -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromJsonSchema<P[K]>;
                    }
                  >
                : Json;

/** A handler's arguments for `parameters`: a Standard Schema's output, a JSON Schema's type. */
export type ArgsOf<P> = P extends StandardSchemaLike<any, infer O> ? O : P extends object ? FromJsonSchema<P> : Record<string, never>;

/** A tool whose handler's arguments are inferred from `parameters`. */
export interface TypedToolDefinition<P> {
  /** 1–64 of `A-Z a-z 0-9 _ -`, unique within the client. */
  name: string;
  /** At most 4,096 characters: what the tool does, for the model. */
  description?: string;
  /** A Standard Schema (converted to JSON Schema once, and its `validate` run after the SDK's
   * checks: the handler gets its output) or a JSON Schema object. */
  parameters: P;
  /** Local deadline of one call in ms (default 30000). */
  timeoutMs?: number;
  /** At most this many calls per run; later calls are answered `is_error`. */
  maxCallsPerRun?: number;
  /** Assert the arguments' `format`s instead of reading them as annotations (default false). */
  assertFormats?: boolean;
  /** WebMCP annotations passed to `registerTool`. */
  annotations?: { [key: string]: Json };
  /** Answers one call, with the arguments as `parameters` says. */
  handler(args: ArgsOf<P>, ctx: ToolContext): HandlerReturn | Promise<HandlerReturn>;
}

/** Returns `tool` as it is, typed: its handler's arguments inferred from `parameters`. */
export declare function defineTool<const P extends StandardSchemaLike | { readonly [key: string]: unknown }>(
  tool: TypedToolDefinition<P>,
): ToolDefinition<any>;
