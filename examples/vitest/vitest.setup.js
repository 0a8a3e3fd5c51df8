// happy-dom has no `Option` constructor (the HTML spec's legacy `new Option(text, value)`), which
// the demo's order form uses; the DOM tests get a faithful one. Node tests have no document.
if (typeof document !== "undefined" && typeof globalThis.Option !== "function") {
  globalThis.Option = function Option(text = "", value, defaultSelected = false, selected = false) {
    const option = document.createElement("option");
    option.text = text;
    if (value !== undefined) option.value = value;
    option.defaultSelected = defaultSelected;
    option.selected = selected;
    return option;
  };
}
