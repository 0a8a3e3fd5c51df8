"use client";
import Link from "next/link";
import { useTools } from "./client-tools";

const tools = [
  {
    name: "add",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    handler: ({ a, b }) => String(a + b),
  },
];

export default function Home() {
  useTools(tools);
  return (
    <main>
      <h1>Home</h1>
      <Link id="to-other" href="/other">Other screen</Link>
    </main>
  );
}
