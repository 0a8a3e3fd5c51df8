"use client";
// The lazy chunk (the check finds it by the marker below).
import { useTools } from "client-tools/react";

export default function LazyTools() {
  useTools([{ name: "lazy_tool", description: "The lazy route's tool (lazy-chunk-marker).", handler: () => "lazy" }]);
  return <p id="route">lazy</p>;
}
