// The package's JS errors: an `Error` with a `code` (the codes: `ClientErrorCode` in the
// .d.ts), and the reading of an app's values that may throw. Used by the loader (api.js) and
// by the JS shape over the glue (wrap.js, tools.js).

/** An `Error` with a `code` a program can switch on (the codes: `ClientErrorCode`). */
export function coded(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

/** The text of what an app's code threw, whatever it is (a Proxy, a symbol, a throwing getter). */
export function messageOf(error) {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "an error that cannot be read";
  }
}

/** Runs `read` (code that reads the app's values: getters, Proxies, iterators); what it throws
 * becomes an `invalid_option` error naming `field`, unless it is the SDK's own coded error. */
export function readOrRefuse(field, read) {
  try {
    return read();
  } catch (error) {
    let code;
    try {
      code = error instanceof Error ? error.code : undefined;
    } catch {}
    if (typeof code === "string") throw error;
    throw coded("invalid_option", `${field}: cannot be read (${messageOf(error)})`);
  }
}
