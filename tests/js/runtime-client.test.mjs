// The page's side of the Python worker (js/runtime/client.js), its protocol (js/runtime/protocol.js) and its depth check
// (js/runtime/nesting.js), run by Node's own test runner against a fake worker that answers as js/runtime/worker.js does:
// every promise the client hands out settles, each reply reaches its own request, and packed matrices come back whole.
import assert from "node:assert/strict";
import test, { afterEach, beforeEach } from "node:test";

import { RequestError, createClient, packScene, unpackMatrices, withInputsSent } from "../../js/runtime/client.js";
import { MAX_NESTING, TOO_DEEP_MESSAGE, nestedTooDeeply } from "../../js/runtime/nesting.js";
import { BOOT_STAGES, MATRIX_KEY, MESSAGE_TYPES, WORKER_ERROR_TYPES } from "../../js/runtime/protocol.js";
import { MODULE_FACTS } from "../../generated/module-facts.js";

const WORKER_URL = "https://example.test/js/runtime/worker.js";

/** One end of a message channel as the page sees it: records what is posted, and lets the test speak for the worker. */
class FakeEndpoint {
  constructor() {
    this.posted = [];
    this.listeners = new Map();
  }

  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(listener);
  }

  /** Posting clones the message, as the platform does (so a function in it throws a DataCloneError). */
  postMessage(message) {
    this.posted.push(structuredClone(message));
  }

  /** Dispatch an event of `type` with `fields` to this endpoint's listeners; returns the event. */
  emit(type, fields = {}) {
    const event = { type, currentTarget: this, defaultPrevented: false, ...fields };
    event.preventDefault = () => { event.defaultPrevented = true; };
    for (const listener of this.listeners.get(type) ?? []) listener(event);
    return event;
  }

  /** The worker posts `data` to the page. */
  say(data) {
    return this.emit("message", { data });
  }

  /** The worker's successful reply to request `id` (with packed `matrices` if given), as worker.js replyFrom makes it. */
  reply(id, result, matrices) {
    this.say(matrices ? { id, ok: true, result, matrices } : { id, ok: true, result });
  }

  /** The worker's error reply to request `id`. */
  fail(id, error) {
    this.say({ id, ok: false, error });
  }

  /** The boot's progress messages, as shared-ports.js reportStage sends them, up to and including `last`. */
  boot(last = BOOT_STAGES.at(-1)) {
    for (const stage of BOOT_STAGES.slice(0, BOOT_STAGES.indexOf(last) + 1)) {
      this.say({ type: MESSAGE_TYPES.PROGRESS, stage, detail: `detail of ${stage}` });
    }
  }

  /** The worker reports that the runtime cannot be used (shared-ports.js reportFatal). */
  fatal(message) {
    this.say({ type: MESSAGE_TYPES.FATAL, message });
  }

  /** The requests posted so far (messages with an id). */
  get requests() {
    return this.posted.filter((message) => typeof message.id === "number");
  }
}

/** A stand-in for a dedicated module Worker; every one made is kept in `FakeWorker.made`. */
class FakeWorker extends FakeEndpoint {
  static made = [];

  constructor(url, options) {
    super();
    this.url = url;
    this.options = options;
    this.terminated = 0;
    FakeWorker.made.push(this);
  }

  terminate() {
    this.terminated += 1;
  }
}

/** A shared worker's port to this page. */
class FakePort extends FakeEndpoint {
  constructor() {
    super();
    this.started = false;
    this.closed = 0;
  }

  start() {
    this.started = true;
  }

  close() {
    this.closed += 1;
  }
}

/** A stand-in for a SharedWorker: errors arrive on it, messages on its port; every one made is kept in `made`. */
class FakeSharedWorker extends FakeEndpoint {
  static made = [];

  constructor(url, options) {
    super();
    this.url = url;
    this.options = options;
    this.port = new FakePort();
    FakeSharedWorker.made.push(this);
  }
}

const GLOBALS = ["Worker", "SharedWorker"];
let savedGlobals;

beforeEach(() => {
  savedGlobals = GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]);
  FakeWorker.made = [];
  FakeSharedWorker.made = [];
  globalThis.Worker = FakeWorker;
  delete globalThis.SharedWorker;
});

afterEach(() => {
  for (const [name, descriptor] of savedGlobals) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globalThis[name];
  }
});

/**
 * Let the promise reactions queued so far run, and those they queue in turn, for a good many rounds. Only microtasks:
 * the fakes answer synchronously, and a rejection the test has yet to handle is not reported as unhandled before then.
 */
async function settle() {
  for (let round = 0; round < 20; round += 1) await Promise.resolve();
}

/** "pending", "resolved" or "rejected": how `promise` stands once what is queued so far has run. */
async function stateOf(promise) {
  const outcome = promise.then(() => "resolved", () => "rejected");
  await settle();
  return Promise.race([outcome, Promise.resolve("pending")]);
}

/** `promise`, once it has settled; fails at once if it is still pending, rather than leaving the run to stall. */
async function settled(promise) {
  assert.notEqual(await stateOf(promise), "pending", "the promise is still pending");
  return promise;
}

