/** Options of `exposeToWebMCP`. */
export interface WebMCPOptions {
  /** Aborting it unregisters every tool this call registered (and stops following a client). */
  signal?: AbortSignal;
  /** Put before each tool's name (`"shop_"` makes `shop_highlight_row`). */
  prefix?: string;
}

/** What `exposeToWebMCP` resolves: whether the browser offers WebMCP, and the names registered. */
export interface WebMCPExposure {
  /** Whether the browser offers WebMCP (`document.modelContext` or `navigator.modelContext`). */
  supported: boolean;
  /** The names registered with the browser (with the prefix). */
  registered: string[];
}
