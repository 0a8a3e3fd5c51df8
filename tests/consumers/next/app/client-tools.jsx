"use client";
// The README's React recipe, as is: one client for the app, StrictMode-safe, and each screen's
// tools swapped in with setTools.
import { createContext, useContext, useEffect, useState } from "react";
import { Client } from "client-tools";

const ClientContext = createContext(null);

/** Registers one client while mounted. StrictMode mounts twice: the first effect's cleanup
 * aborts its registration, so the model never sees two clients. Keep `options` stable. */
export function ClientProvider({ options, children }) {
  const [client, setClient] = useState(null);
  useEffect(() => {
    const abort = new AbortController();
    Client.register({ ...options, signal: abort.signal })
      .then(setClient, (error) => abort.signal.aborted || console.error(error));
    return () => abort.abort();
  }, [options]);
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

/** The client, once registered (else null). */
export const useClient = () => useContext(ClientContext);

/** Offers `tools` while the screen is mounted. Keep `tools` stable (module scope or useMemo). */
export function useTools(tools) {
  const client = useClient();
  useEffect(() => {
    client?.setTools(tools).catch(console.error);
  }, [client, tools]);
}
