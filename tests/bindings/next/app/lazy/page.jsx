"use client";
// The lazy route: its component comes in its own chunk (next/dynamic), which the check's proxy
// holds back 300 ms.
import dynamic from "next/dynamic";

const Lazy = dynamic(() => import("./lazy-tools"));

export default function LazyRoute() {
  return <Lazy />;
}
