/** What a page tool hands to `confirm` before it acts; `summary` is one line for a person,
 *  e.g. `submit a form with "Pay" to https://shop.example/pay (POST)`. */
export type PageAction =
  | { kind: "submit"; summary: string; form: HTMLFormElement; submitter: string | null; url: string; method: string }
  | { kind: "navigate"; summary: string; url: string; crossDocument: boolean }
  | { kind: "click"; summary: string; element: Element; url: string };

// The factories return the SDK's own `ToolDefinition` (src/client.rs): their handlers take
// `(args, ctx: ToolContext)` and answer JSON text, or `{ isError: true, text }` when refused.

/** A React ref (`useRef`) or a Vue template ref holding an element: the element is read at
 * each call, and a call while it is empty is answered `is_error`. */
export type ElementRef<E extends Element> = { current: E | null } | { readonly __v_isRef: true; value: E | null };

/** Options every page tool takes. */
export interface PageToolOptions {
  /** The tool's name (1 to 64 of A-Z a-z 0-9 _ -); each factory has a default. */
  name?: string;
  /** What the model reads about the tool; each factory has a default. */
  description?: string;
  /** Passed through to the tool definition. */
  timeoutMs?: number;
  /** Passed through to the tool definition. */
  maxCallsPerRun?: number;
}

/** Options of the form tools (describe, fill, submit). */
export interface FormToolOptions extends PageToolOptions {
  /** The element the tool may see into (default: `document.body`). */
  root?: Element | ElementRef<Element>;
  /** The form to work on: the element, or a selector resolved inside `root` at each call.
   *  Without it, the agent names a form by its ref (id, name or "form N") when `root` holds
   *  several; what the agent sends is compared as text, never run as a selector. */
  form?: HTMLFormElement | string | ElementRef<HTMLFormElement>;
  /** Asked before a submit; `false` (or a throw) stops it and the agent is told so. */
  confirm?: (action: PageAction) => boolean | Promise<boolean>;
  /** CSS selectors of more fields to treat as secrets, like passwords: their values and
   *  validation messages are redacted and filling them needs `allowSensitive`. */
  sensitive?: string[];
  /** Let the agent fill passwords, card data, one-time codes and `sensitive` fields
   *  (default: refused). */
  allowSensitive?: boolean;
  /** Let the agent put text files into file inputs (default: refused). */
  allowFiles?: boolean;
  /** Let the agent set hidden inputs (default: refused). */
  allowHidden?: boolean;
  /** Tell the agent a form's destination with its path (never its query or fragment);
   *  by default it reads only "this page", "this site" or the other origin, since a path
   *  can hold a secret (`/reset-password/RST-…`). */
  showActionPath?: boolean;
  /** Origins besides the page's own that a form may post to, e.g. `["https://pay.example"]`. */
  allowOrigins?: string[];
}

/** Options of the navigate tool. */
export interface NavigateToolOptions extends PageToolOptions {
  /** Origins besides the page's own the agent may open, e.g. `["https://docs.example"]`. */
  allowOrigins?: string[];
  /** The app's router: called with `/path?query#hash` for a same-origin URL. Its promise is
   *  awaited, so tools it declares for the new screen are in place before the result. */
  router?: (path: string) => void | Promise<void>;
  /** Without a router: `"history"` (default) pushes the path and fires `popstate`;
   *  `"document"` loads the page after the result is posted. */
  mode?: "history" | "document";
  /** Asked before navigating; `false` (or a throw) stops it and the agent is told so. */
  confirm?: (action: PageAction) => boolean | Promise<boolean>;
}

/** A tool that describes a form (labels, types, constraints, options, values, validity, submit
 *  buttons), with secrets redacted. Throws if an option is malformed. */
export function describeFormTool(options?: FormToolOptions): ToolDefinition;
/** A tool that fills a form's fields by label, name or id so the app's state follows, and reports
 *  per field what was set, changed or refused. Throws if an option is malformed. */
export function fillFormTool(options?: FormToolOptions): ToolDefinition;
/** A tool that submits a valid form with `requestSubmit` after `confirm`, and reports whether the
 *  app handled it or a page load follows (after the result). Throws if an option is malformed. */
export function submitFormTool(options?: FormToolOptions): ToolDefinition;
/** A tool that opens an app route (router, or History API) or, for allowed sites, loads the page
 *  after the result is posted. Throws if an option is malformed. */
export function navigateTool(options?: NavigateToolOptions): ToolDefinition;
