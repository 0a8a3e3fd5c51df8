// Tool definitions on their way to the module, in JS because each is made or read before the
// module may be loaded, or holds what only JS has:
// - the page-tool factories, usable before the module loaded (the definition is completed, and
//   its options checked, when Client.register or setTools takes it, once the module is there);
// - page tools whose `form` or `root` is a React or Vue ref, read per call (refs.js);
// - a Standard Schema (zod, valibot) converted to JSON Schema (standard.js).

import { fromStandardSchema } from "./standard.js";
import { refKeys, resolveRefs, withoutRefs } from "./refs.js";
import { coded, messageOf, readOrRefuse } from "./errors.js";
import { unsupported } from "./api.js";

/** Marks a page tool made before the module loaded: register/setTools complete it. */
const PENDING = Symbol("client-tools pending page tool");

/** The page-tool factories the full build's glue exports, with each tool's default name (the
 * lite build, `client-tools/lite`, has none). */
export const FACTORIES = {
  describeFormTool: "describe_form",
  fillFormTool: "fill_form",
  submitFormTool: "submit_form",
  navigateTool: "navigate",
};

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

export function completeAll(tools, field) {
  return Array.isArray(tools) ? tools.map((tool, i) => complete(tool, `${field}[${i}]`)) : tools;
}

/** The page-tool factories over `glue` (none in the lite build): `init()` loads the module,
 * `isLoaded()` says whether it is. */
export function pageTools(glue, init, isLoaded) {
  const factories = {};
  for (const [exportName, defaultName] of Object.entries(FACTORIES)) {
    if (!(exportName in glue)) continue; // the lite build
    factories[exportName] = (options) => {
      // Below the browser floor a factory throws what register would reject with.
      const missing = unsupported();
      if (missing) throw missing;
      const refs = readOrRefuse(exportName, () => refKeys(options));
      if (refs.length > 0) return withRefs(exportName, options, refs);
      if (isLoaded()) return glue[exportName](options);
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

  return factories;
}
