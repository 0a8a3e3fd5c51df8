// Part of scripts/build-pkg: makes the package's public declarations from wasm-bindgen's and
// checks the package fits together.
//
//   node scripts/pkg-entry.mjs GLUE_DTS PKG_DIR [--lite]
//
// With --lite, PKG_DIR is the lite build's directory (pkg/lite): its glue has no page-tool
// factories and the wrapper is ../wrap.js.
//
// GLUE_DTS is the .d.ts wasm-bindgen wrote: the SDK's types (the src/js_api/*.d.ts files, as
// typescript_custom_section in src/js_api/mod.rs) followed by the glue's own init API (InitInput,
// InitOutput with the raw wasm exports, initSync, __wbg_init). The public client_tools.d.ts is
// the first part only: the wrapper (pkg-template/wrap.js, over api.js's load) replaces the second.
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [glueDts, pkgDir, flag] = process.argv.slice(2);
const lite = flag === "--lite";
if (!glueDts || !pkgDir || (flag !== undefined && !lite)) {
  console.error("pkg-entry: usage: node scripts/pkg-entry.mjs GLUE_DTS PKG_DIR [--lite]");
  process.exit(2);
}
const fail = (message) => {
  console.error(`pkg-entry: ${message}`);
  process.exit(1);
};

const text = await readFile(glueDts, "utf8");
const cut = text.indexOf("export type InitInput");
if (cut < 0) fail(`${glueDts} has no "export type InitInput": has wasm-bindgen's output changed?`);
// wasm-bindgen gives each exported class `free(): void;` then `[Symbol.dispose](): void;`: the
// first is glue plumbing, the second breaks tsc where the lib has no `Symbol.dispose` (ES2022).
// That pair is left out; the Client's own declaration (typed by hand) keeps its dispose.
const lines = text.slice(0, cut).split("\n");
const kept = lines.filter((line, i) => {
  const free = /^\s*free\(\): void;\s*$/;
  if (free.test(line)) return false;
  return !(i > 0 && free.test(lines[i - 1]) && /^\s*\[Symbol\.dispose\]\(\): void;\s*$/.test(line));
});
const dts = `${kept.join("\n").trimEnd()}\n`;

// No `any`, no glue internals: what a user reads and what tsc --strict checks.
// Comments are blanked (keeping line breaks) so that prose may say "any".
const code = dts.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/\/\/.*$/gm, "");
const banned = [/\bany\b/, /\bInitOutput\b/, /\binitSync\b/, /__wbg/, /\bfree\(\)/];
for (const pattern of banned) {
  const line = code.split("\n").findIndex((l) => pattern.test(l));
  if (line >= 0) fail(`client_tools.d.ts line ${line + 1} matches ${pattern}: ${dts.split("\n")[line].trim()}`);
}

// Every runtime export is declared, and the glue exports what the wrapper uses.
const api = await import(pathToFileURL(resolve(pkgDir, lite ? "../wrap.js" : "wrap.js")).href);
const glue = await import(pathToFileURL(resolve(pkgDir, "client_tools_wasm.js")).href);
const wanted = api.glueExports(lite);
const missingInGlue = wanted.filter((name) => !(name in glue));
if (missingInGlue.length) fail(`the glue lacks ${missingInGlue.join(", ")}`);
const unwrapped = Object.keys(glue).filter((name) => !wanted.includes(name));
if (unwrapped.length) fail(`the glue exports ${unwrapped.join(", ")}, which pkg-template/wrap.js does not wrap`);
for (const entry of ["client_tools.js", "node.js"]) {
  const mod = await import(pathToFileURL(resolve(pkgDir, entry)).href);
  for (const name of Object.keys(mod)) {
    const declared = name === "default"
      ? /export default \w+;/.test(dts)
      : new RegExp(`export (declare )?(function|class|const) ${name}\\b|export \\{[^}]*\\b${name}\\b`).test(dts);
    if (!declared) fail(`${entry} exports ${name}, which client_tools.d.ts does not declare`);
  }
}

await writeFile(join(pkgDir, "client_tools.d.ts"), dts);
console.error(`pkg-entry: ${lite ? "lite/" : ""}client_tools.d.ts ${dts.length} B, glue exports checked`);
