// The hostile calls: the same table goes to both pages. Each row is `{ tool, args }`; the tool
// names are those page.js registers (client__page__<tool>). Built from the secrets of both
// pages, so that before the fix a selector-oracle row matches on one page and not the other.
import { PAGES } from "./secrets.mjs";

const A = PAGES.a.secrets;
const B = PAGES.b.secrets;
const both = (f) => [f(A), f(B)];

/** What a model might send as `form`: the refs the tools hand out, near misses, refs of forms
 *  outside the root, and CSS selectors that would read secrets one character at a time. */
export const FORM_LOCATORS = [
  "checkout", "login", "search", "newsletter", "reset", "form 1", "form 2", "form 3", "form 4", "form 99",
  "Checkout", "checkout ", "form 0", "form -1", "form 1.0",
  ...both((s) => `vault-${s.vault}`),
  ...both((s) => `vault-form-${s.vault}`),
  ...both((s) => `form:has(input[name=csrf][value^="${s.csrf[0]}"])`),
  ...both((s) => `form:has(input[name=cart][value$="${s.cart.slice(-1)}"])`),
  ...both((s) => `form:has([value^="${s.card.slice(0, 4)}"])`),
  ...both((s) => `form:has(input[type=password][value^="${s.storedPassword[0]}"])`),
  ...both((s) => `:root[data-secret^="${s.html[0]}"] form`),
  ...both((s) => `:root:has(meta[content^="${s.meta[0]}"]) #checkout`),
  ...both((s) => `html:has(#vault-${s.vault}) #checkout`),
  ...both((s) => `main:has(~ #side[data-secret="${s.side}"]) form`),
  ...both((s) => `#top[data-user-token^="${s.userToken[0]}"] ~ main form`),
  ...both((s) => `body:has([data-token^="${s.newsletterToken[0]}"]) form:nth-child(1)`),
  ...both((s) => `html:has(input[name="vault_csrf"][value^="${s.csrf.slice(0, 2)}"]) form[name=login]`),
  ...both((s) => `form:has(input[name=otp][value*="${s.otp[2]}"])`),
  "form:nth-child(1)", "form:nth-child(2)", ":nth-child(1 of form)", "form:nth-of-type(3)",
  "#\\63 heckout", "#\\000063heckout", "\\66orm", "#checkout", "#login", "[name=login]",
  "*", "form", "input", "meta", "[[", ":has(", "#checkout, #newsletter", "main > form",
  "form[target=sink]", "form:not([data-app-handled])", ":root form",
];

/** Field names a model might send to fill: refs, redacted fields, fields outside the root or
 *  outside <body>, and selectors. */
export const FIELD_LOCATORS = [
  "Email", "email", "Full name", "full-name", "fullname", "password", "Password", "card", "Card number",
  "cvc", "otp", "newpw", "taxid", "Tax id", "csrf", "cart", "ship", "country", "terms", "q", "nl",
  "nl_csrf", "search_csrf", "pass", "nonce", "field 99", "[name=csrf]", "input[value^=a]",
  // Issue 40: a field labelled with hidden text, and fields no one sees.
  "notes", "Notes", "faint", "under", "tiny",
  ...both((s) => `Notes${s.hiddenText}`),
  ...both((s) => `master-${s.vault}`),
  ...both((s) => `tied-${s.vault}`),
  ...both((s) => `Vault ${s.vault}`),
  ...both((s) => `Full name Vault ${s.vault}`),
  "vault_csrf",
];

export const BUTTONS = [
  "Pay", "pay", "PAY", " Pay", "Save draft", "save", "Sign in", "Subscribe", "Search", "Post",
  "button[name=pay]", "#checkout button", "form:has(input[value^=a]) button", "Submit",
];

export const URLS = [
  "#top", "#", "?", "?x=1", "?reset=guess", "", "page.html", "./", "/", "/page.html#frag", "/orders/42?tab=items",
  "https://docs.example/a?b=1#c", "https://evil.example/", "javascript:alert(location.search)", "//evil.example",
  "/..//evil.example", "%", "?#", "#tok=alpha", "#tok=bravo-longer", "data:text/html,hi", "HTTP://docs.example/x",
];