/** Assert that `promise` rejects with a RequestError whose detail has `type` and whose message matches `message`. */
async function rejectsWith(promise, type, message) {
  await assert.rejects(settled(promise), (error) => {
    assert.ok(error instanceof RequestError, `expected a RequestError, got ${error}`);
    assert.equal(error.name, "RequestError");
    assert.equal(error.detail.type, type);
    if (message !== undefined) assert.match(error.message, message instanceof RegExp ? message : new RegExp(escape(message)));
    return true;
  });
}

/** `text` as a regular expression matching itself. */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A client on a fresh fake dedicated worker: `{client, worker}`. */
function startClient(options = {}) {
  const client = createClient({ workerUrl: WORKER_URL, ...options });
  return { client, worker: FakeWorker.made.at(-1) };
}

/** Arrays nested `levels` deep around 0: nest(2) is [[0]]. */
function nest(levels) {
  let value = 0;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

const SCENE = {
  tokens: ["dog", "bites"],
  X: [[1, 2], [3, 4]],
  heads: [{ name: "head 1", Wq: [[1, 0], [0, 1]], Wk: [[5, 6], [7, 8]], Wv: [[0.5, -0.5], [2, 3]] }],
  mask: "none",
};

// ---- Requests and replies ------------------------------------------------------------------------------------

test("the worker is started as a module worker from the given URL, and nothing is posted before a request", () => {
  const { worker } = startClient();
  assert.equal(FakeWorker.made.length, 1);
  assert.equal(worker.url, WORKER_URL);
  assert.deepEqual(worker.options, { type: "module" });
  assert.deepEqual(worker.posted, []);
});

test("each request is posted as {id, kind, payload}, ids counting up from 1, an absent payload sent as {}", () => {
  const { client, worker } = startClient();
  client.request("compute", { scene: { tokens: ["a"] } }).catch(() => {});
  client.request("presets").catch(() => {});
  assert.deepEqual(worker.posted, [
    { id: 1, kind: "compute", payload: { scene: { tokens: ["a"] } } },
    { id: 2, kind: "presets", payload: {} },
  ]);
  assert.ok(!("matrices" in worker.posted[0]));
});

test("two requests answered in the other order each get their own reply", async () => {
  const { client, worker } = startClient();
  const first = client.request("compute", { n: 1 });
  const second = client.request("compute", { n: 2 });
  worker.reply(2, "second's");
  assert.equal(await settled(second), "second's");
  assert.equal(await stateOf(first), "pending");
  worker.reply(1, "first's");
  assert.equal(await settled(first), "first's");
});

test("a reply to an id nobody asked for, or a second reply to the same id, settles nothing", async () => {
  const { client, worker } = startClient();
  const first = client.request("compute");
  const second = client.request("compute");
  worker.reply(99, "stray");
  worker.reply(1, "once");
  worker.reply(1, "twice");
  assert.equal(await settled(first), "once");
  assert.equal(await stateOf(second), "pending");
  worker.reply(2, { value: [1, 2] });
  assert.deepEqual(await settled(second), { value: [1, 2] });
});

test("messages that are neither progress, fatal nor a reply (null, text, an unknown type) are ignored", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute");
  worker.say(null);
  worker.say("hello");
  worker.say({ type: "something-else", id: undefined });
  assert.equal(client.stage, null);
  assert.equal(await stateOf(pending), "pending");
  assert.equal(await stateOf(client.ready), "pending");
  worker.reply(1, 42);
  assert.equal(await settled(pending), 42);
});

test("a message dispatched from another target than the worker is ignored", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute");
  for (const listener of worker.listeners.get("message")) listener({ currentTarget: {}, data: { id: 1, ok: true, result: "forged" } });
  assert.equal(await stateOf(pending), "pending");
  worker.reply(1, "real");
  assert.equal(await settled(pending), "real");
});

// ---- The boot's progress -------------------------------------------------------------------------------------

test("ready waits for the last boot stage; the earlier stages only report progress", async () => {
  const { client, worker } = startClient();
  worker.boot("module");
  assert.equal(client.stage, "module");
  assert.equal(await stateOf(client.ready), "pending");
  worker.boot("ready");
  assert.equal(await stateOf(client.ready), "resolved");
  assert.equal(client.stage, "ready");
});

test("every stage reaches every subscriber in order with its detail, and stage is null until the first", () => {
  const { client, worker } = startClient();
  const heardA = [];
  const heardB = [];
  client.onProgress((update) => heardA.push(update));
  client.onProgress((update) => heardB.push(update.stage));
  assert.equal(client.stage, null);
  assert.deepEqual(heardA, []); // nothing reported yet: no call at subscription
  worker.boot();
  assert.deepEqual(heardA, BOOT_STAGES.map((stage) => ({ stage, detail: `detail of ${stage}` })));
  assert.deepEqual(heardB, [...BOOT_STAGES]);
});

test("a late subscriber hears the current stage at once; one that unsubscribed hears nothing more", () => {
  const { client, worker } = startClient();
  worker.boot("starting");
  const late = [];
  const unsubscribe = client.onProgress((update) => late.push(update.stage));
  assert.deepEqual(late, ["starting"]);
  worker.boot("numpy"); // repeats downloading and starting, as a page connecting late to a shared worker hears them
  assert.deepEqual(late, ["starting", "downloading", "starting", "numpy"]);
  unsubscribe();
  worker.boot();
  assert.equal(late.length, 4);
  assert.equal(client.stage, "ready");
});

