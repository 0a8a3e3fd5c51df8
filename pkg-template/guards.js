// What the package puts on the glue's classes before any object of theirs is made: JS, because
// each runs before a call enters the WebAssembly module (which is the point of each):
// - a guard on each class: a freed object answers a coded Error without entering the module
//   (wasm-bindgen's own check throws through it and leaves the module's stack behind);
// - `WsTools.receive`'s frame test, so audio frames are not copied into the module.

import { coded } from "./errors.js";

/** The glue's promise-returning methods, by class: misused, they reject instead of throwing. */
const ASYNC_METHODS = { Client: ["setTools", "leave"], ToolRegistry: ["execute"], TurnTools: ["answer"], WsTools: [] };

/**
 * Guards every method and getter of the glue's class `name`, once per glue: an object that was
 * freed (or a `this` that is none of its objects) answers an `Error` coded `freed` (or
 * `invalid_option`) without entering the WebAssembly module, where wasm-bindgen's own check
 * would throw through it and leave the module's stack behind; `free()` of a freed object does
 * nothing, and `free()` while one of the object's methods is running (from a getter or handler
 * that method called) frees it once that method returns.
 */
function guardClass(Glue, name) {
  const proto = Glue?.prototype;
  if (!proto || Object.prototype.hasOwnProperty.call(proto, GUARDED)) return;
  Object.defineProperty(proto, GUARDED, { value: true });
  const busy = new WeakMap();
  const doomed = new WeakSet();
  const realFree = proto.free;
  const asyncs = ASYNC_METHODS[name] ?? [];
  const guarded = (f, key) => {
    const what = `${name}.${String(key)}`;
    const isFree = f === realFree;
    const isAsync = asyncs.includes(key);
    const fail = (error) => {
      if (isAsync) return Promise.reject(error);
      throw error;
    };
    return function (...args) {
      let ptr;
      try {
        ptr = this === null || this === undefined ? undefined : this.__wbg_ptr;
      } catch {}
      if (typeof ptr !== "number") {
        return fail(coded("invalid_option", `client-tools: ${what}: called on something that is not a ${name}`));
      }
      if (ptr === 0 || doomed.has(this)) {
        if (isFree) return undefined;
        return fail(coded("freed", `client-tools: ${what}: this ${name} was freed (free()) and cannot be used any more`));
      }
      if (isFree) {
        if (busy.get(this)) {
          doomed.add(this);
          return undefined;
        }
        return f.apply(this, args);
      }
      busy.set(this, (busy.get(this) ?? 0) + 1);
      try {
        return f.apply(this, args);
      } finally {
        const depth = busy.get(this) - 1;
        if (depth > 0) {
          busy.set(this, depth);
        } else {
          busy.delete(this);
          if (doomed.has(this) && this.__wbg_ptr !== 0) realFree.call(this);
        }
      }
    };
  };
  for (const key of Reflect.ownKeys(proto)) {
    if (key === "constructor" || key === "__destroy_into_raw" || key === GUARDED) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (typeof d.value === "function") d.value = guarded(d.value, key);
    else if (typeof d.get === "function") d.get = guarded(d.get, key);
    else continue;
    Object.defineProperty(proto, key, d);
  }
}

/** Marks a glue class's prototype as guarded (`guardClass`). */
const GUARDED = Symbol("client-tools guarded");

/**
 * Runs each WsTools' frame test (its dialect's markers, `testOf(dialect)`: src/ws/frames.js)
 * on `receive`'s data in JS first: a frame that cannot be one the bridge reads (audio, a
 * transcript: most of a voice socket's frames) is answered `false` without being copied into
 * the WebAssembly module. Installed under `guardClass`, which checks the object first.
 */
function testFrames(WsTools, testOf) {
  const proto = WsTools?.prototype;
  // Once per glue: `guardClass` marks the prototype after this ran.
  if (!proto || Object.prototype.hasOwnProperty.call(proto, GUARDED)) return;
  const receive = proto.receive;
  const tests = new WeakMap();
  proto.receive = function (data) {
    let test = tests.get(this);
    if (!test) tests.set(this, (test = testOf(this.dialect) ?? (() => true)));
    return test(data) ? receive.call(this, data) : false;
  };
}

/** Installs the frame test and the guards on `glue`'s classes (once per glue). */
export function guardGlue(glue) {
  testFrames(glue.WsTools, glue.wsFrameTest);
  for (const name of Object.keys(ASYNC_METHODS)) guardClass(glue[name], name);
}
