// `using` and `await using` where the lib has esnext.disposable (tsconfig.esnext.json).
import { Client } from "client-tools";

export async function scoped(sessionId: string, token: string): Promise<string> {
  await using client = await Client.register({ baseUrl: "http://127.0.0.1:8787", sessionId, token });
  using other = await Client.register({ baseUrl: "http://127.0.0.1:8787", sessionId, token, name: "other" });
  return `${client.name} ${other.name}`;
}