test("requests can be answered before ready: the client does not hold them back for the boot", async () => {
  const { client, worker } = startClient();
  const early = client.request("presets");
  assert.equal(worker.requests.length, 1);
  worker.reply(1, ["a", "b"]);
  assert.deepEqual(await settled(early), ["a", "b"]);
  assert.equal(await stateOf(client.ready), "pending");
});

// ---- Errors --------------------------------------------------------------------------------------------------

test("an error reply rejects with a RequestError whose message is the module's and whose detail is the whole error", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute", { scene: {} });
  const detail = {
    type: "SceneError",
    message: "Wq row 2, column 1: 'x' is not a number",
    field: "Wq",
    row: "2",
    column: "1",
    row_index: 1,
    column_index: 0,
  };
  worker.fail(1, detail);
  await assert.rejects(settled(pending), (error) => {
    assert.ok(error instanceof RequestError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, "RequestError");
    assert.equal(error.message, detail.message);
    assert.deepEqual(error.detail, detail);
    return true;
  });
});

test("an error reply without a message still rejects with a readable message", async () => {
  const { client, worker } = startClient();
  const noMessage = client.request("compute");
  const noError = client.request("compute");
  worker.fail(1, { type: WORKER_ERROR_TYPES.INTERNAL });
  worker.fail(2, undefined);
  await rejectsWith(noMessage, WORKER_ERROR_TYPES.INTERNAL, /^the request failed$/);
  await assert.rejects(settled(noError), (error) => error instanceof RequestError && error.message === "the request failed" && error.detail === undefined);
});

test("each of the worker's own error types reaches the caller as detail.type, and fails only its own request", async () => {
  const { client, worker } = startClient();
  const types = Object.values(WORKER_ERROR_TYPES);
  const failing = types.map(() => client.request("compute"));
  const succeeding = client.request("compute");
  types.forEach((type, index) => worker.fail(index + 1, { type, message: `because ${type}` }));
  worker.reply(types.length + 1, "fine");
  for (const [index, type] of types.entries()) await rejectsWith(failing[index], type, `because ${type}`);
  assert.equal(await settled(succeeding), "fine");
  assert.equal(await stateOf(client.ready), "pending"); // error replies are data: the worker is still fine
});

test("a payload that cannot be cloned is refused as BadRequest, and the next request is sent as usual", async () => {
  const { client, worker } = startClient();
  await rejectsWith(client.request("compute", { callback: () => {} }), WORKER_ERROR_TYPES.BAD_REQUEST, /could not be cloned/);
  assert.deepEqual(worker.posted, []);
  const next = client.request("compute", { ok: true });
  assert.equal(worker.posted.length, 1);
  worker.reply(worker.posted[0].id, "answered");
  assert.equal(await settled(next), "answered");
});

test("a payload nested deeper than the module allows is refused with the module's message, without being posted", async () => {
  const { client, worker } = startClient();
  // The payload is the first level: MAX_NESTING levels in all pass, one more does not.
  const deepest = client.request("compute", { value: nest(MAX_NESTING - 1) });
  assert.equal(worker.posted.length, 1);
  await rejectsWith(client.request("compute", { value: nest(MAX_NESTING) }), WORKER_ERROR_TYPES.BAD_REQUEST, TOO_DEEP_MESSAGE);
  assert.equal(worker.posted.length, 1);
  worker.reply(1, "deep enough");
  assert.equal(await settled(deepest), "deep enough");
});

// ---- A worker that fails or dies -----------------------------------------------------------------------------

test("a fatal message rejects ready and every pending request as RuntimeUnavailable with the worker's reason", async () => {
  const { client, worker } = startClient();
  const first = client.request("compute");
  const second = client.request("presets");
  worker.boot("numpy");
  worker.fatal("Python could not start: NumPy did not load");
  await assert.rejects(settled(client.ready), { message: "Python could not start: NumPy did not load" });
  await rejectsWith(first, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "Python could not start: NumPy did not load");
  await rejectsWith(second, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "NumPy did not load");
  assert.equal(worker.terminated, 1);
});

test("after a fatal message, requests reject at once unsent, and the dead worker's replies and progress are ignored", async () => {
  const { client, worker } = startClient();
  worker.fatal("Python stopped: memory access out of bounds");
  worker.fatal("a second fatal");
  worker.boot();
  assert.equal(client.stage, null);
  await assert.rejects(settled(client.ready), { message: "Python stopped: memory access out of bounds" });
  await rejectsWith(client.request("compute"), WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "memory access out of bounds");
  assert.deepEqual(worker.posted, []);
  assert.equal(worker.terminated, 1);
});

test("a fatal after the boot rejects the pending requests but leaves ready resolved", async () => {
  const { client, worker } = startClient();
  worker.boot();
  await settled(client.ready);
  const pending = client.request("compute");
  worker.fatal("Python stopped: unreachable");
  await rejectsWith(pending, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "Python stopped: unreachable");
  assert.equal(await stateOf(client.ready), "resolved");
});

