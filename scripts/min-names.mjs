// Part of scripts/build-pkg: gives the names that link the wasm module to its JS glue short
// names, in both files, the way a JS minifier shortens names it owns.
//
//   node scripts/min-names.mjs GLUE.js MODULE.wasm
//
// wasm-bindgen names each import after the JS operation and a 16-digit hash
// (`__wbg_instanceof_Window_8b968c3ab8e96595`), each closure shim after its Rust type
// (`wasm_bindgen_…___convert__closures_____invoke___web_sys_…_MessageEvent…`), and the import
// module after the glue's file (`./client_tools_bg.js`). Those names are written twice, in the
// module's import and export sections and in the glue, where a bundler's minifier cannot shorten
// them (they are property keys), and the hashes do not compress. They are internal: only the
// glue refers to the module's imports and exports (pkg-template/wrap.js and guards.js use the glue's JS
// exports), so both files are rewritten together here and checked to still fit: every import of
// the module is a key of the glue's import object, every export the glue uses exists.
// The glue's imports of the SDK's own JS (src/snippets.js) are rewritten too: by name instead of
// wasm-bindgen's `import * as`, so that an app's bundler drops what a build does not call.
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

const [gluePath, wasmPath] = process.argv.slice(2);
if (!gluePath || !wasmPath) {
  console.error("min-names: usage: node scripts/min-names.mjs GLUE.js MODULE.wasm");
  process.exit(2);
}
const fail = (message) => {
  console.error(`min-names: ${message}`);
  process.exit(1);
};

const bytes = new Uint8Array(await readFile(wasmPath));
let glue = await readFile(gluePath, "utf8");

// --- the module: LEB128 numbers and names, sections copied as they are but for 2 and 7 ---
function reader(buf, pos = 0) {
  return {
    get pos() { return pos; },
    u32() {
      let result = 0, shift = 0, byte;
      do {
        byte = buf[pos++];
        result |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      return result >>> 0;
    },
    byte() { return buf[pos++]; },
    bytes(n) { const out = buf.subarray(pos, pos + n); pos += n; return out; },
    name() { return new TextDecoder().decode(this.bytes(this.u32())); },
  };
}
const u32 = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const name = (s) => {
  const b = new TextEncoder().encode(s);
  return [...u32(b.length), ...b];
};

if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) fail(`${wasmPath} is not a wasm module`);
const sections = [];
for (const r = reader(bytes, 8); r.pos < bytes.length;) {
  const id = r.byte();
  const body = r.bytes(r.u32());
  sections.push({ id, body });
}

// Short names: a, b, …, z, A, …, Z, aa, ab, … (never a JS keyword: two letters at most here is
// far from `do`/`if`/`in`, which are skipped anyway).
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const keywords = new Set(["do", "if", "in"]);
function* shortNames() {
  for (const a of alphabet) yield a;
  for (const a of alphabet) for (const b of alphabet) if (!keywords.has(a + b)) yield a + b;
  for (const a of alphabet) for (const b of alphabet) for (const c of alphabet) yield a + b + c;
}

const MODULE = "a";
// The exports the glue uses; any other keeps its name (nothing of ours uses it, but something
// outside might look it up).
const usedByGlue = new Set([...glue.matchAll(/\bwasm\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]));
const importRenames = new Map();
const exportRenames = new Map();
// The snippets' modules (their paths, a 16-digit hash in each): "b", "c", … ("a" is the glue's).
const snippetRenames = new Map();
// The functions the module imports from each snippet's module, by its path.
const snippetFields = new Map();
const snippetNames = (function* () {
  for (const n of shortNames()) if (n !== MODULE) yield n;
})();
for (const section of sections) {
  if (section.id === 2) {
    const r = reader(section.body);
    const count = r.u32();
    const out = [...u32(count)];
    const names = shortNames();
    for (let i = 0; i < count; i++) {
      const module = r.name();
      const field = r.name();
      const start = r.pos;
      const kind = r.byte();
      if (kind === 0) r.u32(); // function: type index
      else if (kind === 1 || kind === 2) { // table: element type, then limits; memory: limits
        if (kind === 1) r.byte();
        const flags = r.byte();
        r.u32();
        if (flags & 1) r.u32();
      } else if (kind === 3) { r.byte(); r.byte(); } // global: value type, mutability
      else fail(`import ${module}.${field} has kind ${kind}, which this script does not know`);
      const desc = section.body.subarray(start, r.pos);
      if (module.startsWith("./snippets/")) {
        // A function of the SDK's own JS file (src/snippets.js), imported straight from it:
        // the module's path gets a short name, the function keeps its own.
        let short = snippetRenames.get(module);
        if (!short) snippetRenames.set(module, (short = snippetNames.next().value));
        if (!snippetFields.has(module)) snippetFields.set(module, new Set());
        snippetFields.get(module).add(field);
        out.push(...name(short), ...name(field), ...desc);
        continue;
      }
      if (module !== "./client_tools_bg.js") fail(`import ${module}.${field}: expected the glue's module "./client_tools_bg.js" or a snippet's`);
      let short = importRenames.get(field);
      if (!short) importRenames.set(field, (short = names.next().value));
      out.push(...name(MODULE), ...name(short), ...desc);
    }
    section.body = Uint8Array.from(out);
  } else if (section.id === 7) {
    const r = reader(section.body);
    const count = r.u32();
    const out = [...u32(count)];
    const names = shortNames();
    for (let i = 0; i < count; i++) {
      const field = r.name();
      const kind = r.byte();
      const index = r.u32();
      // `memory` stays: it is one short name, and tools that inspect a module look for it.
      const short = field === "memory" || !usedByGlue.has(field) ? field : names.next().value;
      if (short !== field) exportRenames.set(field, short);
      out.push(...name(short), kind, ...u32(index));
    }
    section.body = Uint8Array.from(out);
  }
}
if (!importRenames.size) fail(`${wasmPath} has no import section: has wasm-bindgen's output changed?`);