/** What a model might send as read_table's `table`: captions, places, refs, near misses, and
 *  selectors or ids built from the secrets (issue 40). */
export const TABLE_LOCATORS = [
  "Orders", "orders", "Side", "Covered", "table 1", "table 2", "table 3", "table 0", "table 01", " Orders",
  "#orders", "#side-table", "table", "table:has(tr[data-id])", "[data-secret]", "Internal",
  ...both((s) => `row-${s.vault}-0`),
  ...both((s) => `table:has([data-id^="${s.nonce[0]}"])`),
  ...both((s) => `#orders[data-secret^="${s.side[0]}"]`),
  ...both((s) => `Orders ${s.hiddenText}`),
  "e1", "e2", "e3", "e6", "e9", "e99", "E1", "e01", "e-1", "e1.0",
];

/** What a model might send as highlight's `ref`: every ref a page can have issued by then, refs
 *  never issued, and shapes that are not refs. */
export const REFS = [
  ...Array.from({ length: 40 }, (_, i) => `e${i + 1}`),
  "e0", "e01", "E2", "e-1", "e+1", " e2", "e2 ", "e99999999999999999999", "2", "#orders", "tr",
  ...both((s) => `row-${s.vault}-1`),
];

const DEEP = (() => {
  let o = { x: "leaf" };
  for (let i = 0; i < 60; i++) o = { a: o };
  return o;
})();

/** Wrong types, oversized and deeply nested arguments. */
const BAD_ARGS = [
  { form: 7 }, { form: null }, { form: [] }, { form: { $ref: "#checkout" } }, { form: "x".repeat(300) },
  { form: "\u0000checkout" }, { form: "   " }, { form: DEEP }, { button: DEEP }, { button: 1 }, { button: "b".repeat(500) },
  { fields: "csrf" }, { fields: [] }, { fields: {} }, { fields: { Email: DEEP } }, { fields: { Email: "a\nb" } },
  { url: 5 }, { url: DEEP }, { url: "/" + "a".repeat(3000) }, { url: "java\tscript:x" },
];

/** What a model might send as read_page's `query`: words on screen, and the secrets (each must
 *  match nothing, on either page). */
export const QUERIES = [
  "Pay", "orders", "EUR", "button", "link", "text", "filled", "hid-", "vault", "RST", "reset", "tok=", "csrf",
  ...both((s) => s.hiddenText), ...both((s) => s.csrf), ...both((s) => s.resetToken), ...both((s) => s.unseenValue),
  ...both((s) => s.card.slice(0, 4)), ...both((s) => s.storedPassword), ...both((s) => s.side), ...both((s) => s.nonce),
  ...both((s) => `row-${s.vault}`),
];

/** read_table's and highlight's bad arguments. */
const BAD_TABLE_ARGS = [
  { table: 7 }, { table: DEEP }, { table: "x".repeat(300) }, { table: "\u0000Orders" }, { from: 0 }, { from: -1 },
  { from: 1.5 }, { from: "2" }, { count: 0 }, { count: 101 }, { count: "5" }, { count: null }, { from: 1e300 },
];
const BAD_HIGHLIGHT_ARGS = [{}, { ref: 5 }, { ref: DEEP }, { ref: "" }, { clear: "yes" }, { clear: true, ref: "e1" }, { ref: null }];

const describeTools = ["describe_form", "describe_scoped", "describe_fixed"];
const fillTools = ["fill_form", "fill_scoped", "fill_fixed"];
const submitTools = ["submit_form", "submit_scoped", "submit_fixed", "submit_confirm"];
const navigateTools = ["navigate", "navigate_router", "navigate_confirm"];
const tableTools = ["read_table", "read_table_scoped", "read_table_roots"];
const highlightTools = ["highlight", "highlight_scoped", "highlight_hook", "highlight_roots"];
const clickTools = ["click", "click_scoped", "click_confirm", "click_roots"];
const pageTools = ["read_page", "read_page_scoped", "read_page_roots"];

