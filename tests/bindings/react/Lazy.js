// The lazy route: its chunk is held back 300 ms by the check's static server.
import { createElement as h } from "react";
import { useTools } from "client-tools/react";

export default function Lazy() {
  useTools([{ name: "lazy_tool", description: "The lazy route's tool.", handler: () => "lazy" }]);
  return h("p", { id: "route" }, "lazy");
}
