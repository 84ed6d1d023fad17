"""The SCORM packages where courses run them: each package `build.py --scorm` writes, uploaded unchanged through the
author's own upload path of three real course platforms from PyPI (wagtail-lms 0.11.1, scormhost 0.1.0, and Open
edX's SCORM block 19.0.5 in the XBlock workbench; tests/browser/real_lms/), launched by a learner in Chromium.

- A learner answers two questions, leaves and comes back: the platform keeps the status, the score, the location,
  the learner's work (suspend_data), an interaction per answer and the session's time, and the next launch resumes
  at that step with both answers. The whole playground's package resumes the lesson the learner was in.
- Scores are graded as the page means them, in every platform: every point is 1.0, part of them their share (9 of
  15 is 0.6). The learner's earlier answers are put in the platform's record by a stand-in for the package's page
  that sets suspend_data through the platform's own runtime (what a launch of the page would have written); the page, launched next,
  reports the score from them, and the platform grades what it reports.
- Ten launches in a row all find the platform's runtime, which some platforms make only after the package's page
  has started (wagtail-lms's script comes after its frame; Open edX's block makes it in jQuery's ready handler).
- Under each platform the page goes live, its console shows no error of its own, and it asks for no folder (a
  platform answers 404, 400 or 500 for one).

wagtail-lms 0.11.1 launches no SCORM 2004 package (its manifest reader finds no launch in a 2004 manifest, and its
runtime has only 1.2's calls): there the 1.2 packages are tested, as docs/course-authors.md tells authors.

Marked `lms`: the platforms are installed from PyPI (requirements/lms-*.txt, pinned with hashes) into virtualenvs
of their own, so these tests run only with ATTENTION_PLAYGROUND_LMS=1 (CI runs them: .ci/run).
"""

import contextlib
import json
import math
import re
import time

import pytest
from playwright.sync_api import expect

from lesson_helpers import (COURSE_LESSON, answer_in_the_player, course_lesson, lesson_steps, page_scene, progress, right_answer,
                            wait_for_progress, wait_for_verdict)
from lms_pages import pack, unpack
from page_helpers import sel
from real_lms import openedx, scormhost, wagtail
from sitebuild import paths, scorm

pytestmark = [pytest.mark.lms, pytest.mark.xdist_group("real_lms")]

PLATFORMS = {"wagtail-lms": wagtail, "scormhost": scormhost, "Open edX": openedx}
#: The SCORM versions each platform launches.
VERSIONS = {"wagtail-lms": ("1.2",), "scormhost": ("1.2", "2004"), "Open edX": ("1.2", "2004")}
SUFFIX = {"1.2": "scorm12", "2004": "scorm2004"}
#: The lesson whose score the grading test seeds: 13 questions and one exercise, 14 points.
GRADED_LESSON = "self-attention-lab"
BOOT_MS = 120_000
#: How long a platform may take to store what the page sent (some send it in the background, one call at a time).
STORED_SECONDS = 30


@pytest.fixture(scope="module")
def packages(built_site, tmp_path_factory):
    """Every package, written once from the site the session built: {zip's stem: scorm.Package}."""
    index = json.loads((paths.GENERATED_DIR / "lessons" / "index.json").read_text())
    written = scorm.write_packages(paths.DIST_DIR, tmp_path_factory.mktemp("real-lms-packages"),
                                   [(lesson["id"], lesson["title"]) for lesson in index])
    # A course's own lesson, packaged on its own (`build.py --scorm --lesson`): tests/data/course-site/'s.
    written += scorm.write_own_lesson_packages(paths.DIST_DIR, tmp_path_factory.mktemp("own-lesson-packages") / "out", [course_lesson()])
    return {package.path.stem: package for package in written}


@pytest.fixture(scope="module", params=list(PLATFORMS))
def platform(request, tmp_path_factory):
    """One real platform, started with an empty database for the module's tests of it."""
    with PLATFORMS[request.param].running(tmp_path_factory.mktemp(re.sub(r"\W", "-", request.param))) as running:
        yield running


