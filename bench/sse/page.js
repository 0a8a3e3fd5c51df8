// The benchmark page: both parsers, the same bytes in the same chunks. run.mjs drives it one
// parse at a time (so that it can read the main thread's CPU time around each).
import init, { SseBench, dispatched_events } from '/wasm/sse_bench.js';
import { createParser } from '/esp/index.js';

function ours(chunks) {
  const bench = new SseBench();
  for (const c of chunks) bench.feed(c);
  const events = bench.finish();
  const chars = bench.chars();
  bench.free();
  return { events, chars };
}

// What a fetch()-based client of eventsource-parser does: decode each chunk, then feed it.
function theirs(chunks) {
  let events = 0;
  let chars = 0;
  const parser = createParser({
    onEvent(e) {
      events += 1;
      chars += (e.event ?? 'message').length + e.data.length + (e.id ?? '').length;
    },
  });
  const decoder = new TextDecoder();
  for (const c of chunks) parser.feed(decoder.decode(c, { stream: true }));
  parser.feed(decoder.decode());
  parser.reset({ consume: false });
  return { events, chars };
}

function eventChunks(bytes) {
  const out = [];
  let start = 0;
  for (let i = 1; i < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 10) {
      out.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

function fixedChunks(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

let chunkings = [];

/** Makes the stream and its chunkings; returns their names, chunk counts and the byte count. */
window.prepare = async ({ megabytes }) => {
  await init();
  const bytes = dispatched_events(megabytes * 1e6);
  chunkings = [
    ['16 KiB chunks', fixedChunks(bytes, 16 << 10)],
    ['one event per chunk', eventChunks(bytes)],
    ['64-byte chunks', fixedChunks(bytes, 64)],
  ];
  return { bytes: bytes.length, chunkings: chunkings.map(([name, c]) => ({ name, chunks: c.length })) };
};

/** Parses chunking `i` with `side` `times` times; the last parse's counts and wall time. */
window.parse = (i, side, times = 1) => {
  const run = side === 'ours' ? ours : theirs;
  let result;
  const t0 = performance.now();
  for (let k = 0; k < times; k++) result = run(chunkings[i][1]);
  return { ms: performance.now() - t0, ...result };
};
