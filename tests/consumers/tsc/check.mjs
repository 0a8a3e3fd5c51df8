// strict TypeScript without skipLibCheck against the package's declarations: the whole API
// (ok.ts) under lib ES2022 (no esnext.disposable), lib ESNext with `using` (using.ts), and
// NodeNext resolution; the npm README's quick start as pasted; the deliberate mistakes
// (mistakes.ts) each fail to compile; every export and member of client_tools.d.ts is
// documented and none is typed `any`.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { CONSUMERS, bin, main, options, run } from "../harness.mjs";

const { work } = options();
const tsc = (config) => run(bin("tsc"), ["-p", config], { cwd: work });

/** Lines (1-based) of tsc's errors in `file`. */
function errorLines(output, file) {
  return [...output.matchAll(new RegExp(`^${file.replace(".", "\\.")}\\((\\d+),\\d+\\): error`, "gm"))].map((m) => Number(m[1]));
}

await main(async (checks) => {
  for (const [config, what] of [
    ["tsconfig.es2022.json", "lib ES2022 + DOM, no esnext.disposable"],
    ["tsconfig.esnext.json", "lib ESNext + DOM, with using / await using"],
    ["tsconfig.nodenext.json", "module NodeNext"],
  ]) {
    await checks.check(`tsc: --strict, no skipLibCheck, ${what}`, () => tsc(config).then(() => undefined));
  }

  await checks.check("tsc: the npm README's quick start compiles as pasted", async () => {
    const readme = await readFile(join(CONSUMERS, "node_modules", "client-tools", "README.md"), "utf8");
    const block = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!block) throw new Error("no quick start in the README");
    await writeFile(join(work, "quickstart.ts"), block);
    await tsc("tsconfig.quickstart.json");
  });

  const source = await readFile(join(work, "mistakes.ts"), "utf8");
  const marked = source.split("\n").flatMap((line, i) => (/^\s*\/\/ @ts-expect-error/.test(line) ? [i + 2] : []));
  await checks.check(`tsc: each of the ${marked.length} deliberate mistakes is a compile error`, async () => {
    await tsc("tsconfig.mistakes.json"); // an unused @ts-expect-error is an error itself
    // And without the directives, the errors are exactly on the marked lines.
    await writeFile(join(work, "mistakes.ts"), source.replace(/\/\/ @ts-expect-error.*$/gm, "//"));
    const output = await tsc("tsconfig.mistakes.json").then(
      () => "",
      (error) => error.output ?? error.message,
    );
    await writeFile(join(work, "mistakes.ts"), source);
    const lines = errorLines(output, "mistakes.ts");
    const missed = marked.filter((line) => !lines.includes(line));
    const stray = lines.filter((line) => !marked.includes(line));
    if (missed.length || stray.length) throw new Error(`no error on lines ${missed}; unexpected errors on lines ${stray}\n${output}`);
    return `${new Set(lines).size} lines refused`;
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
