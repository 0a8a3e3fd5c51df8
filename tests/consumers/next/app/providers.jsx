"use client";
// The test app's glue around the recipe: the session comes from the page's query, and the page
// shows the client's state for the check to read.
import { useEffect, useState } from "react";
import { ClientProvider, useClient } from "./client-tools";

function Status() {
  const client = useClient();
  return (
    <p id="status" data-state={client ? "registered" : "registering"}>
      {client ? `registered as ${client.name}` : "registering"}
    </p>
  );
}

export default function Providers({ children }) {
  // Computed once in the browser; effects (and so registration) never run on the server.
  const [options] = useState(() => {
    if (typeof window === "undefined") return null;
    const query = new URLSearchParams(window.location.search);
    return { baseUrl: query.get("base"), sessionId: query.get("session"), token: query.get("token"), name: "next" };
  });
  // Counts effect runs: 2 under StrictMode in development, which is what the check is about.
  useEffect(() => {
    window.__mounts = (window.__mounts ?? 0) + 1;
  }, []);
  return (
    <ClientProvider options={options}>
      <Status />
      {children}
    </ClientProvider>
  );
}
