"use client";
import { useTools } from "client-tools/react";

export default function RouteB() {
  useTools([{ name: "b_open", description: "Opens a row of route B.", handler: () => "b opened" }]);
  return <p id="route">b</p>;
}
