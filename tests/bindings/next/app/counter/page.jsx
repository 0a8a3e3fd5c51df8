"use client";
import { useState } from "react";
import { useTools } from "client-tools/react";

export default function Counter() {
  const [count, setCount] = useState(0);
  // A new closure every render, the same definition: no new PUT, and the latest count answers.
  useTools([{ name: "count", description: "How many clicks.", handler: () => `count ${count}` }]);
  return (
    <div>
      <p id="route">counter</p>
      <button id="click" onClick={() => setCount((c) => c + 1)}>{`clicked ${count}`}</button>
    </div>
  );
}
