"""What the page benchmark reads out of Chromium: marks set inside the page, the workers' heaps and
WebAssembly memory through the DevTools protocol, the renderer's memory from /proc, and the file waterfall.

Which figure comes from where (Chromium 156):
  - page JS heap: CDP Performance.getMetrics, JSHeapUsedSize, on the page's session;
  - worker JS heap: CDP Runtime.getHeapUsage on the worker's own target. A Playwright CDP session cannot be
    opened on a worker, so the page's session auto-attaches to it (Target.setAutoAttach, flatten off) and
    talks to it through Target.sendMessageToTarget;
  - WebAssembly memory: in neither heap figure (Runtime.getHeapUsage's backingStorageSize holds only part of
    it, and varies with garbage collection). instruments/wasm-memory.js is evaluated in the worker while it
    waits for the debugger at its start, and remembers every WebAssembly.Memory; their sizes are read later.
    (Runtime.queryObjects would find them without a hook, but crashes the worker's renderer on Chromium 156.)
  - the renderer process: SystemInfo.getProcessInfo lists the processes (id, type and CPU time, no memory);
    the page's renderer is the one whose CPU time grew most during the load, and /proc/<id>/smaps_rollup
    gives its proportional set size.
"""

import json
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

INSTRUMENTS = Path(__file__).resolve().parent / "instruments"
PAGE_MARKS_SCRIPT = INSTRUMENTS / "page-marks.js"
WASM_MEMORY_HOOK = (INSTRUMENTS / "wasm-memory.js").read_text()
UPDATE_LATENCY_FUNCTION = (INSTRUMENTS / "update-latency.js").read_text()
AWAIT_SERIES_FUNCTION = (INSTRUMENTS / "await-series.js").read_text()

# The edits the benches type, each as the cell of head 1's matrix it changes and the values typed in turn.
# The default scene's Part 6 edit: the pronoun's query stops asking for a noun (92.0% -> 65.3% on "cat").
SMALL_EDIT = {"matrix": "wq-cell", "row": 2, "column": 1, "values": ["4", "0"]}
LARGE_SIZE = 64  # tokens, features and dims of the large scene
LARGE_EDIT = {"matrix": "wq-cell", "row": 0, "column": 0, "values": ["0.5", "-0.5"]}


def with_cell(scene, edit, value):
    """A copy of `scene` with one cell of head 1's matrix set to `value`: the edit, done as data."""
    copy = json.loads(json.dumps(scene))
    key = {"wq-cell": "Wq", "wk-cell": "Wk", "wv-cell": "Wv"}[edit["matrix"]]
    copy["heads"][0][key][edit["row"]][edit["column"]] = float(value)
    return copy


# Polled until the page is live (or failed); each returns null until then, and the page's state as JSON after.
OUR_PAGE_SETTLED = """(() => {
  const marks = window[Symbol.for("bench.marks")];
  return marks && (marks.liveMs !== null || marks.readyError !== null) ? JSON.stringify(marks) : null;
})()"""
BARE_PAGE_SETTLED = """(() => {
  const status = document.getElementById("status");
  if (!status || status.dataset.state === "loading") return null;
  return JSON.stringify({ ...status.dataset, text: status.textContent, marks: window[Symbol.for("bench.marks")] });
})()"""


def percentile(values, fraction):
    """Nearest rank: the smallest value with at least `fraction` of all values at or below it."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))  # ceiling
    return ordered[int(rank) - 1]


def wait_for_json(page, session, expression, timeout_s, interval_ms=20):
    """Poll `expression` in the page until it gives a string, and return it parsed as JSON.

    It goes through the DevTools protocol's plain Runtime.evaluate: Playwright's own waiting
    (wait_for_function, wait_for_selector) first injects its helper script into the page, which costs a
    page that is still loading tens of milliseconds of main-thread time and would show in its first paint.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        reply = session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        value = reply.get("result", {}).get("value")
        if isinstance(value, str):
            return json.loads(value)
        page.wait_for_timeout(interval_ms)
    raise TimeoutError(f"the page did not settle within {timeout_s:.0f} s")


