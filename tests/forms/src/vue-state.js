// The Vue fixture's state, outside the components so it survives route changes.
import { reactive, ref } from "vue";

export const state = reactive({
  name: "", email: "", age: "", birthday: "", alarm: "", volume: 50, color: "#000000", bio: "",
  country: "fr", languages: [], plan: "free", toppings: [], terms: false, card: "",
});
export const submitted = ref(null);
