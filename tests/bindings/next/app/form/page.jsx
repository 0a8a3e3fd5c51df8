"use client";
import { useMemo, useRef } from "react";
import { fillFormTool } from "client-tools";
import { useTools } from "client-tools/react";

export default function FormRoute() {
  // The tool is made in the render where the ref is still empty: it reads the form per call.
  const mine = useRef(null);
  const fill = useMemo(() => fillFormTool({ name: "fill_mine", form: mine }), []);
  useTools([fill]);
  return (
    <div>
      <p id="route">form</p>
      <form id="other">
        <label>
          Email <input name="email" />
        </label>
      </form>
      <form id="mine" ref={mine}>
        <label>
          Email <input name="email" />
        </label>
      </form>
    </div>
  );
}
