// What this suite's checks share besides the consumer helpers: their command line, this
// suite's tools, and the line that reports PUTs per route change.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

/** tests/bindings/, where this suite's node_modules is. */
export const SUITE = new URL(".", import.meta.url).pathname;

export function bin(name) {
  return join(SUITE, "node_modules", ".bin", name);
}

/** `--work DIR` (the fresh copy of the app) and `--devserver BIN`. */
export function options() {
  const { values } = parseArgs({ options: { work: { type: "string" }, devserver: { type: "string" } } });
  if (!values.work || !values.devserver) {
    console.error("check: --work DIR and --devserver BIN are required");
    process.exit(2);
  }
  return { work: resolve(values.work), devserver: resolve(values.devserver) };
}

/** Prints the PUTs each route change took: `puts` is [[what, n], …]. */
export function report(label, puts) {
  console.log(`${label}: PUTs per route change: ${puts.map(([what, n]) => `${n} (${what})`).join(", ")}`);
}