@pytest.fixture(scope="module")
def learner(platform, browser):
    """A browser context of the learner's, signed in to the platform."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(60_000)
    platform.log_in_learner(context)
    yield context
    context.close()


@pytest.fixture(scope="module")
def stand_in_context(platform, browser):
    """The learner again, in a context without service workers: the page's own worker, registered by an earlier
    launch, would answer the launch with the page it keeps, where the stand-in (seed_record) must answer it."""
    context = browser.new_context(service_workers="block")
    platform.log_in_learner(context)
    yield context
    context.close()


@pytest.fixture(scope="module")
def uploaded(platform, packages):
    """Each package the platform launches, uploaded once, unchanged, by its author: {zip's stem: handle}."""
    return {name: platform.upload(package.path) for name, package in packages.items()
            if package.version in VERSIONS[platform.name]}


class Launch:
    """One visit of the learner to a package's player: the page, the package's frame, and what the package's own
    page asked for and said on its console."""

    def __init__(self, platform, learner, handle):
        self.page = learner.new_page()
        self.requests, self.errors = [], []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append((message.text, message.location.get("url", ""))))
        self.page.on("pageerror", lambda error: self.errors.append((str(error), "")))
        self.page.goto(platform.launch_url(handle), wait_until="domcontentloaded")
        self.sco = platform.sco_frame(self.page)
        self.content_root = self.sco.url.split("index.html")[0]

    def wait_live(self):
        self.sco.wait_for_selector(f'{sel("playground")}[data-status="live"]', timeout=BOOT_MS)
        return self

    def course(self, timeout=15.0):
        """The page's word on the platform (attentionPlayground.course()), once it has one."""
        deadline = time.monotonic() + timeout
        while (found := self.sco.evaluate("window.attentionPlayground?.course?.() ?? null")) is None:
            assert time.monotonic() < deadline, "the page never said whether the platform records the learner"
            time.sleep(0.1)
        return found

    def own_errors(self):
        """Console errors from the package's own files (a platform's own page may log its own)."""
        return [text for text, url in self.errors if url.startswith(self.content_root) or not url]

    def folder_requests(self):
        """Requests for a folder of the package rather than a file."""
        return [url for url in self.requests if url.startswith(self.content_root) and url.split("?")[0].endswith("/")]

    def offline_worker_active(self, timeout=60.0):
        """Whether the page's service worker (the offline copy, and isolation on the next visit) is installed and
        active for the package's folder: its install fetches every file the manifest lists, so one missing under
        the platform's content path, or a folder the platform refuses, leaves none."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.sco.evaluate("navigator.serviceWorker.getRegistration().then((found) => Boolean(found?.active))"):
                return True
            time.sleep(0.25)
        return False

    def leave(self):
        """The learner closes the player, as a tab is closed (the platform's own unload handler runs)."""
        self.page.close(run_before_unload=True)


def wait_stored(platform, handle, holds, what, timeout=STORED_SECONDS):
    """The platform's record of the learner's attempt, once `holds(record)`."""
    deadline = time.monotonic() + timeout
    while True:
        record = platform.stored(handle)
        with contextlib.suppress(KeyError, TypeError, ValueError, AssertionError):
            if holds(record):
                return record
        if time.monotonic() > deadline:
            shown = {key: value for key, value in record.items() if key not in ("cmi", "scorm_data")}
            raise AssertionError(f"{platform.name}: {what} never came: {json.dumps(shown, default=str)[:1500]}")
        time.sleep(0.25)


def settled(platform, handle, quiet=2.0, timeout=STORED_SECONDS):
    """The record once it has stopped changing for `quiet` seconds: what a page sent as it closed travels on after
    it (a keepalive request), and must not land on what the test writes next."""
    deadline = time.monotonic() + timeout
    record, since = platform.stored(handle), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        again = platform.stored(handle)
        if again != record:
            record, since = again, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return record


def share(points, most):
    """The score the page reports on 0-100 (js/lms/runtime.js scoreElements), as a number."""
    return math.floor(points / most * 10000 + 0.5) / 100


def points_in(lesson):
    """Questions and exercises of a lesson: the most points its package counts."""
    steps = lesson_steps(lesson)
    return sum(1 for step in steps if step["question"]) + len({step["exercise"] for step in steps if step["exercise"]})


def answer_two_questions(launch, lesson):
    """From step 1, the learner answers steps 2 and 3 rightly through the player; returns their step ids."""
    steps = lesson_steps(lesson)
    answered = []
    for number in (2, 3):
        launch.sco.locator(sel("lesson-next")).click()
        now = wait_for_progress(launch.sco, lambda p, n=number: p["number"] == n and p["status"] == "ready", what=f"step {number}")
        step = steps[number - 1]
        answer_in_the_player(launch.sco, now["question"], right_answer(step["question"], page_scene(launch.sco)))
        wait_for_verdict(launch.sco, step["id"], 1)
        answered.append(step["id"])
    return answered


def check_the_page_behaved(launch):
    assert launch.own_errors() == [], launch.own_errors()
    assert launch.folder_requests() == [], launch.folder_requests()


@pytest.mark.parametrize("lesson", ["attention-from-scratch", "self-attention-lab", None, COURSE_LESSON.stem])
def test_a_learner_who_answers_two_questions_leaves_and_comes_back_is_recorded_and_resumed(platform, learner, uploaded, packages, lesson):
    for version in VERSIONS[platform.name]:
        name = f"{lesson or scorm.WHOLE[0]}-{SUFFIX[version]}"
        handle = uploaded[name]
        opened = lesson or "attention-from-scratch"  # the whole playground's learner opens this one
        launch = Launch(platform, learner, handle).wait_live()
        assert launch.course()["recorded"] is True, (platform.name, name)
        if lesson is None:
            assert progress(launch.sco) is None, "the whole playground opens with no lesson"
            launch.sco.evaluate(f"window.attentionPlayground.lessons.open({json.dumps(opened)}, {{step: 1}})")
        wait_for_progress(launch.sco, lambda p: p["number"] == 1 and p["status"] == "ready", what="the first step")
        answered = answer_two_questions(launch, opened)
        most = points_in(lesson) if lesson else points_in("attention-from-scratch") + points_in("self-attention-lab")
        record = wait_stored(platform, handle, lambda r: r["score_raw"] == share(2, most) and r["location"] == f"{opened}/{answered[-1]}",
                             f"{name}: the score and location after two answers")
        assert record["status"] == "incomplete" and record["score_max"] == 100 and record["score_min"] == 0
        if version == "2004":
            assert record["score_scaled"] == pytest.approx(2 / most, abs=1e-4)
        work = unpack(record["suspend_data"])
        assert all(work["lessons"][opened]["answers"][step]["correct"] for step in answered)
        assert [entry["id"] for entry in record["interactions"]] == [f"{opened}/{step}" for step in answered]
        assert all(entry["result"] == "correct" for entry in record["interactions"])
        assert launch.offline_worker_active(), f"{name}: the page's service worker did not install under {platform.name}"
        check_the_page_behaved(launch)
        launch.leave()
        kept = wait_stored(platform, handle, lambda r: r["session_time"] not in (None, "", "00:00:00", "0000:00:00.00", "PT0H0M0S"),
                           f"{name}: the session's time")
        assert unpack(kept["suspend_data"])["lessons"][opened]["answers"].keys() >= set(answered)

        again = Launch(platform, learner, handle).wait_live()
        resumed = wait_for_progress(again.sco, lambda p: p["id"] == opened and p["number"] == 3, what=f"{name}: the step the learner left")
        assert all(resumed["answers"][step]["correct"] is True for step in answered)
        expect(again.sco.locator(sel("lesson-verdict"))).to_be_visible()
        check_the_page_behaved(again)
        again.leave()


def seed_record(platform, context, handle, version, work):
    """Put `work` in the platform's record of the learner, as a launch of the package's page would have: the launch
    is answered by a stand-in page that sets suspend_data through the platform's own runtime and commits."""
    suspend_data = pack(work)
    stand_in = STAND_IN.replace("VERSION", version).replace("SUSPEND", json.dumps(suspend_data))
    for attempt in range(SEED_ATTEMPTS):
        page = context.new_page()
        page.route(re.compile(r".*/index\.html\?lms="), lambda route: route.fulfill(body=stand_in, content_type="text/html"))
        page.goto(platform.launch_url(handle))
        platform.sco_frame(page).wait_for_function("document.title === 'set'", timeout=30_000)
        try:
            wait_stored(platform, handle, lambda r: r["suspend_data"] == suspend_data, "the seeded record", timeout=10)
            return
        except AssertionError:
            # A platform that sends its calls in the background (Open edX's block queues them) may have dropped the
            # stand-in's, or let a request of the launch before land after it: set it again, as a page would.
            if attempt + 1 == SEED_ATTEMPTS:
                raise
        finally:
            page.close()


#: How often the stand-in sets the record before the test gives up on the platform keeping it.
SEED_ATTEMPTS = 3
#: The stand-in: finds the runtime (waiting for it, as the page does), initializes, sets suspend_data, commits.
STAND_IN = """<!doctype html><html><head><meta charset="utf-8"><title>setting</title></head><body><script>
const version = "VERSION";
const calls = version === "1.2" ? { init: "LMSInitialize", set: "LMSSetValue", commit: "LMSCommit" }
  : { init: "Initialize", set: "SetValue", commit: "Commit" };
const name = version === "1.2" ? "API" : "API_1484_11";
function find() {
  for (let win = window, hops = 0; win && hops < 10; hops += 1) {
    try { if (win[name]) return win[name]; } catch { return null; }
    if (win.parent === win) return null;
    win = win.parent;
  }
  return null;
}
(async () => {
  let api = null;
  for (let tries = 0; tries < 100 && !(api = find()); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  api[calls.init]("");
  api[calls.set]("cmi.suspend_data", SUSPEND);
  api[calls.commit]("");
  document.title = "set";
})();
</script></body></html>"""


def graded_work(right):
    """The self-attention lab's work with its first `right` questions answered right at the first try (all of them:
    with the exercise passed and every step done, every point)."""
    steps = lesson_steps(GRADED_LESSON)
    questions = [step for step in steps if step["question"]][:right]
    answers = {step["id"]: {"kind": step["question"]["kind"], "correct": True, "score": 1, "attempts": 1,
                            "first": {"correct": True, "score": 1}} for step in questions}
    every = right == len([step for step in steps if step["question"]])
    done = [step["id"] for step in steps] if every else [step["id"] for step in steps if step["id"] in answers]
    last = steps[-1]["id"] if every else questions[-1]["id"]
    return {"lessons": {GRADED_LESSON: {"step": last, "done": done, "answers": answers, "edits": {}}}, "code": {},
            "order": [], "passed": ["attention"] if every else [], "at": {"lesson": GRADED_LESSON, "step": last}}


def test_scores_are_graded_as_the_page_means_them(platform, learner, stand_in_context, uploaded):
    most = points_in(GRADED_LESSON)
    questions = sum(1 for step in lesson_steps(GRADED_LESSON) if step["question"])
    assert most == questions + 1  # every question, and the lab's one exercise
    # Part of the work: the first share of at least half the questions that a platform's whole percent states exactly.
    partial = next(right for right in range(questions // 2, questions) if 100 * right % most == 0)
    for version in VERSIONS[platform.name]:
        handle = uploaded[f"{GRADED_LESSON}-{SUFFIX[version]}"]
        for right, points, expected in ((partial, partial, partial / most), (questions, most, 1.0)):
            seed_record(platform, stand_in_context, handle, version, graded_work(right))
            launch = Launch(platform, learner, handle)
            status = "completed" if points == most else "incomplete"
            record = wait_stored(platform, handle, lambda r, p=points, s=status: r["score_raw"] == share(p, most) and r["status"] == s,
                                 f"{version}: {points} of {most} reported")
            assert record["score_max"] == 100 and record["score_min"] == 0
            if version == "2004":
                assert record["score_scaled"] == pytest.approx(expected)
            if record["grade"] is not None or platform.name == "Open edX":  # the platforms that grade
                assert record["grade"] == pytest.approx(expected), (version, points, record["grade"])
            launch.leave()
            settled(platform, handle)


def test_ten_launches_in_a_row_all_find_the_platform(platform, learner, uploaded):
    """Each launch finds the runtime, however late the platform makes it, and says the learner is recorded."""
    version = VERSIONS[platform.name][0]
    handle = uploaded[f"attention-from-scratch-{SUFFIX[version]}"]
    found = []
    for _ in range(10):
        launch = Launch(platform, learner, handle)
        found.append(launch.course())
        launch.leave()
    assert found == [{"recorded": True, "version": version}] * 10