test("a worker script that fails to load rejects ready with the load error, and the error event is handled", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute");
  const event = worker.emit("error", { message: "SyntaxError: Unexpected token" });
  assert.equal(event.defaultPrevented, true);
  await assert.rejects(settled(client.ready), { message: "the Python worker failed: SyntaxError: Unexpected token" });
  await rejectsWith(pending, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "the Python worker failed: SyntaxError");
  assert.equal(worker.terminated, 1);
});

test("a load error without a message says the worker could not be loaded", async () => {
  const { client, worker } = startClient();
  worker.emit("error", { message: "" });
  await assert.rejects(settled(client.ready), { message: "the Python worker failed: it could not be loaded" });
});

test("a message the page cannot read (messageerror) ends the worker and rejects what is pending", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute");
  worker.emit("messageerror");
  await rejectsWith(pending, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "could not be read");
  await assert.rejects(settled(client.ready), /could not be read/);
  assert.equal(worker.terminated, 1);
});

// ---- Restart and close ---------------------------------------------------------------------------------------

test("restart rejects the pending requests, ends the old worker and starts a new one that is sent the next request", async () => {
  const { client, worker: old } = startClient();
  old.boot();
  const pending = client.request("compute", { n: 1 });
  client.restart();
  await rejectsWith(pending, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "the worker was restarted");
  assert.equal(old.terminated, 1);
  assert.equal(FakeWorker.made.length, 2);
  const fresh = FakeWorker.made[1];
  assert.equal(fresh.url, WORKER_URL);
  const next = client.request("compute", { n: 2 });
  assert.equal(old.posted.length, 1);
  assert.deepEqual(fresh.posted, [{ id: 1, kind: "compute", payload: { n: 2 } }]);
  fresh.reply(1, "from the new worker");
  assert.equal(await settled(next), "from the new worker");
});

test("after restart ready is a new promise: the old one rejected, the new one waits for the new worker's boot", async () => {
  const { client, worker: old } = startClient();
  const before = client.ready;
  client.restart();
  const after = client.ready;
  assert.notEqual(before, after);
  await assert.rejects(settled(before), { message: "the worker was restarted" });
  old.boot(); // the old worker is gone: its boot counts for nothing
  assert.equal(await stateOf(after), "pending");
  FakeWorker.made[1].boot();
  assert.equal(await stateOf(after), "resolved");
});

test("the old worker's reply to an id the new worker reuses does not settle the new request", async () => {
  const { client, worker: old } = startClient();
  client.request("compute").catch(() => {});
  client.restart();
  const fresh = FakeWorker.made[1];
  const next = client.request("compute");
  assert.equal(fresh.posted[0].id, 1); // ids start again with each worker
  old.reply(1, "stale");
  assert.equal(await stateOf(next), "pending");
  fresh.reply(1, "current");
  assert.equal(await settled(next), "current");
});

test("restart forgets the stage, and subscribers go on following the new worker's boot", () => {
  const { client, worker: old } = startClient();
  const heard = [];
  client.onProgress(({ stage }) => heard.push(stage));
  old.boot();
  client.restart();
  assert.equal(client.stage, null);
  const late = [];
  client.onProgress(({ stage }) => late.push(stage));
  assert.deepEqual(late, []); // no stale "ready" from the old worker
  FakeWorker.made[1].boot("starting");
  assert.deepEqual(heard, [...BOOT_STAGES, "downloading", "starting"]);
  assert.deepEqual(late, ["downloading", "starting"]);
});

test("a restart after a fatal error recovers: the new worker boots and answers", async () => {
  const { client, worker } = startClient();
  worker.fatal("Python stopped");
  await rejectsWith(client.request("compute"), WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE);
  client.restart();
  assert.equal(worker.terminated, 1); // ended once, by the fatal; the restart does not end it again
  const fresh = FakeWorker.made[1];
  fresh.boot();
  await settled(client.ready);
  const pending = client.request("compute");
  fresh.reply(1, "alive");
  assert.equal(await settled(pending), "alive");
});

test("close rejects what is pending and every later request, and ends the worker only once", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute");
  client.close();
  client.close();
  await rejectsWith(pending, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "the worker was closed");
  await rejectsWith(client.request("compute"), WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "the worker was closed");
  await assert.rejects(settled(client.ready), { message: "the worker was closed" });
  assert.equal(worker.terminated, 1);
  assert.equal(worker.posted.length, 1);
  assert.equal(FakeWorker.made.length, 1);
});

test("an interrupt buffer is posted first to every worker the client starts, restarts included", () => {
  const interruptBuffer = new Int32Array(new SharedArrayBuffer(4));
  const { client, worker } = startClient({ interruptBuffer });
  client.request("compute").catch(() => {});
  assert.equal(worker.posted.length, 2);
  assert.equal(worker.posted[0].type, MESSAGE_TYPES.INTERRUPT_BUFFER);
  assert.ok(worker.posted[0].buffer instanceof Int32Array);
  assert.ok(worker.posted[0].buffer.buffer instanceof SharedArrayBuffer);
  assert.equal(worker.posted[1].id, 1);
  client.restart();
  const fresh = FakeWorker.made[1];
  assert.deepEqual(fresh.posted.map((message) => message.type), [MESSAGE_TYPES.INTERRUPT_BUFFER]);
  // The buffer is shared memory: what the page writes, the new worker's copy sees.
  interruptBuffer[0] = 2;
  assert.equal(fresh.posted[0].buffer[0], 2);
});

