"use client";
import { useState } from "react";
import { useTools } from "client-tools/react";

function Search({ who }) {
  useTools([{ name: "search", description: `Searches (${who}).`, handler: () => who }]);
  return <p id={who}>{who}</p>;
}

export default function Searches() {
  const [newer, setNewer] = useState(true);
  return (
    <div>
      <p id="route">search</p>
      <Search who="older" />
      {newer && <Search who="newer" />}
      <button id="drop-newer" onClick={() => setNewer(false)}>
        drop newer
      </button>
    </div>
  );
}
