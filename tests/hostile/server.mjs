// The hostile server (issue 22): a small Node server (node:http, no framework) that speaks
// ../../../shared/PROTOCOL.md (register, ping, leave, PUT tools, ack, result, pending calls, the
// session's SSE stream with ids, replay after Last-Event-ID, stream_reset and `: keep-alive`
// comments) except where a session's scenario breaks it on purpose, and records every request
// with its time. It also plays the agent: `session.dispatch(…)` (or `POST /hostile/…/calls`)
// sends a call to a client, with the arguments as raw JSON text when a scenario wants them
// unreadable.
//
// Each session has its own scenario (the options of `server.session(id, options)` or of
// `POST /hostile/sessions`), so one server serves every scenario of a run at once:
//   pendingStatus     the pending-calls read answers this status (404: the route "is missing")
//   ackFail           every ack answered with these statuses in turn (e.g. [500, 503])
//   resultFail        every result answered with these statuses in turn
//   hangResults       this many results are accepted (the call settles) and never answered
//   deleteMode        "500": DELETE answered 500 forever; "hang": never answered
//   streamPlan        what the n-th stream GET gets: "honest" | "nohead" (no response head, ever)
//                     | "silent" (200 and its head, then nothing, not even a keep-alive);
//                     connections past the list are honest
//   expireAfterMs     the server forgets each registration this long after it (client_expired)
//   clockSkewMs       the server's clock is this far behind: the deadlines it sends are earlier
//                     than the ones it keeps by this much
//   enforceDeadlines  fail calls past their ack/result deadlines (client_tool_failed); default true
//   ackMs, resultMs   the ack and result windows (default 60 s and 5 min, as the protocol)
//   maxClients        live clients a session holds (default 32, the protocol's)
//   keepAliveMs       this session's keep-alive period (default: the server's)
// The server-wide `keepAliveMs` (default 15000, the protocol's) is how often honest streams get
// `: keep-alive`; tests shrink it.
//
// Standalone: `node server.mjs [--port N] [--keep-alive-ms MS]` prints "listening on URL".
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";

const MAX_LIVE_CLIENTS = 32;
const EVENT_LOG = 50000; // events a session keeps for replay
const TEXT_LIMIT = 65536;