// ---- A shared worker -----------------------------------------------------------------------------------------

test("with shareAs, the client starts a named module SharedWorker and talks through its started port", async () => {
  globalThis.SharedWorker = FakeSharedWorker;
  const client = createClient({ workerUrl: WORKER_URL, shareAs: "course-python" });
  assert.equal(FakeWorker.made.length, 0);
  const [shared] = FakeSharedWorker.made;
  assert.equal(shared.url, WORKER_URL);
  assert.deepEqual(shared.options, { type: "module", name: "course-python" });
  assert.equal(shared.port.started, true);
  const pending = client.request("compute", { n: 1 });
  assert.deepEqual(shared.port.posted, [{ id: 1, kind: "compute", payload: { n: 1 } }]);
  assert.deepEqual(shared.posted, []);
  shared.port.boot();
  shared.port.reply(1, "shared answer");
  assert.equal(await settled(pending), "shared answer");
  await settled(client.ready);
});

test("a shared client's restart closes its port, leaving the shared worker to others, and starts one of a new name", () => {
  globalThis.SharedWorker = FakeSharedWorker;
  const client = createClient({ workerUrl: WORKER_URL, shareAs: "py" });
  client.restart();
  client.restart();
  assert.deepEqual(FakeSharedWorker.made.map((shared) => shared.options.name), ["py", "py-1", "py-2"]);
  assert.deepEqual(FakeSharedWorker.made.map((shared) => shared.port.closed), [1, 1, 0]);
  assert.equal(FakeWorker.made.length, 0);
  client.close();
  assert.equal(FakeSharedWorker.made[2].port.closed, 1);
});

test("shareAs starts a dedicated worker where there is no SharedWorker, or when an interrupt buffer is given", () => {
  createClient({ workerUrl: WORKER_URL, shareAs: "py" });
  assert.equal(FakeWorker.made.length, 1);
  globalThis.SharedWorker = FakeSharedWorker;
  const interruptBuffer = new Int32Array(new SharedArrayBuffer(4));
  createClient({ workerUrl: WORKER_URL, shareAs: "py", interruptBuffer });
  assert.equal(FakeWorker.made.length, 2);
  assert.equal(FakeSharedWorker.made.length, 0);
  assert.equal(FakeWorker.made[1].posted[0].type, MESSAGE_TYPES.INTERRUPT_BUFFER);
});

test("a shared worker that fails before saying anything is replaced by a dedicated one, sent the pending requests again", async () => {
  globalThis.SharedWorker = FakeSharedWorker;
  const client = createClient({ workerUrl: WORKER_URL, shareAs: "py" });
  const [shared] = FakeSharedWorker.made;
  const plain = client.request("presets");
  const packed = client.requestScene("compute", SCENE);
  await rejectsWith(client.request("compute", { notCloneable: Symbol("x") }), WORKER_ERROR_TYPES.BAD_REQUEST);
  const sentToShared = shared.port.posted;
  assert.equal(sentToShared.length, 2);
  const event = shared.emit("error", { message: "SecurityError" });
  assert.equal(event.defaultPrevented, true);
  assert.equal(shared.port.closed, 1);
  assert.equal(FakeWorker.made.length, 1);
  const dedicated = FakeWorker.made[0];
  assert.equal(dedicated.url, WORKER_URL);
  assert.deepEqual(dedicated.posted, sentToShared); // the same ids, payloads and packed numbers
  assert.ok(dedicated.posted[1].matrices instanceof Float64Array);
  shared.port.reply(1, "from the abandoned port");
  assert.equal(await stateOf(plain), "pending");
  dedicated.boot();
  dedicated.reply(1, ["preset"]);
  assert.deepEqual(await settled(plain), ["preset"]);
  await settled(client.ready);
  // A later error of the abandoned shared worker, or of its port, no longer concerns this client.
  shared.emit("error", { message: "late" });
  shared.port.emit("messageerror");
  assert.equal(dedicated.terminated, 0);
  dedicated.reply(2, { tokens: ["dog", "bites"], heads: [] });
  assert.deepEqual((await settled(packed)).X, SCENE.X);
  client.close();
  assert.equal(dedicated.terminated, 1);
});

test("a shared worker that fails after it has spoken ends the client instead of falling back", async () => {
  globalThis.SharedWorker = FakeSharedWorker;
  const client = createClient({ workerUrl: WORKER_URL, shareAs: "py" });
  const [shared] = FakeSharedWorker.made;
  shared.port.boot("downloading");
  const pending = client.request("compute");
  shared.emit("error", { message: "it crashed" });
  await rejectsWith(pending, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, "the Python worker failed: it crashed");
  await assert.rejects(settled(client.ready), /it crashed/);
  assert.equal(FakeWorker.made.length, 0);
  assert.equal(shared.port.closed, 1);
});

// ---- Packed matrices -----------------------------------------------------------------------------------------

