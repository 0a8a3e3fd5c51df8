// Page tools that take a React ref (`{ current }`) or a Vue template ref wherever they take an
// element (`form`, `root`): the element is read when a call comes, not when the tool is made
// (a ref is empty during the render that makes it). JS only: no .wasm.

/** The options that take an element. */
const ELEMENT_OPTIONS = ["form", "root"];

function isRef(value) {
  if (value === null || typeof value !== "object") return false;
  if (value.__v_isRef === true) return true; // Vue
  return typeof Element === "function" && !(value instanceof Element) && Object.keys(value).length === 1 && "current" in value; // React
}

/** The option keys of `options` that hold a ref, if any. */
export function refKeys(options) {
  if (options === null || typeof options !== "object") return [];
  return ELEMENT_OPTIONS.filter((key) => isRef(options[key]));
}

/** `options` without its refs (for the definition: name, description, parameters). */
export function withoutRefs(options, keys) {
  const copy = { ...options };
  for (const key of keys) delete copy[key];
  return copy;
}

/** `options` with each ref's element now, or the name of an empty ref. */
export function resolveRefs(options, keys) {
  const copy = { ...options };
  for (const key of keys) {
    const ref = options[key];
    const element = ref.__v_isRef === true ? ref.value : ref.current;
    // An empty ref must not widen the tool to the whole page.
    if (element === null || element === undefined) return { empty: key };
    copy[key] = element;
  }
  return { options: copy };
}
