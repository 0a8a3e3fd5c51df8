// The lazy route: its chunk is held back 300 ms by the check's static server.
import { defineComponent, h } from "vue";
import { useTools } from "client-tools/vue";

export default defineComponent({
  setup() {
    useTools(() => [{ name: "lazy_tool", description: "The lazy route's tool.", handler: () => "lazy" }]);
    return () => h("p", { id: "route" }, "lazy");
  },
});
