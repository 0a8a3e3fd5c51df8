// The page of the non-interference suite: writes this page's secrets (window.SECRETS, set by
// run.mjs; see secretsFromRunner) into the shared markup, then registers the four page tools in
// every configuration the suite calls: no options, `root` only (the *_scoped tools; a tool's
// name is an option too, so each has one), `root` as selectors (*_roots), a fixed `form`
// (*_fixed), and a few more.
// A page loaded into the `sink` frame by a form submission does nothing.
import init, {
  Client, describeFormTool, fillFormTool, submitFormTool, navigateTool, readPageTool, readTableTool, highlightTool, clickTool,
} from "/pkg/client_tools.js";

const query = new URLSearchParams(location.search);
if (window.top === window && query.has("session")) {
  main().catch((e) => {
    document.body.dataset.error = String(e?.message ?? e);
  });
}

function put(selector, attribute, value) {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`page.html has no ${selector}`);
  el.setAttribute(attribute, value);
}

/** Every secret that is not typed by the user: value attributes, data attributes, a meta tag,
 *  and a form outside <body> whose ids and names are secrets too. */
function writeSecrets(s) {
  document.documentElement.dataset.secret = s.html;
  put('meta[name="csrf-token"]', "content", s.meta);
  put("#top", "data-user-token", s.userToken);
  put('[name="search_csrf"]', "value", s.searchCsrf);
  put('#checkout [name="card"]', "value", s.card);
  put('#checkout [name="otp"]', "value", s.otp);
  put('#checkout [name="newpw"]', "value", s.newPassword);
  put('#checkout [name="csrf"]', "value", s.csrf);
  put('#checkout [name="cart"]', "value", s.cart);
  put('form[name="login"] [name="pass"]', "value", s.storedPassword);
  put('form[name="login"] [name="nonce"]', "value", s.nonce);
  put("#side", "data-secret", s.side);
  // Issue 40: text no one sees, values of fields no one sees, a secret in an action's path.
  for (const el of document.querySelectorAll(".hid")) el.prepend(s.hiddenText);
  for (const el of document.querySelectorAll(".unseen")) el.setAttribute("value", s.unseenValue);
  put("#reset", "action", `/reset-password/${s.resetToken}`);
  put("#newsletter", "data-token", s.newsletterToken);
  put("#orders", "data-secret", s.side);
  put("#side-table", "data-secret", s.html);
  for (const [i, el] of document.querySelectorAll(".rowid").entries()) {
    el.id = `row-${s.vault}-${i}`;
    el.dataset.id = `${s.nonce}-${i}`;
  }
  for (const el of document.querySelectorAll(".cellvalue")) el.setAttribute("value", s.unseenValue);
  put('[name="nl_csrf"]', "value", s.newsletterCsrf);
  // Outside <body> (a child of <html>): outside the root of every tool, ids included.
  const vault = document.createElement("div");
  vault.id = `vault-${s.vault}`;
  vault.dataset.secret = s.html;
  const form = document.createElement("form");
  form.id = `vault-form-${s.vault}`;
  form.setAttribute("name", `vault-${s.vault}`);
  for (const [name, type, value, extra] of [
    [`master-${s.vault}`, "text", s.vaultValue, {}],
    ["vault_csrf", "hidden", s.csrf, {}],
    [`tied-${s.vault}`, "text", s.vaultValue, { form: "checkout" }],
  ]) {
    const input = document.createElement("input");
    input.name = name;
    input.type = type;
    input.setAttribute("value", value);
    for (const [k, v] of Object.entries(extra)) input.setAttribute(k, v);
    form.append(input);
  }
  const label = document.createElement("label");
  label.htmlFor = "full-name";
  label.textContent = `Vault ${s.vault}`;
  vault.append(form, label);
  document.documentElement.append(vault);
}

// run.mjs sets window.SECRETS before the page's scripts in Chromium (playwright-core's
// addInitScript); WebDriver classic (Firefox, WebKit: ../../demo-check/webdriver.mjs) can only
// once the page has loaded, and then dispatches "secrets".
async function secretsFromRunner() {
  if (!window.SECRETS) {
    await new Promise((done, fail) => {
      addEventListener("secrets", done, { once: true });
      setTimeout(() => fail(new Error("window.SECRETS is not set (no \"secrets\" event in 20 s)")), 20000);
    });
  }
  return window.SECRETS;
}

async function main() {
  const secrets = await secretsFromRunner();
  writeSecrets(secrets);
  for (const f of document.querySelectorAll("form[data-app-handled]")) {
    f.addEventListener("submit", (e) => e.preventDefault());
  }
  await init();
  const scope = document.getElementById("scope");
  const sensitive = ["[data-sensitive]"];
  window.routes = [];
  window.marked = [];
  window.clicks = [];
  for (const [i, b] of document.querySelectorAll(".act").entries()) b.addEventListener("click", () => window.clicks.push(i));
  const tools = [
    describeFormTool(),
    fillFormTool(),
    submitFormTool(),
    navigateTool(),
    describeFormTool({ name: "describe_scoped", root: scope }),
    fillFormTool({ name: "fill_scoped", root: scope }),
    submitFormTool({ name: "submit_scoped", root: scope }),
    describeFormTool({ name: "describe_fixed", form: "#checkout", sensitive }),
    fillFormTool({ name: "fill_fixed", form: "#checkout", sensitive, allowSensitive: true, allowHidden: true }),
    submitFormTool({ name: "submit_fixed", root: scope, form: document.getElementById("checkout"), sensitive }),
    submitFormTool({ name: "submit_confirm", root: scope, sensitive, confirm: () => false }),
    navigateTool({ name: "navigate_router", router: (path) => { window.routes.push(path); } }),
    navigateTool({ name: "navigate_confirm", mode: "document", allowOrigins: ["https://docs.example"], confirm: () => false }),
    readPageTool(),
    readPageTool({ name: "read_page_scoped", root: scope }),
    readTableTool(),
    readTableTool({ name: "read_table_scoped", root: scope }),
    highlightTool(),
    highlightTool({ name: "highlight_scoped", root: scope }),
    clickTool(),
    clickTool({ name: "click_scoped", root: scope, clickable: ["#orders button"] }),
    clickTool({ name: "click_confirm", root: scope, confirm: () => false }),
    // `root` as a selector and as a list (issue 40): a list with a root inside another and a
    // selector that matches nothing reads as `scope` alone.
    readPageTool({ name: "read_page_roots", root: ["#orders", "#scope", "#no-such-root"] }),
    readTableTool({ name: "read_table_roots", root: "#scope" }),
    highlightTool({ name: "highlight_roots", root: ["#scope"] }),
    clickTool({ name: "click_roots", root: ["#orders"], clickable: ["#orders button"] }),
    highlightTool({ name: "highlight_hook", root: scope, highlight: (el) => { window.marked.push(el ? `${el.tagName}:${el.cells?.[0]?.textContent ?? ""}` : null); } }),
  ];
  window.client = await Client.register({
    baseUrl: location.origin,
    sessionId: query.get("session"),
    token: query.get("token"),
    name: "page",
    lifetime: { type: "never" },
    tools,
  });
  document.body.dataset.ready = "1";
}
