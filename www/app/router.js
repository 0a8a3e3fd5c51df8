// Hash routes (`/#/orders`) so that a reload or a deep link works on any static server, the
// devserver included, without a fallback to index.html.

/** The app's screens, by route. */
export const ROUTE_TITLES = Object.freeze({
  "/orders": "Orders",
  "/orders/new": "New order",
  "/settings": "Settings",
});

/** Where `/` and an empty hash lead. */
export const HOME = "/orders";

/**
 * The route a navigation target names: `/orders`, `#/orders`, `/#/orders` or a full same-origin
 * URL of either shape. Throws an Error that lists the known routes when the target names none.
 */
export function routeOf(target, currentHref) {
  if (typeof target !== "string" && !(target instanceof URL)) {
    throw new Error(`route: expected a path such as "/orders", got ${typeof target}`);
  }
  let url;
  try {
    url = new URL(String(target), currentHref);
  } catch {
    throw new Error(`route: ${JSON.stringify(String(target))} is not a URL or path`);
  }
  const current = new URL(currentHref);
  if (url.origin !== current.origin) {
    throw new Error(`route: ${url.origin} is not this app's origin (${current.origin})`);
  }
  const raw = url.hash.startsWith("#/") ? url.hash.slice(1) : url.pathname;
  const path = raw.length > 1 ? raw.replace(/\/+$/, "") : raw;
  if (path === "/" || path === "/index.html" || path === "") return HOME;
  if (Object.hasOwn(ROUTE_TITLES, path)) return path;
  const known = Object.keys(ROUTE_TITLES).join(", ");
  throw new Error(`route: no screen at ${JSON.stringify(path)}; the app has ${known}`);
}
