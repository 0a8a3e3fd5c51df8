"use client";
import { useTools } from "client-tools/react";

export default function Loaded({ data }) {
  useTools([{ name: "loaded_tool", description: "The tool of a route with a loader.", handler: () => data.text }]);
  return <p id="route">loaded</p>;
}
