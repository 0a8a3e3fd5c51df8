// The README's and docs/' code blocks and links, checked.
//
//   node tests/docs/check.mjs [--links-only]
//
// Every ```js / ```ts block (and jsx / tsx) in README.md and docs/**/*.md is written to
// .work/ as a module of its own and type-checked with `tsc --strict` against the package
// installed in node_modules/client-tools (tests/docs/run.sh installs pkg/'s tarball there); a
// ```js block with checkJs, so what its names are inferred to be must fit the package's types.
// Markers, in HTML comments (which GitHub and mdBook do not show), right before a block:
//   <!-- given: client, registry -->  the block uses names the text around it defines: it is
//     checked as if it began with `import { client, registry } from "./given.js"`, their types
//     declared once in given.d.ts. A name given.d.ts does not declare, one the block declares
//     itself, or one it never uses is a failure, so the list says what the block takes.
//   <!-- fragment: why -->  the block cannot be checked here (it imports a vendor SDK this suite
//     does not install): skipped, and listed with its reason. A fragment without a reason fails.
// Rust blocks are compiled by the crates' doctests (scripts/test), not here.
//
// Links: every relative link in README.md, docs/**/*.md, pkg-template/README.md and
// devserver/README.md must point at a file of the repository, and its #anchor at a heading there
// (GitHub's and mdBook's ids: lower case, punctuation dropped, spaces as dashes). Links into
// the generated references (docs' js/ and rust/) are checked against target/docs when built.
// Prints one line per failure and closes with `N passed, M failed`.
import { readFileSync, writeFileSync, mkdirSync, rmSync, existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const linksOnly = process.argv.includes("--links-only");

const walk = (dir) => readdirSync(dir).flatMap((n) => {
  const p = join(dir, n);
  return statSync(p).isDirectory() ? walk(p) : p.endsWith(".md") ? [p] : [];
});
const guides = [join(root, "README.md"), ...walk(join(root, "docs"))];
const linked = [...guides, join(root, "pkg-template/README.md"), join(root, "devserver/README.md")];

// Fenced blocks: { file, line (of the fence), lang, body, marker: { line, given, fragment } }.
function blocks(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(```+|~~~+)\s*([^\s`]*)\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    const fence = m[2], start = i;
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) j++;
    let k = start - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const c = k >= 0 ? /^<!--\s*(given|fragment)\b:?\s*(.*?)\s*-->$/.exec(lines[k].trim()) : null;
    out.push({
      file, line: start + 1, lang: m[3].split(",")[0].toLowerCase(),
      body: lines.slice(start + 1, j).join("\n"),
      marker: c && {
        line: k + 1,
        given: c[1] === "given" ? c[2].split(",").map((n) => n.trim()).filter(Boolean) : null,
        fragment: c[1] === "fragment" ? c[2] : null,
      },
    });
    i = j;
  }
  return out;
}

let passed = 0, failed = 0;
const fail = (msg) => { failed++; console.log(`FAIL ${msg}`); };

// ---- links ----
const slug = (h) => h.trim().toLowerCase()
  .replace(/<[^>]+>/g, "").replace(/`/g, "")
  .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
  .replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
const anchorsOf = new Map();
function anchors(file) {
  if (!anchorsOf.has(file)) {
    const text = readFileSync(file, "utf8").replace(/^(```|~~~)[\s\S]*?^\1.*$/gm, "");
    const seen = new Map(), ids = new Set();
    for (const m of text.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
      const base = slug(m[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      ids.add(n ? `${base}-${n}` : base);
    }
    anchorsOf.set(file, ids);
  }
  return anchorsOf.get(file);
}
const docsOut = join(root, "target/docs");
let links = 0;
for (const file of linked) {
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[\s\S]*?^\1.*$/gm, (b) => b.replace(/[^\n]/g, " "));
  const lines = text.split("\n");
  lines.forEach((l, i) => {
    const line = l.replace(/`[^`]*`/g, "");
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;    // http:, https:, mailto:
      links++;
      const where = `${relative(root, file)}:${i + 1}: ${target}`;
      const [path, anchor] = target.split("#");
      const dest = path ? resolve(dirname(file), path) : file;
      if (path && /\.html$/.test(path) && dirname(file) === join(root, "docs")) {
        // The generated references: checked once scripts/docs has built them.
        if (existsSync(docsOut) && !existsSync(join(docsOut, path))) { fail(`${where}: not in target/docs`); continue; }
        passed++; continue;
      }
      // Outside the repository it resolves only on a machine whose checkout sits beside it.
      if (relative(root, dest).startsWith("..")) { fail(`${where}: outside the repository`); continue; }
      if (!existsSync(dest)) { fail(`${where}: no such file`); continue; }
      if (anchor !== undefined && dest.endsWith(".md") && !anchors(dest).has(anchor)) {
        fail(`${where}: no heading #${anchor} in ${relative(root, dest)}`); continue;
      }
      passed++;
    }
  });
}
console.log(`links: ${links} relative links in ${linked.length} files`);

