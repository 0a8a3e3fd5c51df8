// The JS half of WsTools' frame test: whether a message can be one the bridge reads (a tool
// call; in OpenAI's dialect also a frame about the response's state), decided on the JS string
// before anything crosses into the WebAssembly module, so that audio frames and transcripts,
// most of what a voice socket carries, are never copied into it. The markers are the
// dialect's (`Dialect::markers`, core/src/adapters/ws/types.rs): a frame of interest holds one.
// wasm-bindgen ships this file beside the glue (src/js_api/ws.rs imports it).

/**
 * The test of a message's data for `markers`: true when it is a string holding one of them.
 * The markers are looked for by their first character: a character only one marker starts
 * with is one `includes` (V8 scans for the first character as a memchr, and an audio frame's
 * base64 holds no quote or backslash); the markers sharing one (four of OpenAI's five start
 * with a quote) are one `indexOf` pass over the frame, each hit's next character compared
 * before the marker is, rather than one pass per marker.
 */
export function frameTest(markers) {
  const firsts = [...new Set(markers.map((m) => m[0]))];
  const groups = firsts.map((c) => markers.filter((m) => m[0] === c));
  const seconds = groups.map((group) => group.map((m) => m.charCodeAt(1)));
  return (data) => {
    if (typeof data !== "string") return false;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g];
      if (group.length === 1) {
        if (data.includes(group[0])) return true;
        continue;
      }
      const first = firsts[g];
      const second = seconds[g];
      for (let at = data.indexOf(first); at !== -1; at = data.indexOf(first, at + 1)) {
        const next = data.charCodeAt(at + 1);
        for (let k = 0; k < group.length; k++) {
          if (second[k] === next && data.startsWith(group[k], at)) return true;
        }
      }
    }
    return false;
  };
}

/** What puts `test` in front of a `message` listener: the listener that hands it only the
 * events whose data pass. */
export function frameFront(test) {
  return (listener) => (event) => {
    if (test(event.data)) listener(event);
  };
}
