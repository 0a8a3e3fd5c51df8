"use client";
import { useState } from "react";
import { useTools } from "client-tools/react";

export default function Grow() {
  const [n, setN] = useState(1);
  const tools = [];
  for (let i = 0; i < n; i++) tools.push({ name: `item_${i}`, description: `Item ${i}.`, handler: () => `item ${i}` });
  useTools(tools);
  return (
    <div>
      <p id="route">{`grow ${n}`}</p>
      <button id="grow" onClick={() => setN(n + 1)}>grow</button>
      <button id="shrink" onClick={() => setN(n - 1)}>shrink</button>
    </div>
  );
}