// --- the glue: import-object keys, the module's name, and every `wasm.NAME` ---
for (const [from, to] of importRenames) {
  const key = new RegExp(`(^|[\\s{,])${from}:`, "gm");
  const found = glue.match(key)?.length ?? 0;
  if (found !== 1) fail(`the glue names the import ${from} ${found} times as a key, expected once`);
  glue = glue.replace(key, `$1${to}:`);
}
const moduleKey = /"\.\/client_tools_bg\.js": import0/;
if (!moduleKey.test(glue)) fail(`the glue has no "./client_tools_bg.js": import0: has wasm-bindgen's output changed?`);
glue = glue.replace(moduleKey, `${MODULE}: import0`);
// Each snippet's module as named imports: wasm-bindgen imports it whole, once per extern block
// (`import * as import1 from "./snippets/…/src/snippets.js"`, and `"./snippets/…": import1` in
// the import object), and a namespace import keeps every export of the file in an app's bundle:
// the lite build would ship WebMCP's half of src/snippets.js, which only the full build calls.
// The module imports a few of its functions by name (`frameTest`, `frameFront`): the glue imports
// those by name instead, and the import object's key for the module is the object of them.
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
for (const [from, to] of snippetRenames) {
  const path = escape(from);
  const namespaces = [...glue.matchAll(new RegExp(`^import \\* as (import\\d+) from ["']${path}["'];?\\n`, "gm"))];
  if (!namespaces.length) fail(`the glue has no import * as importN from "${from}": has wasm-bindgen's output changed?`);
  // The names the glue's own code imports from it already (its shims call them).
  const bound = new Set();
  for (const m of glue.matchAll(new RegExp(`^import \\{([^}]*)\\} from ["']${path}["']`, "gm"))) {
    for (const n of m[1].split(",")) bound.add(n.trim());
  }
  const fields = [...snippetFields.get(from)];
  const unbound = fields.filter((f) => !bound.has(f));
  glue = glue.replace(namespaces[0][0], unbound.length ? `import { ${unbound.join(", ")} } from "${from}";\n` : "");
  for (const m of namespaces.slice(1)) glue = glue.replace(m[0], "");
  // The import object: one key for the module (wasm-bindgen writes one per namespace, each the
  // whole module), the object of the functions the module imports.
  let first = true;
  const key = new RegExp(`^(\\s*)"${path}": (import\\d+),\\n`, "gm");
  glue = glue.replace(key, (whole, indent, ns) => {
    if (!namespaces.some((m) => m[1] === ns)) fail(`the glue's import object names ${ns} for "${from}", which it does not import`);
    if (!first) return "";
    first = false;
    return `${indent}${to}: { ${fields.join(", ")} },\n`;
  });
  if (first) fail(`the glue has no "${from}": importN key: has wasm-bindgen's output changed?`);
  for (const [, ns] of namespaces) {
    if (new RegExp(`\\b${ns}\\b`).test(glue)) fail(`the glue still uses ${ns}, the namespace of "${from}", which is now imported by name`);
  }
}
glue = glue.replace(/\bwasm\.([A-Za-z_$][\w$]*)/g, (whole, field) => {
  if (field === "memory") return whole;
  const short = exportRenames.get(field);
  if (!short) fail(`the glue uses wasm.${field}, which the module does not export`);
  return `wasm.${short}`;
});
const stray = [...importRenames.keys(), ...exportRenames.keys()].filter((n) => /_[0-9a-f]{16}/.test(n) && new RegExp(`["'.]${n}\\b`).test(glue));
if (stray.length) fail(`the glue still refers to ${stray.slice(0, 3).join(", ")} by name`);

const parts = [bytes.subarray(0, 8)];
for (const { id, body } of sections) parts.push(Uint8Array.from([id, ...u32(body.length)]), body);
await writeFile(wasmPath, Buffer.concat(parts));
await writeFile(gluePath, glue);
// The proof that they still fit: the glue instantiates the module (every import it asks for is
// given) and starts it.
try {
  const rewritten = await import(pathToFileURL(gluePath).href);
  rewritten.initSync({ module: await readFile(wasmPath) });
} catch (error) {
  fail(`the rewritten glue cannot instantiate the rewritten module: ${error?.message ?? error}`);
}
console.error(`min-names: ${importRenames.size} imports, ${exportRenames.size} exports and ${snippetRenames.size} snippet modules renamed`);
