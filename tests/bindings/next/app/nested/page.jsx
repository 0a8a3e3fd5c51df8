"use client";
import { useState } from "react";
import { useTools } from "client-tools/react";

// A name declared by a component and by one inside it: the inner one answers, whether it
// mounted with the page (React runs its effect first) or later.
function Inner() {
  useTools([{ name: "lookup", description: "Looks up (inner).", handler: () => "inner" }]);
  return <p id="inner">inner</p>;
}

export default function Nested() {
  const [inner, setInner] = useState(true);
  useTools([{ name: "lookup", description: "Looks up (outer).", handler: () => "outer" }]);
  return (
    <div>
      <p id="route">nested</p>
      {inner && <Inner />}
      <button id="toggle-inner" onClick={() => setInner(!inner)}>
        toggle inner
      </button>
    </div>
  );
}
