"use client";
// The app's layout part that uses client-tools/react: the provider (registered in the browser
// only: its effects never run on the server), the layout's tools with Next's `router.push`
// behind useToolNavigate, and buttons that unmount the provider and mount it again. Server
// rendering renders it like any client component; tests/bindings/next/check.mjs drives it.
import { startTransition, useEffect, useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { navigateTool } from "client-tools";
import { z } from "zod";
import { ClientToolsProvider, useClientTools, useTools, useToolNavigate } from "client-tools/react";

// What the page saw, for the check (in the browser only).
if (typeof window !== "undefined" && !window.__seen) {
  window.__seen = { statuses: [], warnings: [] };
  const warn = console.warn;
  console.warn = (...args) => {
    window.__seen.warnings.push(args.join(" "));
    warn(...args);
  };
}

// A zod schema: converted to JSON Schema once, its refinements checked after the SDK's checks.
const SIGNUP = z.object({
  email: z.string().email(),
  code: z.string().refine((s) => s.startsWith("X"), "must start with X"),
  n: z.number().default(3),
});
const signup = {
  name: "signup",
  description: "Signs up.",
  parameters: SIGNUP,
  handler: ({ email, code, n }) => {
    window.__seen.signups = (window.__seen.signups ?? 0) + 1;
    return `signed up ${email} ${code} ${n}`;
  },
};

function Status() {
  const { client, state, error } = useClientTools();
  // For the check's direct client.scope checks.
  useEffect(() => {
    window.__client = client;
  }, [client]);
  return (
    <p id="status" data-state={state}>
      {error ? `${state}: ${error.message}` : state}
    </p>
  );
}

function LayoutTools() {
  const router = useRouter();
  const toolNavigate = useToolNavigate(router.push);
  // Made once: a page tool is compared by identity.
  const nav = useMemo(() => navigateTool({ router: toolNavigate }), [toolNavigate]);
  useTools([
    nav,
    signup,
    {
      name: "go",
      description: "Opens a screen of the app.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      async handler({ path }) {
        await toolNavigate(path);
        return `at ${path}`;
      },
    },
  ]);
  return null;
}

export default function Shell({ children }) {
  // Read once in the browser (the routes change the URL); null on the server, where nothing
  // registers.
  const [options] = useState(() => {
    if (typeof window === "undefined") return null;
    const query = new URLSearchParams(window.location.search);
    const onStatus = (status) => window.__seen.statuses.push(status);
    return { baseUrl: query.get("base"), sessionId: query.get("session"), token: query.get("token"), name: "next", onStatus };
  });
  const [on, setOn] = useState(true);
  // Counts the shell's mount effects: 2 under StrictMode in development (the dev check's point).
  useEffect(() => {
    window.__mounts = (window.__mounts ?? 0) + 1;
  }, []);
  return (
    <div>
      <button id="unmount" onClick={() => setOn(false)}>
        unmount
      </button>
      {/* Mounts the provider again in a transition, as a route change would: under StrictMode in
          development, React re-runs its effects in the passive-effects flush, a later task. */}
      <button id="remount" onClick={() => startTransition(() => setOn(true))}>
        remount
      </button>
      {on ? (
        <ClientToolsProvider options={options}>
          <Status />
          <LayoutTools />
          {children}
        </ClientToolsProvider>
      ) : (
        <p id="off">off</p>
      )}
    </div>
  );
}
