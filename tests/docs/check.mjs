// The README's and docs/' code blocks and links, checked.
//
//   node tests/docs/check.mjs [--links-only]
//
// Every ```js / ```ts block (and jsx / tsx) in README.md and docs/**/*.md is written to
// .work/ as a module of its own and type-checked with `tsc --strict` against the package
// installed in node_modules/client-tools (tests/docs/run.sh installs pkg/'s tarball there).
// A block that is a fragment (it uses names the text around it defines) says so: a line
// `<!-- fragment -->` right before it, or `fragment` in its info string (```js fragment). It is
// skipped and named. Rust blocks are compiled by the crates' doctests (scripts/test), not here.
//
// Links: every relative link in README.md, docs/**/*.md, pkg-template/README.md and
// devserver/README.md must point at a file that exists, and its #anchor at a heading there
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

// Fenced blocks: { file, line (of the fence), lang, info, body, fragment }.
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
    const info = `${m[3]} ${m[4]}`.trim();
    out.push({
      file, line: start + 1, lang: m[3].split(",")[0].toLowerCase(), info,
      body: lines.slice(start + 1, j).join("\n"),
      fragment: /\bfragment\b/.test(info) || (k >= 0 && lines[k].trim() === "<!-- fragment -->"),
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
  const skipped = js.filter((b) => b.fragment);
  const checked = js.filter((b) => !b.fragment);
  const work = join(here, ".work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const origin = new Map();
  checked.forEach((b, n) => {
    const ext = { javascript: "js", typescript: "ts", mjs: "js" }[b.lang] ?? b.lang;
    const name = `${relative(root, b.file).replace(/[/.]/g, "_")}_L${b.line}.${ext}`;
    // `export {}` makes each block a module of its own (top-level await, no shared names).
    writeFileSync(join(work, name), `${b.body}\nexport {};\n`);
    origin.set(name, b);
  });
  writeFileSync(join(work, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, allowJs: true, checkJs: true, jsx: "react-jsx",
      target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM", "DOM.Iterable", "ESNext.Disposable"], types: ["node"],
      typeRoots: [join(here, "node_modules/@types")],
    },
    include: ["./*.ts", "./*.js", "./*.tsx", "./*.jsx"],
  }, null, 2));
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
  let out = "";
  try {
    execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", work], { encoding: "utf8", stdio: "pipe" });
  } catch (e) { out = `${e.stdout}${e.stderr}`; }
  const bad = new Map();
  for (const l of out.split("\n")) {
    const m = /^([^(]+)\((\d+),(\d+)\): (error .*)$/.exec(l);
    if (!m) { if (l.trim()) bad.set(`tsc: ${l}`, [l]); continue; }
    const b = origin.get(m[1].replace(/^.*[\\/]/, ""));
    const key = b ? `${relative(root, b.file)}:${b.line + Number(m[2])}` : m[1];
    bad.set(key, [...(bad.get(key) ?? []), m[4]]);
  }
  for (const b of checked) {
    const mine = [...bad.keys()].filter((k) => k.startsWith(`${relative(root, b.file)}:`)
      && Number(k.split(":").pop()) > b.line && Number(k.split(":").pop()) <= b.line + b.body.split("\n").length);
    if (mine.length) for (const k of mine) fail(`${k}: ${bad.get(k).join("; ")}`);
    else passed++;
  }
  for (const [k, v] of bad) if (k.startsWith("tsc:")) fail(v.join(" "));
  console.log(`code blocks: ${checked.length} type-checked with tsc --strict, ${skipped.length} fragments skipped:`);
  for (const b of skipped) console.log(`  skipped ${relative(root, b.file)}:${b.line} (${b.lang})`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