test("a packed reply resolves with plain rows: every descriptor filled from the numbers, non-finite values as null", async () => {
  const { client, worker } = startClient();
  const pending = client.request("compute");
  const numbers = new Float64Array([1, NaN, Infinity, -Infinity, 0.1, -2, 7, 8]);
  worker.reply(1, {
    tokens: ["a", "b"],
    heads: [{ name: "h", stages: { scores: { [MATRIX_KEY]: [0, 2, 2] }, output: { [MATRIX_KEY]: [4, 1, 2] } }, weights: { [MATRIX_KEY]: [6, 2, 1] } }],
    note: { [MATRIX_KEY]: "not a descriptor" },
  }, numbers);
  const result = await settled(pending);
  assert.deepEqual(result.heads[0].stages.scores, [[1, null], [null, null]]);
  assert.deepEqual(result.heads[0].stages.output, [[0.1, -2]]);
  assert.deepEqual(result.heads[0].weights, [[7], [8]]);
  assert.ok(Array.isArray(result.heads[0].weights[0]));
  assert.deepEqual(result.note, { [MATRIX_KEY]: "not a descriptor" });
  assert.deepEqual(result.tokens, ["a", "b"]);
});

test("a packed reply whose descriptor lies outside its numbers rejects as InternalError instead of inventing values", async () => {
  const { client, worker } = startClient();
  const outside = client.request("compute");
  const fractional = client.request("compute");
  worker.reply(1, { weights: { [MATRIX_KEY]: [2, 2, 2] } }, new Float64Array(4));
  worker.reply(2, { weights: { [MATRIX_KEY]: [0, 1.5, 2] } }, new Float64Array(4));
  await rejectsWith(outside, WORKER_ERROR_TYPES.INTERNAL, "a packed matrix [2, 2, 2] lies outside its 4 values");
  await rejectsWith(fractional, WORKER_ERROR_TYPES.INTERNAL, "lies outside");
});

test("unpackMatrices fills descriptors in place, turns a bare descriptor into a matrix, and leaves look-alikes alone", () => {
  const numbers = new Float64Array([1, 2, 3, 4]);
  const reply = { a: [{ [MATRIX_KEY]: [1, 1, 3] }], b: { [MATRIX_KEY]: [0, 1, 1], extra: true }, c: { [MATRIX_KEY]: [0, 0, 0] } };
  assert.equal(unpackMatrices(reply, numbers), reply);
  assert.deepEqual(reply.a, [[[2, 3, 4]]]);
  assert.deepEqual(reply.b, { [MATRIX_KEY]: [0, 1, 1], extra: true }); // two keys: not a descriptor
  assert.deepEqual(reply.c, []);
  assert.deepEqual(unpackMatrices({ [MATRIX_KEY]: [0, 2, 2] }, numbers), [[1, 2], [3, 4]]);
  assert.equal(unpackMatrices("text", numbers), "text");
  assert.equal(unpackMatrices(null, numbers), null);
  assert.throws(() => unpackMatrices({ [MATRIX_KEY]: [-1, 1, 1] }, numbers), RangeError);
  // The last value is the edge: a matrix may end on it, not one past it.
  assert.deepEqual(unpackMatrices({ [MATRIX_KEY]: [0, 1, 4] }, numbers), [[1, 2, 3, 4]]);
  assert.throws(() => unpackMatrices({ [MATRIX_KEY]: [1, 1, 4] }, numbers), /a packed matrix \[1, 1, 4\] lies outside its 4 values/);
});

test("requestScene sends X, Wq, Wk and Wv packed into one Float64Array, its extra beside the scene, the scene unchanged", () => {
  const { client, worker } = startClient();
  const scene = structuredClone(SCENE);
  client.requestScene("compute", scene, { positions: "sinusoidal" }).catch(() => {});
  assert.deepEqual(scene, SCENE);
  const [message] = worker.posted;
  assert.equal(message.kind, "compute");
  assert.equal(message.payload.positions, "sinusoidal");
  assert.deepEqual(message.payload.scene.X, { [MATRIX_KEY]: [0, 2, 2] });
  assert.deepEqual(message.payload.scene.heads[0], {
    name: "head 1",
    Wq: { [MATRIX_KEY]: [4, 2, 2] },
    Wk: { [MATRIX_KEY]: [8, 2, 2] },
    Wv: { [MATRIX_KEY]: [12, 2, 2] },
  });
  assert.deepEqual(message.payload.scene.tokens, ["dog", "bites"]);
  assert.ok(message.matrices instanceof Float64Array);
  assert.deepEqual([...message.matrices], [1, 2, 3, 4, 1, 0, 0, 1, 5, 6, 7, 8, 0.5, -0.5, 2, 3]);
  // What the worker would do with it: the descriptors unpack to exactly the scene's matrices.
  assert.deepEqual(unpackMatrices(structuredClone(message.payload.scene), message.matrices), SCENE);
});

