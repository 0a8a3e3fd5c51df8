import { nextCheck } from "./next-check.mjs";

await nextCheck("dev");
