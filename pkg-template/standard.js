// Tool parameters given as a Standard Schema (zod >= 4.2, ArkType, Valibot through its
// converter): converted to JSON Schema once per schema object through its Standard JSON Schema
// converter (`~standard.jsonSchema.input`), which the SDK checks the arguments against; then the
// schema's own `~standard.validate` runs, so refinements JSON Schema cannot say are checked too,
// and the handler gets its output (defaults, transforms). JS only: no .wasm.

/** Each schema object's JSON Schema, converted once. */
const converted = new WeakMap();

/** Whether `parameters` is a Standard Schema object (rather than a JSON Schema). */
function isStandard(parameters) {
  return parameters !== null && (typeof parameters === "object" || typeof parameters === "function") && "~standard" in parameters;
}

function jsonSchemaOf(schema, field, coded) {
  if (converted.has(schema)) return converted.get(schema);
  const std = schema["~standard"];
  const input = std?.jsonSchema?.input;
  if (typeof input !== "function") {
    throw coded(
      "invalid_option",
      `${field}.parameters: a Standard Schema (${std?.vendor ?? "unknown vendor"}) with no JSON Schema converter (~standard.jsonSchema): ` +
        "use zod >= 4.2, ArkType, or Valibot's toStandardJsonSchema, or give a JSON Schema object",
    );
  }
  let json;
  try {
    json = input.call(std.jsonSchema, { target: "draft-2020-12" });
  } catch (error) {
    throw coded("invalid_option", `${field}.parameters: the schema's JSON Schema converter failed: ${error?.message ?? String(error)}`);
  }
  if (json !== null && typeof json === "object") {
    // The SDK's subset reads the schema itself; the dialect marker says nothing it checks.
    json = { ...json };
    delete json.$schema;
  }
  converted.set(schema, json);
  return json;
}

/** "email: Invalid email address; tags[1]: …": a Standard Schema's issues with their paths. */
function describeIssues(issues) {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((p) => (p !== null && typeof p === "object" ? p.key : p))
        .reduce((at, key) => (typeof key === "number" ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), "");
      return `${path || "arguments"}: ${issue.message}`;
    })
    .join("; ");
}

/**
 * `tool` with Standard Schema parameters as a tool the SDK takes: its JSON Schema, and a handler
 * that validates with the schema first (issues are answered `is_error` naming their paths, and
 * the handler does not run). Any other tool as it is.
 */
export function fromStandardSchema(tool, field, coded) {
  if (tool === null || typeof tool !== "object" || !isStandard(tool.parameters)) return tool;
  const schema = tool.parameters;
  const parameters = jsonSchemaOf(schema, field, coded);
  const handler = tool.handler;
  return {
    ...tool,
    parameters,
    // The schema given, for client-tools/adapters' validator (it checks arguments as this does).
    [Symbol.for("client-tools.schema")]: schema,
    async handler(args, ctx) {
      const std = schema["~standard"];
      const checked = typeof std.validate === "function" ? await std.validate(args) : { value: args };
      if (checked.issues) return { isError: true, text: `invalid arguments: ${describeIssues(checked.issues)}` };
      return handler.call(tool, checked.value, ctx);
    },
  };
}
