import { test } from "node:test";
import assert from "node:assert/strict";
import { routeOf } from "../../../www/app/router.js";
import { readSessionParams, sessionQuery } from "../../../www/shared/params.js";

const here = "http://127.0.0.1:8787/?session=demo#/settings";

test("routeOf accepts paths, hashes and same-origin URLs", () => {
  assert.equal(routeOf("/orders", here), "/orders");
  assert.equal(routeOf("/orders/new/", here), "/orders/new");
  assert.equal(routeOf("#/settings", here), "/settings");
  assert.equal(routeOf("/#/orders/new", here), "/orders/new");
  assert.equal(routeOf("http://127.0.0.1:8787/?x=1#/orders", here), "/orders");
  assert.equal(routeOf("/", here), "/orders");
  assert.equal(routeOf(new URL("http://127.0.0.1:8787/settings"), here), "/settings");
});

test("routeOf refuses other origins and unknown screens, saying which exist", () => {
  assert.throws(() => routeOf("https://evil.example/orders", here), /not this app's origin/);
  assert.throws(() => routeOf("//evil.example/orders", here), /not this app's origin/);
  assert.throws(() => routeOf("/admin", here), /no screen at "\/admin"; the app has \/orders, \/orders\/new, \/settings/);
  assert.throws(() => routeOf(42, here), /expected a path/);
});

test("readSessionParams has the demo's defaults and checks base", () => {
  assert.deepEqual(readSessionParams("", "http://127.0.0.1:8787"), { sessionId: "demo", token: "demo-token", baseUrl: "http://127.0.0.1:8787" });
  assert.deepEqual(readSessionParams("?session=s1&token=t1&base=http://h:9/api/", "http://x"), { sessionId: "s1", token: "t1", baseUrl: "http://h:9/api" });
  assert.throws(() => readSessionParams("?base=javascript:alert(1)", "http://x"), /"base": javascript: is not http/);
  assert.throws(() => readSessionParams("?base=nope", "http://x"), /"base": "nope" is not a URL/);
});

test("sessionQuery carries base only when it differs from the page's origin", () => {
  const params = { sessionId: "demo", token: "demo-token", baseUrl: "http://127.0.0.1:8787" };
  assert.equal(sessionQuery(params, "http://127.0.0.1:8787"), "?session=demo&token=demo-token");
  assert.equal(sessionQuery(params, "http://127.0.0.1:5173"), "?session=demo&token=demo-token&base=http%3A%2F%2F127.0.0.1%3A8787");
});
