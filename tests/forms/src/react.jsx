// React 19 fixture: every field is a controlled input whose value lives in component state,
// rendered into <pre id="state">; a submit handler renders what it got into <pre id="submitted">;
// a minimal popstate router renders the path into #route.
import { StrictMode, useState, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { describeFormTool, fillFormTool, navigateTool, submitFormTool } from "client-tools";
import { expose, ready } from "./harness.js";

const initial = {
  name: "", email: "", age: "", birthday: "", alarm: "", volume: "50", color: "#000000",
  bio: "", country: "fr", languages: [], plan: "free", terms: false, code: "", password: "", notes: "",
};

function usePath() {
  return useSyncExternalStore(
    (cb) => { window.addEventListener("popstate", cb); return () => window.removeEventListener("popstate", cb); },
    () => location.pathname,
  );
}

function App() {
  const [s, setS] = useState(initial);
  const [submitted, setSubmitted] = useState(null);
  const path = usePath();
  const field = (k) => ({ name: k, value: s[k], onChange: (e) => setS((o) => ({ ...o, [k]: e.target.value })) });
  return (
    <>
      <div id="route">{path}</div>
      <form id="profile" onSubmit={(e) => { e.preventDefault(); setSubmitted(s); }}>
        <label htmlFor="name">Full name</label>
        <input id="name" required {...field("name")} />
        <label>Email <input type="email" required {...field("email")} /></label>
        <label>Age <input type="number" min="18" max="120" {...field("age")} /></label>
        <label>Birthday <input type="date" {...field("birthday")} /></label>
        <label>Alarm <input type="time" {...field("alarm")} /></label>
        <label>Volume <input type="range" min="0" max="100" step="5" {...field("volume")} /></label>
        <label>Favourite color <input type="color" {...field("color")} /></label>
        <span id="bio-label">About you</span>
        <textarea aria-labelledby="bio-label" maxLength={50} {...field("bio")} />
        <label>Country
          <select {...field("country")}>
            <option value="fr">France</option><option value="jp">Japan</option><option value="br">Brazil</option>
          </select>
        </label>
        <label>Languages
          <select multiple name="languages" value={s.languages}
            onChange={(e) => setS((o) => ({ ...o, languages: [...e.target.selectedOptions].map((x) => x.value) }))}>
            <option value="en">English</option><option value="ja">Japanese</option><option value="pt">Portuguese</option>
          </select>
        </label>
        <fieldset><legend>Plan</legend>
          {["free", "pro"].map((p) => (
            <label key={p}><input type="radio" name="plan" value={p} checked={s.plan === p}
              onChange={() => setS((o) => ({ ...o, plan: p }))} /> {p === "free" ? "Free" : "Pro"}</label>
          ))}
        </fieldset>
        <label><input type="checkbox" name="terms" required checked={s.terms}
          onChange={(e) => setS((o) => ({ ...o, terms: e.target.checked }))} /> I accept the terms</label>
        <label>Promo code <input name="code" value={s.code}
          onChange={(e) => setS((o) => ({ ...o, code: e.target.value.toUpperCase() }))} /></label>
        <label>Password <input type="password" {...field("password")} /></label>
        <div contentEditable suppressContentEditableWarning aria-label="Notes" id="notes"
          onInput={(e) => { const t = e.currentTarget.textContent; setS((o) => ({ ...o, notes: t })); }} />
        <button type="submit">Save profile</button>
      </form>
      <pre id="state">{JSON.stringify(s)}</pre>
      <pre id="submitted">{submitted ? JSON.stringify(submitted) : ""}</pre>
    </>
  );
}

await ready;
createRoot(document.getElementById("app")).render(<StrictMode><App /></StrictMode>);
const scope = { form: "#profile" };
expose(
  {
    describe: describeFormTool(scope),
    fill: fillFormTool(scope),
    submit: submitFormTool(scope),
    navigate: navigateTool(),
  },
  () => JSON.parse(document.getElementById("state").textContent),
);