/** The table, in order. The last rows fill the form validly and submit it. */
export function table() {
  const rows = [];
  for (const tool of describeTools) rows.push({ tool, args: {} });
  for (const form of FORM_LOCATORS) {
    for (const tool of describeTools) rows.push({ tool, args: { form } });
    for (const tool of fillTools) rows.push({ tool, args: { form, fields: { Comment: "hello", Email: "a@b.example" } } });
    for (const tool of submitTools) rows.push({ tool, args: { form } });
  }
  for (const field of FIELD_LOCATORS) {
    rows.push({ tool: "fill_form", args: { form: "checkout", fields: { [field]: "x" } } });
    rows.push({ tool: "fill_scoped", args: { form: "checkout", fields: { [field]: "x" } } });
    rows.push({ tool: "fill_fixed", args: { fields: { [field]: "x" } } });
  }
  for (const button of BUTTONS) {
    for (const tool of submitTools) rows.push({ tool, args: { form: "checkout", button } });
  }
  for (const url of URLS) {
    for (const tool of navigateTools) rows.push({ tool, args: { url } });
  }
  for (const args of BAD_ARGS) {
    const tools = "url" in args ? navigateTools : "fields" in args ? fillTools : [...describeTools, ...submitTools];
    for (const tool of tools) rows.push({ tool, args });
  }
  // The page's outline, whole, by query, and within each ref (issued by it or not).
  for (const tool of pageTools) rows.push({ tool, args: {} });
  for (const query of QUERIES) {
    for (const tool of pageTools) rows.push({ tool, args: { query } });
  }
  // Tables: read by each locator and in pages; refs highlighted before and after reading.
  for (const ref of REFS.slice(0, 12)) {
    for (const tool of highlightTools) rows.push({ tool, args: { ref } });
  }
  for (const table of TABLE_LOCATORS) {
    for (const tool of tableTools) rows.push({ tool, args: { table } });
  }
  for (const tool of tableTools) {
    rows.push({ tool, args: {} });
    for (const [from, count] of [[1, 1], [2, 2], [3, 100], [4, 1], [5, 5], [99, 1]]) {
      rows.push({ tool, args: { table: "Orders", from, count } });
    }
  }
  for (const ref of REFS) {
    for (const tool of highlightTools) rows.push({ tool, args: { ref } });
    for (const tool of clickTools) rows.push({ tool, args: { ref } });
    for (const tool of pageTools) rows.push({ tool, args: { within: ref } });
  }
  for (const tool of highlightTools) rows.push({ tool, args: { clear: true } });
  for (const args of BAD_TABLE_ARGS) {
    for (const tool of tableTools) rows.push({ tool, args });
  }
  for (const args of [{ within: 5 }, { within: DEEP }, { query: "" }, { query: "q".repeat(300) }, { query: 7 }, { within: "e1", query: "\u0000" }]) {
    for (const tool of pageTools) rows.push({ tool, args });
  }
  for (const args of BAD_HIGHLIGHT_ARGS) {
    for (const tool of [...highlightTools, ...clickTools]) rows.push({ tool, args });
  }
  // A valid form: the model fills what it may (the password with allowSensitive), then submits.
  rows.push({ tool: "fill_fixed", args: { fields: { Email: "ada@example.org", "I accept the terms": true, Password: "correct horse battery", "Card number": "4242 4242 4242 4242" } } });
  for (const tool of describeTools) rows.push({ tool, args: { form: "checkout" } });
  for (const button of ["Save draft", "Pay"]) {
    rows.push({ tool: "submit_confirm", args: { form: "checkout", button } });
    rows.push({ tool: "submit_fixed", args: { button } });
  }
  rows.push({ tool: "fill_fixed", args: { fields: { csrf: "model-set", cart: "" } } });
  for (const tool of describeTools) rows.push({ tool, args: {} });
  return rows;
}