test("requestScene resolves with the whole result: the inputs the reply left out are copies of those sent", async () => {
  const { client, worker } = startClient();
  const pending = client.requestScene("compute", SCENE);
  // As Python replies to a packed compute: the inputs sent packed left out, its own matrices packed.
  worker.reply(1, {
    tokens: ["dog", "bites"],
    heads: [{ name: "head 1", dims: ["d0", "d1"], value_dims: ["v0", "v1"], d_k: 2, stages: { Q: { [MATRIX_KEY]: [0, 2, 2] } }, weights: { [MATRIX_KEY]: [4, 2, 2] } }],
  }, new Float64Array([1, 0, 0, 1, 0.25, 0.75, NaN, 1]));
  const result = await settled(pending);
  assert.deepEqual(result.X, SCENE.X);
  assert.notEqual(result.X, SCENE.X);
  assert.notEqual(result.X[0], SCENE.X[0]);
  const [head] = result.heads;
  assert.deepEqual(Object.keys(head), ["name", "dims", "value_dims", "d_k", "stages", "weights", "Wq", "Wk", "Wv"]);
  assert.deepEqual([head.Wq, head.Wk, head.Wv], [SCENE.heads[0].Wq, SCENE.heads[0].Wk, SCENE.heads[0].Wv]);
  assert.notEqual(head.Wq, SCENE.heads[0].Wq);
  assert.deepEqual(head.weights, [[0.25, 0.75], [null, 1]]);
  assert.deepEqual(head.stages.Q, [[1, 0], [0, 1]]);
});

test("what the reply does carry wins over what was sent (X with positions added, a matrix Python rewrote)", async () => {
  const { client, worker } = startClient();
  const pending = client.requestScene("compute", SCENE);
  worker.reply(1, { tokens: ["dog", "bites"], X: [[1.5, 2.5], [3.5, 4.5]], heads: [{ name: "head 1", Wk: [[0, 0], [0, 0]] }] });
  const result = await settled(pending);
  assert.deepEqual(result.X, [[1.5, 2.5], [3.5, 4.5]]);
  assert.deepEqual(result.heads[0].Wk, [[0, 0], [0, 0]]);
  assert.deepEqual(result.heads[0].Wq, SCENE.heads[0].Wq);
  assert.deepEqual(Object.keys(result.heads[0]), ["name", "Wq", "Wk", "Wv"]);
});

test("matrices with text, holes, ragged rows, non-finite numbers or no cells are sent as they are, not packed", () => {
  const { client, worker } = startClient();
  const scene = {
    tokens: ["a", "b"],
    X: [[1, "2"], [3, 4]],
    heads: [
      { name: "ragged", Wq: [[1, 2], [3]], Wk: [[1, Infinity], [0, 1]], Wv: [[]] },
      null,
      { name: "holes", Wq: [[1, null]], Wk: [], Wv: "not a matrix" },
    ],
  };
  client.requestScene("compute", scene).catch(() => {});
  const [message] = worker.posted;
  assert.ok(!("matrices" in message));
  assert.deepEqual(message.payload, { scene });
  const direct = packScene(scene);
  assert.equal(direct.matrices, null);
  assert.equal(direct.payload.scene, scene);
  assert.deepEqual(direct.sent, { heads: [{}, {}, {}] });
});

test("only the matrices that can be packed are: the others stay in place beside their descriptors", () => {
  const scene = { X: [[1, 2]], heads: [{ Wq: [["x", 1]], Wk: [[3, 4]], Wv: [[5, 6]] }], extra: { kept: [1, 2] } };
  const { payload, matrices, sent } = packScene(scene);
  assert.deepEqual(payload.scene.heads[0].Wq, [["x", 1]]);
  assert.deepEqual(payload.scene.heads[0].Wk, { [MATRIX_KEY]: [2, 1, 2] });
  assert.deepEqual([...matrices], [1, 2, 3, 4, 5, 6]);
  assert.equal(payload.scene.extra, scene.extra);
  assert.deepEqual(sent, { X: scene.X, heads: [{ Wk: [[3, 4]], Wv: [[5, 6]] }] });
  assert.equal(sent.X, scene.X);
});

test("a scene that is not an object is sent as it is, and its reply returned untouched", async () => {
  const { client, worker } = startClient();
  for (const scene of [null, "text", [1, 2]]) assert.deepEqual(packScene(scene), { payload: { scene }, matrices: null, sent: { heads: [] } });
  const pending = client.requestScene("compute", "not a scene");
  assert.deepEqual(worker.posted[0], { id: 1, kind: "compute", payload: { scene: "not a scene" } });
  worker.fail(1, { type: "SceneError", message: "a scene is an object", field: "scene" });
  await rejectsWith(pending, "SceneError", "a scene is an object");
});

test("sceneRequest(kind) makes the call that sends that kind with a scene and its extra", async () => {
  const { client, worker } = startClient();
  const explain = client.sceneRequest("explain");
  const pending = explain(SCENE, { head: 0 });
  const [message] = worker.posted;
  assert.equal(message.kind, "explain");
  assert.equal(message.payload.head, 0);
  assert.deepEqual(message.payload.scene.X, { [MATRIX_KEY]: [0, 2, 2] });
  worker.reply(1, { order: [1, 0] });
  assert.deepEqual(await settled(pending), { order: [1, 0] }); // no tokens and heads: not a computed scene, returned as it is
  const withoutExtra = explain(SCENE);
  assert.deepEqual(Object.keys(worker.posted[1].payload), ["scene"]);
  worker.reply(2, null);
  assert.equal(await settled(withoutExtra), null);
});

