// Strict TypeScript (5.9, and 7: npm's latest) without skipLibCheck against the package's
// declarations: the whole API (ok.ts) under lib ES2022 (no esnext.disposable), lib ESNext with
// `using` (using.ts), and NodeNext resolution; the deliberate mistakes (mistakes.ts) each fail to
// compile (importing a page tool from client-tools/lite among them); lite.ts compiles against
// the lite build's declarations; the npm README's quick start compiles as pasted; every export and member of
// client_tools.d.ts is documented and none is typed `any`.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { CONSUMERS, main, options, run } from "../harness.mjs";

const { work } = options();
/** TypeScript 5.9 (the JS compiler) and 7 (the native port, npm's latest), by path: both name their command tsc. */
const COMPILERS = { "5.9": "typescript", 7: "typescript-7" };
const compile = (version, config) =>
  run(process.execPath, [join(CONSUMERS, "node_modules", COMPILERS[version], "bin", "tsc"), "--pretty", "false", "-p", config], { cwd: work });

/** Lines (1-based) of tsc's errors in `file`. */
function errorLines(output, file) {
  const escaped = file.replace(/[.]/g, "\\.");
  return [...output.matchAll(new RegExp(`^${escaped}\\((\\d+),\\d+\\): error`, "gm"))].map((m) => Number(m[1]));
}

async function mistakes(checks, version) {
  const source = await readFile(join(work, "mistakes.ts"), "utf8");
  const marked = source.split("\n").flatMap((line, i) => (/^\s*\/\/ @ts-expect-error/.test(line) ? [i + 2] : []));
  await checks.check(`tsc ${version}: each of the ${marked.length} deliberate mistakes is a compile error`, async () => {
    await compile(version, "tsconfig.mistakes.json"); // an unused @ts-expect-error is an error itself
    // And without the directives, the errors are exactly on the marked lines.
    const copy = `mistakes-${version}.ts`;
    await writeFile(join(work, copy), source.replace(/\/\/ @ts-expect-error.*$/gm, "//"));
    await writeFile(join(work, `tsconfig.${copy}.json`), JSON.stringify({ extends: "./tsconfig.mistakes.json", files: [copy] }));
    const output = await compile(version, `tsconfig.${copy}.json`).then(
      () => "",
      (error) => error.output ?? error.message,
    );
    const lines = errorLines(output, copy);
    const missed = marked.filter((line) => !lines.includes(line));
    const stray = lines.filter((line) => !marked.includes(line));
    if (missed.length || stray.length) throw new Error(`no error on lines ${missed}; unexpected errors on lines ${stray}\n${output}`);
    return `${new Set(lines).size} lines refused`;
  });
}

await main(async (checks) => {
  for (const version of Object.keys(COMPILERS)) {
    for (const [config, what] of [
      ["tsconfig.es2022.json", "lib ES2022 + DOM, no esnext.disposable"],
      ["tsconfig.esnext.json", "lib ESNext + DOM, with using / await using"],
      ["tsconfig.nodenext.json", "module NodeNext"],
    ]) {
      await checks.check(`tsc ${version}: --strict, no skipLibCheck, ${what}`, () => compile(version, config).then(() => undefined));
    }
    await mistakes(checks, version);
  }

  await checks.check("tsc: the npm README's quick start compiles as pasted", async () => {
    const readme = await readFile(join(CONSUMERS, "node_modules", "client-tools", "README.md"), "utf8");
    const block = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!block) throw new Error("no quick start in the README");
    await writeFile(join(work, "quickstart.ts"), block);
    await compile("7", "tsconfig.quickstart.json");
  });

  await checks.check("tsc: client_tools.d.ts documents every export and member, and has no any", async () => {
    const file = join(CONSUMERS, "node_modules", "client-tools", "client_tools.d.ts");
    const dts = ts.createSourceFile(file, await readFile(file, "utf8"), ts.ScriptTarget.Latest, true);
    const problems = [];
    const where = (node) => `line ${dts.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const documented = (node) => ts.getJSDocCommentsAndTags(node).length > 0;
    const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const named = new Set();
    for (const statement of dts.statements) {
      if (ts.isExportDeclaration(statement)) statement.exportClause?.elements.forEach((e) => named.add(e.name.text));
      if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) named.add(statement.expression.text);
    }
    let count = 0;
    for (const statement of dts.statements) {
      const name = statement.name?.text;
      if (!(exported(statement) || named.has(name))) continue;
      count++;
      if (!documented(statement)) problems.push(`${name} (${where(statement)}) has no doc comment`);
      if (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement)) {
        for (const member of statement.members) {
          const isPrivate = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
          if (!isPrivate && !documented(member)) problems.push(`${name}.${member.name?.getText() ?? "constructor"} (${where(member)}) has no doc comment`);
        }
      }
    }
    const visit = (node) => {
      if (node.kind === ts.SyntaxKind.AnyKeyword) problems.push(`any at ${where(node)}`);
      ts.forEachChild(node, visit);
    };
    visit(dts);
    if (problems.length) throw new Error(problems.join("; "));
    return `${count} exports`;
  });
});