// ---- code blocks ----
if (!linksOnly) {
  const js = guides.flatMap(blocks).filter((b) => ["js", "ts", "javascript", "typescript", "jsx", "tsx", "mjs"].includes(b.lang));
  const at = (b, line) => `${relative(root, b.file)}:${line}`;
  const skipped = js.filter((b) => typeof b.marker?.fragment === "string");
  for (const b of skipped) if (!b.marker.fragment) fail(`${at(b, b.marker.line)}: a fragment says why it cannot be checked (<!-- fragment: why -->)`);
  for (const b of js) if (b.marker?.given?.length === 0) fail(`${at(b, b.marker.line)}: <!-- given: --> names no name`);
  const checked = js.filter((b) => !skipped.includes(b));
  const work = join(here, ".work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "given.d.ts"), readFileSync(join(here, "given.d.ts")));
  const origin = new Map();
  for (const b of checked) {
    const ext = { javascript: "js", typescript: "ts", mjs: "js" }[b.lang] ?? b.lang;
    const name = `${relative(root, b.file).replace(/[/.]/g, "_")}_L${b.line}.${ext}`;
    const given = b.marker?.given;
    // The given names on the module's first line, the block's own lines after it; `export {}`
    // makes each block a module of its own (top-level await, no shared names).
    const head = given ? `import { ${given.join(", ")} } from "./given.js";\n` : "";
    writeFileSync(join(work, name), `${head}${b.body}\nexport {};\n`);
    origin.set(name, { block: b, offset: given ? 1 : 0 });
  }
  writeFileSync(join(work, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, allowJs: true, checkJs: true, jsx: "react-jsx",
      target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM", "DOM.Iterable", "ESNext.Disposable"], types: ["node"],
      typeRoots: [join(here, "node_modules/@types")],
      // For the `given` line only (below): a given name the block does not use.
      noUnusedLocals: true,
    },
    include: ["./*.ts", "./*.js", "./*.tsx", "./*.jsx"],
  }, null, 2));
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
  let out = "";
  try {
    execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", work], { encoding: "utf8", stdio: "pipe" });
  } catch (e) { out = `${e.stdout}${e.stderr}`; }
  // Errors by block, at the markdown's line: the given line is the marker's.
  const bad = new Map(checked.map((b) => [b, []]));
  for (const l of out.split("\n")) {
    const m = /^([^(]+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(l);
    const o = m && origin.get(m[1].replace(/^.*[\\/]/, ""));
    if (!o) { if (l.trim() && !/^\s/.test(l)) fail(`tsc: ${l}`); continue; }
    const line = Number(m[2]), head = line <= o.offset;
    // A block may declare what it does not use (an example shows the names it returns);
    // only the given line is held to using every name it imports.
    if (!head && ["TS6133", "TS6192", "TS6196", "TS6198"].includes(m[4])) continue;
    bad.get(o.block).push(`${at(o.block, head ? o.block.marker.line : o.block.line + line - o.offset)}: ${m[5]}`);
  }
  for (const [, errors] of bad) {
    if (errors.length) for (const e of errors) fail(e);
    else passed++;
  }
  console.log(`code blocks: ${checked.length} type-checked with tsc --strict (${checked.filter((b) => b.marker?.given).length} with given names), ${skipped.length} fragments skipped:`);
  for (const b of skipped) console.log(`  skipped ${at(b, b.line)} (${b.lang}): ${b.marker.fragment}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