test("withInputsSent leaves a head alone when it has nothing to put back, and a result that is not a computed scene", () => {
  const head = { name: "h", Wq: [[1]], Wk: [[2]], Wv: [[3]] };
  const result = { tokens: ["a"], X: [[0]], heads: [head] };
  const sent = { X: [[9]], heads: [{ Wq: [[7]], Wk: [[7]], Wv: [[7]] }] };
  assert.equal(withInputsSent(result, sent), result);
  assert.equal(result.heads[0], head);
  assert.deepEqual(result.X, [[0]]);
  // A head the request did not send (more heads in the reply than sent) stays as it came.
  const more = withInputsSent({ tokens: ["a"], heads: [{ name: "h1" }, { name: "h2" }] }, { heads: [{ Wq: [[1]] }] });
  assert.deepEqual(more.heads, [{ name: "h1", Wq: [[1]] }, { name: "h2" }]);
  for (const other of [null, 3, "x", { heads: [] }, { tokens: [] }]) assert.equal(withInputsSent(other, sent), other);
});

// ---- The protocol's names ------------------------------------------------------------------------------------

test("the protocol's names are frozen and are the ones worker.js and shared-ports.js send", () => {
  assert.deepEqual([...BOOT_STAGES], ["downloading", "starting", "numpy", "module", "ready"]);
  assert.deepEqual({ ...MESSAGE_TYPES }, { PROGRESS: "progress", FATAL: "fatal", INTERRUPT_BUFFER: "interrupt-buffer" });
  assert.deepEqual({ ...WORKER_ERROR_TYPES }, {
    RUNTIME_UNAVAILABLE: "RuntimeUnavailable",
    INTERNAL: "InternalError",
    BAD_REQUEST: "BadRequest",
    PART_UNAVAILABLE: "PartUnavailable",
  });
  assert.equal(MATRIX_KEY, "$matrix");
  for (const frozen of [BOOT_STAGES, MESSAGE_TYPES, WORKER_ERROR_TYPES]) {
    assert.ok(Object.isFrozen(frozen));
    assert.throws(() => { frozen.EXTRA = 1; }, TypeError); // a module is strict: writing to it throws
  }
  // A module error's type is never mistaken for one of the worker's own.
  assert.ok(!Object.values(WORKER_ERROR_TYPES).includes("SceneError"));
});

// ---- How deep a value nests ----------------------------------------------------------------------------------

test("the depth limit and its message are the module's, from the generated facts", () => {
  assert.equal(MAX_NESTING, MODULE_FACTS.maxNesting);
  assert.equal(TOO_DEEP_MESSAGE, MODULE_FACTS.tooDeepMessage);
  assert.ok(Number.isInteger(MAX_NESTING) && MAX_NESTING >= 8, "a scene nests six levels and a request adds two");
  assert.ok(TOO_DEEP_MESSAGE.length > 0);
});

test("nestedTooDeeply counts levels of arrays and objects alike, the top one included, and not the numbers in them", () => {
  assert.equal(nestedTooDeeply(nest(MAX_NESTING)), false);
  assert.equal(nestedTooDeeply(nest(MAX_NESTING + 1)), true);
  assert.equal(nestedTooDeeply({ a: { b: [0] } }, 3), false);
  assert.equal(nestedTooDeeply({ a: { b: [0] } }, 2), true);
  assert.equal(nestedTooDeeply([1, 2, 3, "text", null], 1), false);
  for (const primitive of [0, "x", null, undefined, true]) assert.equal(nestedTooDeeply(primitive, 0), false);
  // A wide value is not a deep one.
  assert.equal(nestedTooDeeply(Array.from({ length: 10_000 }, () => [[1]]), 3), false);
  // Depth is the deepest branch, wherever it is.
  assert.equal(nestedTooDeeply([[1], [[1], [[[[1]]]]], 2], 5), true);
});

test("nestedTooDeeply answers for values far deeper than any stack, and for cycles, without recursing forever", () => {
  assert.equal(nestedTooDeeply(nest(200_000)), true);
  const cycle = { name: "loop" };
  cycle.self = cycle;
  assert.equal(nestedTooDeeply(cycle), false); // visited once; JSON.stringify in the worker refuses the cycle itself
  // A cycle at the end of a chain too long is still too deep.
  const chain = nest(MAX_NESTING + 5);
  let innermost = chain;
  while (Array.isArray(innermost[0])) innermost = innermost[0];
  innermost.push(chain);
  assert.equal(nestedTooDeeply(chain), true);
});

test("nestedTooDeeply follows a part shared by several places to where it nests deepest, as JSON would write it out", () => {
  // Each piece holds the one before it twice, once near its top and once at the bottom of a run of 59 arrays: the
  // first sighting of a piece is shallow, the one that makes the whole too deep comes later.
  const deep = (inner, levels) => (levels === 0 ? inner : [deep(inner, levels - 1)]);
  const shared = deep(0, MAX_NESTING - 2); // deep, but within the limit on its own
  // Read last to first, so `shared` is met first at depth 1, then again at depth 6: too deep there.
  const value = [deep(shared, 5), shared];
  assert.equal(nestedTooDeeply(shared), false);
  assert.equal(nestedTooDeeply(value), true);
  assert.equal(nestedTooDeeply([shared, deep(shared, 5)]), true); // and in either order
  assert.equal(nestedTooDeeply([shared, shared]), false);
});
