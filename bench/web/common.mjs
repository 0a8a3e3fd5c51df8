// What the browser benchmarks share (scripts/bench-start, scripts/bench-frames,
// scripts/bench-dispatch): the devserver and Chromium as the tests start them, medians and
// percentiles, and a fixed-width table.
import { chromium } from "playwright-core";
import { CHROMIUM, startDevserver } from "../../tests/demo-check/devserver.mjs";

export { startDevserver };

/** Headless Chromium with the project's flags (tests/demo-check/devserver.mjs). */
export function launch() {
  return chromium.launch({ ...CHROMIUM, headless: true });
}

/** The value below which `p` (0–1) of `values` lie (nearest rank); NaN for none. */
export function percentile(values, p) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Prints rows (arrays of cells) as a table with a header, columns padded to their widest. */
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(all[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of all.slice(1)) console.log(line(r));
}

/** A number of ms with one decimal, or "–" when there is none. */
export function ms(v) {
  return Number.isFinite(v) ? v.toFixed(1) : "–";
}

/** Reads `--name value` options (repeatable ones into arrays) and `--flag`s from argv. */
export function options(argv, spec) {
  const out = {};
  for (const [name, kind] of Object.entries(spec)) out[name] = kind === "list" ? [] : kind === "flag" ? false : undefined;
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, "");
    const kind = spec[name];
    if (!argv[i].startsWith("--") || kind === undefined) throw new Error(`unknown argument ${argv[i]}`);
    if (kind === "flag") {
      out[name] = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (kind === "list") out[name].push(value);
    else out[name] = kind === "number" ? Number(value) : value;
  }
  return out;
}