const now = () => Date.now();
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function errorBody(type, message, param = null) {
  return JSON.stringify({ error: { type, message, param } });
}
const ERROR_TYPES = { 400: "invalid_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 413: "payload_too_large" };

class Session {
  constructor(server, id, options = {}) {
    this.server = server;
    this.id = id;
    this.token = options.token ?? `${id}-token`;
    this.opts = {
      pendingStatus: null, ackFail: null, resultFail: null, hangResults: 0, deleteMode: null,
      streamPlan: [], expireAfterMs: null, clockSkewMs: 0, enforceDeadlines: true,
      ackMs: 60000, resultMs: 300000, maxClients: MAX_LIVE_CLIENTS, ...options,
    };
    this.clients = new Map();
    this.calls = new Map();
    this.events = [];
    this.seq = 0;
    this.streams = new Set();
    this.streamCount = 0;
    this.log = [];
    this.keys = new Map(); // Idempotency-Key -> { status, body }
    this.ackFailN = 0;
    this.resultFailN = 0;
    this.hung = 0;
    this.hungResponses = new Set();
    this.callN = 0;
    this.clientN = 0;
    this.maxLive = 0;
    this.timers = new Set();
  }

  /** Records one request; returns the record so that its answer can be added. */
  record(kind, req, extra = {}) {
    const r = { t: now(), kind, method: req.method, path: req.url, ...extra };
    this.log.push(r);
    return r;
  }

  liveClients() {
    return [...this.clients.values()].filter((c) => c.live);
  }

  timer(ms, fn) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  clearTimer(t) {
    if (t) {
      clearTimeout(t);
      this.timers.delete(t);
    }
  }

  // ---- events and streams ----

  /** Appends an event (its data as JSON text) and sends it down every open honest stream. */
  emit(type, dataText) {
    const id = ++this.seq;
    const frame = `id: ${id}\nevent: ${type}\ndata: ${dataText}\n\n`;
    this.events.push({ id, type, frame });
    if (this.events.length > EVENT_LOG) this.events.splice(0, this.events.length - EVENT_LOG);
    for (const s of this.streams) if (s.mode === "honest") s.res.write(frame);
    return id;
  }

  emitJson(type, data) {
    return this.emit(type, JSON.stringify({ type, ...data }));
  }

  /** Writes raw text (a hand-made event) down every open honest stream. */
  sendRaw(text) {
    for (const s of this.streams) if (s.mode === "honest") s.res.write(text);
  }

  /** Drops every open stream (the connection is destroyed, as a proxy that gives up). */
  dropStreams() {
    let n = 0;
    for (const s of [...this.streams]) {
      s.res.destroy();
      this.streams.delete(s);
      n++;
    }
    return n;
  }

  // ---- calls ----

  /** The client a call to tool `name` of client `clientName` goes to: the newest live one. */
  target(clientName) {
    const live = this.liveClients().filter((c) => c.base === clientName);
    return live.at(-1) ?? null;
  }

  /**
   * The model calls `tool` on client `client` (its name as asked, "web"): `args` (an object) or
   * `rawArgs` (JSON text, sent as it is). Resolves to the call (null when no live client holds
   * that name: nothing is dispatched).
   */
  dispatch({ client = "web", tool, args = {}, rawArgs = null, ackMs, resultMs }) {
    const c = this.target(client);
    if (!c) return null;
    const id = `call_${++this.callN}`;
    const t = now();
    const ackWindow = ackMs ?? this.opts.ackMs;
    const call = {
      id, clientId: c.id, tool, args: rawArgs ?? args, dispatchedAt: t, state: "dispatched",
      ackDeadline: t + ackWindow, resultWindow: resultMs ?? this.opts.resultMs, resultDeadline: null,
      acks: [], results: [], accepted: null, failed: null, timer: null,
    };
    const raw = rawArgs ?? JSON.stringify(args);
    const head = JSON.stringify({ type: "client_tool_dispatched", session_id: this.id, run_id: "run_1", client_id: c.id, call_id: id, tool });
    call.payload = `${head.slice(0, -1)},"arguments":${raw},"ack_deadline":${JSON.stringify(iso(call.ackDeadline - this.opts.clockSkewMs))}}`;
    this.calls.set(id, call);
    if (this.opts.enforceDeadlines) call.timer = this.timer(ackWindow, () => this.fail(call, "ack_timeout"));
    this.emit("client_tool_dispatched", call.payload);
    return call;
  }

  fail(call, reason) {
    if (call.state === "succeeded" || call.state === "failed") return;
    this.clearTimer(call.timer);
    call.state = "failed";
    call.failed = { reason, t: now() };
    this.emitJson("client_tool_failed", { client_id: call.clientId, call_id: call.id, reason });
  }

  /** Fails every call client `c` still owes (it left or lapsed). */
  failOwed(c) {
    for (const call of this.calls.values()) if (call.clientId === c.id) this.fail(call, "client_gone");
  }

  forget(c, why) {
    if (!c.live) return;
    c.live = false;
    c.endedAt = now();
    c.ended = why;
    this.clearTimer(c.ttlTimer);
    this.failOwed(c);
    this.emitJson(why === "left" ? "client_left" : "client_expired", { client_id: c.id, name: c.name });
  }

  armTtl(c) {
    this.clearTimer(c.ttlTimer);
    if (c.ttlMs == null) return;
    c.expiresAt = now() + c.ttlMs;
    c.ttlTimer = this.timer(c.ttlMs, () => this.forget(c, "expired"));
  }

  // ---- routes ----

  async handle(req, res, rest, body) {
    const m = (re) => re.exec(rest);
    let r;
    if (rest === "/stream" && req.method === "GET") return this.stream(req, res);
    if (rest === "/clients" && req.method === "POST") return this.register(req, res, body);
    if ((r = m(/^\/clients\/([^/]+)$/)) && req.method === "DELETE") return this.leave(req, res, r[1]);
    if ((r = m(/^\/clients\/([^/]+)\/ping$/)) && req.method === "POST") return this.ping(req, res, r[1]);
    if ((r = m(/^\/clients\/([^/]+)\/tools$/)) && req.method === "PUT") return this.putTools(req, res, r[1], body);
    if ((r = m(/^\/clients\/([^/]+)\/calls$/)) && req.method === "GET") return this.pending(req, res, r[1]);
    if ((r = m(/^\/clients\/([^/]+)\/calls\/([^/]+)\/ack$/)) && req.method === "POST") return this.ack(req, res, r[1], r[2]);
    if ((r = m(/^\/clients\/([^/]+)\/calls\/([^/]+)\/result$/)) && req.method === "POST") return this.result(req, res, r[1], r[2], body);
    this.record("other", req);
    return send(res, 404, errorBody("not_found", `no route ${req.method} ${rest}`));
  }

  /** An answer that repeats for a repeated Idempotency-Key (5xx answers are not kept). */
  answer(req, res, rec, status, body) {
    rec.status = status;
    const key = req.headers["idempotency-key"];
    if (key && status < 500) this.keys.set(key, { status, body });
    send(res, status, body);
  }

  /** The stored answer of a repeated key, if any. */
  repeated(req, res, rec) {
    const key = req.headers["idempotency-key"];
    const kept = key && this.keys.get(key);
    if (!kept) return false;
    rec.status = kept.status;
    rec.repeated = true;
    send(res, kept.status, kept.body);
    return true;
  }

  register(req, res, body) {
    const rec = this.record("register", req);
    if (this.repeated(req, res, rec)) return;
    let v;
    try {
      v = JSON.parse(body);
    } catch {
      return this.answer(req, res, rec, 400, errorBody("invalid_request", "the body is not JSON"));
    }
    const base = v?.name ?? "web";
    if (typeof base !== "string" || !/^[a-z0-9-]{1,32}$/.test(base)) {
      return this.answer(req, res, rec, 400, errorBody("invalid_request", "name: 1 to 32 of a-z, 0-9, -", "name"));
    }
    const lifetime = v.lifetime ?? { type: "ttl", data: { seconds: 60 } };
    let ttlMs = null;
    if (lifetime.type === "ttl") {
      const s = lifetime.data?.seconds;
      if (!Number.isInteger(s) || s < 5 || s > 3600) return this.answer(req, res, rec, 400, errorBody("invalid_request", "5 ≤ seconds ≤ 3600", "lifetime.data.seconds"));
      ttlMs = s * 1000;
    } else if (lifetime.type !== "never") {
      return this.answer(req, res, rec, 400, errorBody("invalid_request", "ttl or never", "lifetime.type"));
    }
    const live = this.liveClients();
    if (live.length >= this.opts.maxClients) return this.answer(req, res, rec, 409, errorBody("client_limit_reached", `the session already holds ${this.opts.maxClients} live clients`));
    const taken = new Set(live.map((c) => c.name));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 32 - String(n).length - 1)}-${n}`;
    const c = { id: `cli_${this.id}_${++this.clientN}`, base, name, ttlMs, live: true, registeredAt: now(), tools: v.tools ?? [], lifetime };
    this.clients.set(c.id, c);
    this.maxLive = Math.max(this.maxLive, live.length + 1);
    this.armTtl(c);
    rec.clientId = c.id;
    this.emitJson("client_registered", { client_id: c.id, name });
    if (this.opts.expireAfterMs != null) this.timer(this.opts.expireAfterMs, () => this.forget(c, "expired"));
    this.answer(req, res, rec, 201, JSON.stringify({ id: c.id, name, lifetime, expires_at: c.ttlMs == null ? null : iso(c.expiresAt), tools: c.tools }));
  }

  ping(req, res, cid) {
    const rec = this.record("ping", req, { clientId: cid });
    if (this.repeated(req, res, rec)) return;
    const c = this.clients.get(cid);
    if (!c?.live) return this.answer(req, res, rec, 404, errorBody("not_found", `no client ${cid}`));
    this.armTtl(c);
    this.answer(req, res, rec, 200, JSON.stringify({ expires_at: c.ttlMs == null ? null : iso(c.expiresAt) }));
  }

  leave(req, res, cid) {
    const rec = this.record("delete", req, { clientId: cid });
    if (this.opts.deleteMode === "hang") {
      rec.status = "hung";
      this.hungResponses.add(res);
      res.on("close", () => this.hungResponses.delete(res));
      return;
    }
    if (this.opts.deleteMode === "500") return this.answer(req, res, rec, 500, errorBody("server_error", "the hostile server fails every DELETE"));
    if (this.repeated(req, res, rec)) return;
    const c = this.clients.get(cid);
    if (!c?.live) return this.answer(req, res, rec, 404, errorBody("not_found", `no client ${cid}`));
    this.forget(c, "left");
    rec.status = 204;
    const key = req.headers["idempotency-key"];
    if (key) this.keys.set(key, { status: 204, body: "" });
    res.writeHead(204).end();
  }

  putTools(req, res, cid, body) {
    const rec = this.record("tools", req, { clientId: cid });
    if (this.repeated(req, res, rec)) return;
    const c = this.clients.get(cid);
    if (!c?.live) return this.answer(req, res, rec, 404, errorBody("not_found", `no client ${cid}`));
    let v;
    try {
      v = JSON.parse(body);
    } catch {
      return this.answer(req, res, rec, 400, errorBody("invalid_request", "the body is not JSON"));
    }
    c.tools = v.tools ?? [];
    this.emitJson("client_tools_replaced", { client_id: c.id, name: c.name });
    this.answer(req, res, rec, 200, JSON.stringify({ id: c.id, name: c.name, lifetime: c.lifetime, expires_at: c.ttlMs == null ? null : iso(c.expiresAt), tools: c.tools }));
  }

  pending(req, res, cid) {
    const rec = this.record("pending", req, { clientId: cid });
    if (this.opts.pendingStatus) {
      rec.status = this.opts.pendingStatus;
      return send(res, this.opts.pendingStatus, errorBody(ERROR_TYPES[this.opts.pendingStatus] ?? "server_error", `the hostile server answers every pending read ${this.opts.pendingStatus}`));
    }
    const c = this.clients.get(cid);
    if (!c?.live) return this.answer(req, res, rec, 404, errorBody("not_found", `no client ${cid}`));
    const owed = [...this.calls.values()].filter((x) => x.clientId === cid && (x.state === "dispatched" || x.state === "acked"));
    rec.calls = owed.map((x) => x.id);
    rec.status = 200;
    send(res, 200, `{"calls":[${owed.map((x) => x.payload).join(",")}]}`);
  }

  ack(req, res, cid, callId) {
    const rec = this.record("ack", req, { clientId: cid, callId });
    const call = this.calls.get(callId);
    call?.acks.push(rec);
    if (this.opts.ackFail?.length) {
      const status = this.opts.ackFail[this.ackFailN++ % this.opts.ackFail.length];
      return this.answer(req, res, rec, status, errorBody("server_error", `the hostile server answers every ack ${status}`));
    }
    if (this.repeated(req, res, rec)) return;
    if (!call || call.clientId !== cid) return this.answer(req, res, rec, 404, errorBody("not_found", `no call ${callId} of client ${cid}`));
    if (call.state === "succeeded" || call.state === "failed") return this.answer(req, res, rec, 409, errorBody("call_settled", `call ${callId} has settled`));
    if (call.state === "dispatched") {
      call.state = "acked";
      call.ackedAt = now();
      call.resultDeadline = call.ackedAt + call.resultWindow;
      this.clearTimer(call.timer);
      if (this.opts.enforceDeadlines) call.timer = this.timer(call.resultWindow, () => this.fail(call, "result_timeout"));
      this.emitJson("client_tool_acked", { client_id: cid, call_id: callId, result_deadline: iso(call.resultDeadline - this.opts.clockSkewMs) });
    }
    this.answer(req, res, rec, 200, JSON.stringify({ result_deadline: iso(call.resultDeadline - this.opts.clockSkewMs) }));
  }

  result(req, res, cid, callId, body) {
    const rec = this.record("result", req, { clientId: cid, callId, key: req.headers["idempotency-key"] ?? null });
    const call = this.calls.get(callId);
    call?.results.push(rec);
    if (this.opts.resultFail?.length) {
      const status = this.opts.resultFail[this.resultFailN++ % this.opts.resultFail.length];
      return this.answer(req, res, rec, status, errorBody("server_error", `the hostile server answers every result ${status}`));
    }
    if (this.repeated(req, res, rec)) return;
    if (!call || call.clientId !== cid) return this.answer(req, res, rec, 404, errorBody("not_found", `no call ${callId} of client ${cid}`));
    let v;
    try {
      v = JSON.parse(body);
    } catch {
      return this.answer(req, res, rec, 400, errorBody("invalid_request", "the body is not JSON"));
    }
    if (typeof v?.text !== "string") return this.answer(req, res, rec, 400, errorBody("invalid_request", "text: a string", "text"));
    if ([...v.text].length > TEXT_LIMIT) return this.answer(req, res, rec, 400, errorBody("invalid_request", `text: at most ${TEXT_LIMIT} characters`, "text"));
    if (v.is_error !== undefined && typeof v.is_error !== "boolean") return this.answer(req, res, rec, 400, errorBody("invalid_request", "is_error: a boolean", "is_error"));
    if (call.state === "dispatched") return this.answer(req, res, rec, 409, errorBody("call_not_acked", `call ${callId} was never acked`));
    if (call.state !== "acked") return this.answer(req, res, rec, 409, errorBody("call_settled", `call ${callId} has settled`));
    this.clearTimer(call.timer);
    call.state = "succeeded";
    call.accepted = { t: now(), text: v.text, isError: v.is_error === true, key: rec.key };
    rec.accepted = true;
    this.emitJson("client_tool_succeeded", { client_id: cid, call_id: callId, is_error: v.is_error === true });
    const answer = JSON.stringify({});
    if (this.hung < this.opts.hangResults) {
      // Accepted (and kept for a retry with the same key), but this answer never goes.
      this.hung++;
      rec.status = "hung";
      if (rec.key) this.keys.set(rec.key, { status: 200, body: answer });
      this.hungResponses.add(res);
      res.on("close", () => this.hungResponses.delete(res));
      return;
    }
    this.answer(req, res, rec, 200, answer);
  }

  stream(req, res) {
    const index = this.streamCount++;
    const mode = this.opts.streamPlan[index] ?? "honest";
    const lastEventId = req.headers["last-event-id"] ?? null;
    const rec = this.record("stream", req, { index, mode, lastEventId });
    const s = { res, mode, index, rec };
    res.on("close", () => {
      rec.closedAt = now();
      this.streams.delete(s);
      clearInterval(s.beat);
    });
    if (mode === "nohead") {
      // Keeps the request and never answers it: no status line, no headers.
      this.streams.add(s);
      return;
    }
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
    res.flushHeaders();
    this.streams.add(s);
    rec.status = 200;
    if (mode === "silent") return;
    let after = null;
    if (lastEventId != null && lastEventId.trim() !== "") after = /^\d+$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : -1;
    if (after != null) {
      const first = this.events[0]?.id ?? this.seq + 1;
      if (after < first - 1 || after > this.seq) {
        res.write(`id: ${this.seq}\nevent: stream_reset\ndata: {"type":"stream_reset"}\n\n`);
        rec.reset = true;
      } else {
        const replay = this.events.filter((e) => e.id > after);
        if (replay.length) res.write(replay.map((e) => e.frame).join(""));
        rec.replayed = replay.length;
      }
    }
    s.beat = setInterval(() => res.write(": keep-alive\n\n"), this.opts.keepAliveMs ?? this.server.keepAliveMs);
  }

  // ---- what a test reads ----

  /** Requests of `kind` (all when omitted), optionally of one client. */
  requests(kind, clientId) {
    return this.log.filter((r) => (!kind || r.kind === kind) && (!clientId || r.clientId === clientId));
  }

  summary() {
    const count = {};
    for (const r of this.log) count[r.kind] = (count[r.kind] ?? 0) + 1;
    return {
      requests: count, maxLive: this.maxLive, clients: [...this.clients.values()].map(({ ttlTimer, ...c }) => c),
      calls: [...this.calls.values()].map(({ timer, payload, acks, results, ...c }) => ({ ...c, acks: acks.length, results: results.length })),
    };
  }

  close() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.dropStreams();
    for (const res of this.hungResponses) res.destroy();
  }
}

function send(res, status, body) {
  if (res.destroyed) return;
  res.writeHead(status, body ? { "Content-Type": "application/json" } : {}).end(body);
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/**
 * Starts the server on a free loopback port. `mounts` maps a URL prefix to a directory for
 * static files (the Chromium runner's page and the package), served from the same origin.
 * Resolves to `{ url, session(id, options), sessions, close() }`.
 */
export function startHostileServer({ port = 0, keepAliveMs = 15000, mounts = {} } = {}) {
  const sessions = new Map();
  const api = { keepAliveMs, sessions, url: null };
  api.session = (id, options) => {
    sessions.get(id)?.close();
    const s = new Session(api, id, options);
    sessions.set(id, s);
    return s;
  };
  const statics = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => route(req, res, body).catch((error) => send(res, 500, errorBody("server_error", String(error?.stack ?? error)))));
  });
  server.keepAliveTimeout = 60000;
  server.headersTimeout = 0;
  server.requestTimeout = 0;

  async function route(req, res, body) {
    const url = new URL(req.url, "http://x");
    const path = url.pathname;
    let m = /^\/v1\/sessions\/([^/]+)(\/.*)$/.exec(path);
    if (m) {
      const s = sessions.get(decodeURIComponent(m[1]));
      if (!s) return send(res, 404, errorBody("not_found", `no session ${m[1]}`));
      const auth = req.headers.authorization ?? "";
      if (auth !== `Bearer ${s.token}`) {
        s.record("unauthorized", req);
        return send(res, 401, errorBody("unauthorized", "no or unknown token"));
      }
      return s.handle(req, res, m[2], body);
    }
    if (path === "/hostile/sessions" && req.method === "POST") {
      const v = JSON.parse(body || "{}");
      const s = api.session(v.id ?? randomUUID(), v);
      return send(res, 201, JSON.stringify({ id: s.id, token: s.token }));
    }
    if ((m = /^\/hostile\/sessions\/([^/]+)\/(calls|drop|log|raw)$/.exec(path))) {
      const s = sessions.get(decodeURIComponent(m[1]));
      if (!s) return send(res, 404, errorBody("not_found", `no session ${m[1]}`));
      if (m[2] === "calls" && req.method === "POST") {
        const call = s.dispatch(JSON.parse(body || "{}"));
        return call ? send(res, 201, JSON.stringify({ call_id: call.id })) : send(res, 409, errorBody("no_client", "no live client of that name"));
      }
      if (m[2] === "drop" && req.method === "POST") return send(res, 200, JSON.stringify({ dropped: s.dropStreams() }));
      if (m[2] === "raw" && req.method === "POST") {
        s.sendRaw(body);
        return send(res, 200, "{}");
      }
      if (m[2] === "log" && req.method === "GET") return send(res, 200, JSON.stringify({ log: s.log, ...s.summary() }));
    }
    const mount = statics.find(([prefix]) => path.startsWith(prefix));
    if (mount && req.method === "GET") {
      const root = resolve(mount[1]);
      const rest = path.slice(mount[0].length);
      const file = normalize(join(root, rest === "" || rest.endsWith("/") ? `${rest}index.html` : rest));
      if (!file.startsWith(root)) return send(res, 403, "");
      try {
        const data = await readFile(file);
        res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream", "Cache-Control": "no-store" }).end(data);
      } catch {
        send(res, 404, errorBody("not_found", `no file ${path}`));
      }
      return;
    }
    send(res, 404, errorBody("not_found", `no route ${req.method} ${path}`));
  }

  return new Promise((done) => {
    server.listen(port, "127.0.0.1", () => {
      api.url = `http://127.0.0.1:${server.address().port}`;
      api.close = () =>
        new Promise((closed) => {
          for (const s of sessions.values()) s.close();
          server.closeAllConnections?.();
          server.close(() => closed());
        });
      done(api);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { port: { type: "string", default: "0" }, "keep-alive-ms": { type: "string", default: "15000" } } });
  const s = await startHostileServer({ port: Number(values.port), keepAliveMs: Number(values["keep-alive-ms"]) });
  console.log(`listening on ${s.url}`);
}