class WorkerProbe:
    """DevTools access to a page's Web Workers: hooks WebAssembly in each at its start, reads heaps later.

    Create it before the page navigates. The page's CDP session auto-attaches to workers with "wait for
    debugger", so a worker runs none of its code until the hook is in (this costs each worker a few ms, the
    same for both pages).
    """

    def __init__(self, page, session):
        self.page = page
        self.session = session
        self.workers = {}  # session id -> worker URL
        self._replies = {}
        self._next_id = 0
        session.on("Target.attachedToTarget", self._attached)
        session.on("Target.receivedMessageFromTarget", self._received)
        session.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})

    def _post(self, session_id, method, params=None):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        self.session.send("Target.sendMessageToTarget", {"sessionId": session_id, "message": json.dumps(message)})
        return self._next_id

    def _attached(self, event):
        session_id = event["sessionId"]
        target = event["targetInfo"]
        if target["type"] != "worker":
            try:
                self.session.send("Target.detachFromTarget", {"sessionId": session_id})
            except PlaywrightError:
                pass  # the page closed first (a run ends as a service worker starts): nothing is left to detach
            return
        self.workers[session_id] = target["url"]
        self._post(session_id, "Runtime.evaluate", {"expression": WASM_MEMORY_HOOK})
        self._post(session_id, "Runtime.runIfWaitingForDebugger")

    def _received(self, event):
        message = json.loads(event["message"])
        if "id" in message:
            self._replies[(event["sessionId"], message["id"])] = message

    def call(self, session_id, method, params=None, timeout_s=20):
        """Send one command to a worker and wait for its reply (waiting lets Playwright deliver events)."""
        message_id = self._post(session_id, method, params)
        deadline = time.monotonic() + timeout_s
        while (session_id, message_id) not in self._replies:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the worker did not answer {method}")
            self.page.wait_for_timeout(5)
        reply = self._replies.pop((session_id, message_id))
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error'].get('message')}")
        return reply["result"]

    def evaluate(self, session_id, expression):
        """The value of a JS expression in the worker's global scope."""
        result = self.call(session_id, "Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def memory(self):
        """After a garbage collection in each worker: (JS heap used, WebAssembly memory), bytes, all workers."""
        heap = wasm = 0
        for session_id in list(self.workers):
            self.call(session_id, "HeapProfiler.enable")
            self.call(session_id, "HeapProfiler.collectGarbage")
            heap += self.call(session_id, "Runtime.getHeapUsage")["usedSize"]
            wasm += sum(self.evaluate(session_id, "globalThis[Symbol.for('bench.wasmMemoryBytes')]?.() ?? []"))
        return heap, wasm


def page_heap(session):
    """The page's JS heap in use after a garbage collection, in bytes (Performance.enable must be on)."""
    session.send("HeapProfiler.enable")
    session.send("HeapProfiler.collectGarbage")
    metrics = session.send("Performance.getMetrics")["metrics"]
    return next(metric["value"] for metric in metrics if metric["name"] == "JSHeapUsedSize")


def renderer_cpu_times(browser_session):
    """CPU seconds used so far by each renderer process, by process id."""
    processes = browser_session.send("SystemInfo.getProcessInfo")["processInfo"]
    return {process["id"]: process["cpuTime"] for process in processes if process["type"] == "renderer"}


def busiest_renderer(browser_session, cpu_before):
    """(process id, CPU seconds) of the renderer that worked hardest since `cpu_before`, or (None, None).

    Booting Python takes seconds of CPU in the page's renderer (its worker runs there too), while the
    browser's own UI, a spare renderer or a closing one take next to none."""
    cpu_now = renderer_cpu_times(browser_session)
    if not cpu_now:
        return None, None
    pid = max(cpu_now, key=lambda process_id: cpu_now[process_id] - cpu_before.get(process_id, 0))
    return pid, cpu_now[pid] - cpu_before.get(pid, 0)


def page_renderer_memory(browser_session, cpu_before):
    """Proportional and resident set size, in bytes, of the page's renderer (see busiest_renderer)."""
    pid, cpu_s = busiest_renderer(browser_session, cpu_before)
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            fields = dict(line.split(":", 1) for line in rollup if line.startswith(("Pss:", "Rss:")))
        return {"pid": pid, "cpu_s": cpu_s,
                "pss": int(fields["Pss"].split()[0]) * 1024, "rss": int(fields["Rss"].split()[0]) * 1024}
    except (OSError, KeyError, ValueError):
        return None  # the process ended, or is not ours to read


def waterfall(page):
    """Every file the page and its workers fetched: when it was asked for, when the request went out and
    when it had fully arrived, on the page's clock (ms from navigation start), in order of arrival."""
    script = ("[performance.timeOrigin, performance.getEntriesByType('resource').map((e) => ({name: "
              "new URL(e.name).pathname, start: e.startTime, requestStart: e.requestStart, end: e.responseEnd}))]")
    page_origin, page_entries = page.evaluate(script)
    rows = [{**entry, "from": "page"} for entry in page_entries]
    for worker in page.workers:
        origin, entries = worker.evaluate(script)
        shift = origin - page_origin
        rows += [{"name": entry["name"], "from": "worker", "start": entry["start"] + shift,
                  "requestStart": entry["requestStart"] + shift, "end": entry["end"] + shift} for entry in entries]
    rounded = ({key: round(value, 1) if isinstance(value, float) else value for key, value in row.items()}
               for row in rows)
    return sorted(rounded, key=lambda row: row["end"])
