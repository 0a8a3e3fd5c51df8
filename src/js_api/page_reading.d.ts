// The page tools beyond forms (cargo feature page-reading): declared where the module has them
// (the Rust browser tests' and a Rust app's builds), not in the npm package yet.

/** Where a reading tool sees: an element (or a framework ref to one), a CSS selector (the
 *  app's own: checked when the tool is made, run on the document at each call, every element it
 *  matches being a root), or a list of elements and selectors (the app's main element and the
 *  portal its modals render in). Read in document order; refs are handed out and taken only
 *  inside them. Default: `document.body`. */
export type PageRoot = Element | ElementRef<Element> | string | (Element | string)[];

/** Options of the read_page tool. */
export interface ReadPageToolOptions extends PageToolOptions {
  /** Where the tool may see (default: `document.body`): see {@link PageRoot}. */
  root?: PageRoot;
}

/** Options of the read_table tool. */
export interface ReadTableToolOptions extends PageToolOptions {
  /** Where the tool may see (default: `document.body`): see {@link PageRoot}. */
  root?: PageRoot;
}

/** Options of the highlight tool. */
export interface HighlightToolOptions extends PageToolOptions {
  /** Where the tool may see (default: `document.body`): see {@link PageRoot}. Refs of elements
   *  outside it are refused. */
  root?: PageRoot;
  /** Marks the element the app's way (a "selected" style) instead of the SDK's outline; called
   *  with `null` when the model clears the highlight. The SDK's outline takes its colour from
   *  the CSS property `--client-tools-highlight`. */
  highlight?: (element: Element | null) => void | Promise<void>;
}

/** Options of the click tool. */
export interface ClickToolOptions extends PageToolOptions {
  /** Where the tool may see (default: `document.body`): see {@link PageRoot}. */
  root?: PageRoot;
  /** CSS selectors (the app's own): only elements matching one may be pressed. */
  clickable?: string[];
  /** Asked before each press (a submit button's as submit_form asks); `false` (or a throw)
   *  stops it and the agent is told so. */
  confirm?: (action: PageAction) => boolean | Promise<boolean>;
  /** Origins besides the page's own that a link or a form may lead to. */
  allowOrigins?: string[];
  /** CSS selectors of more fields to treat as secrets when a press submits a form. */
  sensitive?: string[];
  /** Tell a submitted form's destination with its path (see `FormToolOptions`). */
  showActionPath?: boolean;
}

/** A tool that reads a table as a person sees it: column headers, sort state and a page of rows
 *  (`from`, `count` <= 100), each with a ref `highlightTool` takes; hidden text, hidden columns,
 *  controls' values and attributes are left out. Throws if an option is malformed. */
export function readTableTool(options?: ReadTableToolOptions): ToolDefinition;
/** A tool that scrolls the element a ref names into view and outlines it until the user's next
 *  input (or calls the app's `highlight` hook); stale refs, refs outside `root` and elements no
 *  one sees are refused. Throws if an option is malformed. */
export function highlightTool(options?: HighlightToolOptions): ToolDefinition;
/** A tool that presses a visible, enabled button, link, tab or menu item by its ref (a row's
 *  `controls` in read_table's answer): a submit button as submit_form does, a link by navigate's
 *  origin rules (a page load after the result), anything else after `confirm`; hidden, covered,
 *  disabled, download and new-window targets are refused. Throws if an option is malformed. */
export function clickTool(options?: ClickToolOptions): ToolDefinition;
/** A tool that reads what a person sees inside `root` as an outline (`- button "Archive" [ref=e7]
 *  [disabled]`): headings, text, links (path only), buttons, fields (`[filled]`/`[empty]`, never
 *  a value), tables summarised; `within` (a ref) reads one subtree, `query` keeps matching lines;
 *  capped at 12,000 characters. Throws if an option is malformed. */
export function readPageTool(options?: ReadPageToolOptions): ToolDefinition;
