"use client";
import { useTools } from "client-tools/react";

export default function RouteA() {
  useTools([{ name: "a_list", description: "Lists route A's rows.", handler: () => "a rows" }]);
  return <p id="route">a</p>;
}
