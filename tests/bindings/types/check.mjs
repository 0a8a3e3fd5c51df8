// tsc --strict (no skipLibCheck) against the bindings' declarations: ok.ts compiles (arguments
// inferred from zod 4 and from an `as const` JSON Schema), and each deliberate mistake in
// mistakes.ts is a compile error (an unused @ts-expect-error fails; so does the file with the
// directives taken out, on exactly the marked lines).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main, run } from "../../consumers/helpers.mjs";
import { SUITE, options } from "../suite.mjs";

const { work } = options();
const tsc = (config) => run(process.execPath, [join(SUITE, "node_modules", "typescript", "bin", "tsc"), "--pretty", "false", "-p", config], { cwd: work });
await main(async (checks) => {
  await checks.check("types: ok.ts compiles under --strict (zod and as-const inference)", () => tsc("tsconfig.json").then(() => undefined));
  await checks.check("types: each deliberate mistake is a compile error", async () => {
    await tsc("tsconfig.mistakes.json");
    const source = await readFile(join(work, "mistakes.ts"), "utf8");
    const marked = source.split("\n").flatMap((line, i) => (/^\s*\/\/ @ts-expect-error/.test(line) ? [i + 2] : []));
    await writeFile(join(work, "bare.ts"), source.replace(/\/\/ @ts-expect-error.*$/gm, "//"));
    await writeFile(join(work, "tsconfig.bare.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["bare.ts"] }));
    const output = await tsc("tsconfig.bare.json").then(() => "", (error) => error.output ?? error.message);
    const lines = [...output.matchAll(/^bare\.ts\((\d+),\d+\): error/gm)].map((m) => Number(m[1]));
    const missed = marked.filter((l) => !lines.includes(l));
    const stray = lines.filter((l) => !marked.includes(l));
    if (missed.length || stray.length) throw new Error(`no error on lines ${missed}; unexpected errors on lines ${stray}\n${output}`);
    return `${marked.length} mistakes`;
  });
});
