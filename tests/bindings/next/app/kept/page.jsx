"use client";
import { Activity, useState } from "react";
import { useTools } from "client-tools/react";

// Two tabs kept by <Activity>: the hidden one keeps its state and offers no tool.
let mounts = 0;
function Tab({ name }) {
  const [visits] = useState(() => ++mounts);
  useTools([{ name: `tab_${name}`, description: `Tab ${name}.`, handler: () => `tab ${name} (mount ${visits})` }]);
  return <p id={`tab-${name}`}>{name}</p>;
}

export default function Kept() {
  const [tab, setTab] = useState("one");
  return (
    <div>
      <p id="route">kept {tab}</p>
      <Activity mode={tab === "one" ? "visible" : "hidden"}>
        <Tab name="one" />
      </Activity>
      <Activity mode={tab === "two" ? "visible" : "hidden"}>
        <Tab name="two" />
      </Activity>
      <button id="switch-tab" onClick={() => setTab(tab === "one" ? "two" : "one")}>
        switch tab
      </button>
    </div>
  );
}
