"use client";
import { useTools } from "../client-tools";

const tools = [
  {
    name: "echo",
    description: "Say the text back.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    handler: ({ text }) => `echo: ${text}`,
  },
];

export default function Other() {
  useTools(tools);
  return <h1 id="other">Other</h1>;
}
