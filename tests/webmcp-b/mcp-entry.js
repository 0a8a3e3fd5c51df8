// The page's side of tests/webmcp-b, bundled by run.sh into www/mcp.js: the MCP-B polyfill
// (it installs document.modelContext and serves the tools to MCP clients in the same tab) and
// both majors of the MCP client, over MCP-B's same-tab transport.
import "@mcp-b/global";
import { TabClientTransport } from "@mcp-b/transports";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";

/** Every list_changed notification the polyfill posted to the tab's MCP clients. */
window.listChanged = 0;
window.addEventListener("message", (e) => {
  const p = e.data?.type === "mcp" && e.data.direction === "server-to-client" ? e.data.payload : null;
  if (p?.method === "notifications/tools/list_changed") window.listChanged++;
});

/** A connected MCP client of `major` (1: @modelcontextprotocol/sdk, 2: @modelcontextprotocol/client). */
window.mcpClient = async (major) => {
  const Client = major === 1 ? ClientV1 : ClientV2;
  const client = new Client({ name: `suite-v${major}`, version: "1.0.0" });
  await client.connect(new TabClientTransport({ targetOrigin: location.origin }));
  return client;
};
window.mcpReady = true;
