"""The SCORM packages (`build.py --scorm`) as a course platform uses them: each zip holds the whole site and a
manifest that launches its lesson, and a lesson's package, launched by a real SCORM runtime (scorm-again, playing
the LMS; tests/browser/lms_pages.py), initializes, reports status, progress, score and interactions as the learner
answers, commits and terminates when the learner leaves, and on the next launch resumes from the LMS's record
alone (the package's storage is blocked: its frame is third-party to the course's page) at the step the learner
left, with their answers and edits. A learner who reaches the end completes the lesson."""

import json
import math
import re
import time
import xml.etree.ElementTree as ET
import zipfile

import pytest
from playwright.sync_api import expect

from lesson_helpers import COURSE_LESSON, answer_in_the_player, course_lesson, lesson_steps, page_scene, progress, right_answer, wait_for_progress, wait_for_verdict
from conftest import warm_profile
from lms_pages import lms_server, pack, unpack
from page_helpers import sel, type_into
from sitebuild import paths, scorm

pytestmark = pytest.mark.browser

#: The lesson each version's flow launches (one of each, so both lessons' packages are launched).
LESSON_BY_VERSION = {"1.2": "attention-from-scratch", "2004": "self-attention-lab"}
SUFFIX = {"1.2": "scorm12", "2004": "scorm2004"}
NAMESPACES = {
    "1.2": ("http://www.imsproject.org/xsd/imscp_rootv1p1p2", "http://www.adlnet.org/xsd/adlcp_rootv1p2", "scormtype", "1.2"),
    "2004": ("http://www.imsglobal.org/xsd/imscp_v1p1", "http://www.adlnet.org/xsd/adlcp_v1p3", "scormType", "2004 4th Edition"),
}
#: The element names of each version's record, as scorm-again's JSON of it nests them.
RECORD = {
    "1.2": {"status": ("core", "lesson_status"), "raw": ("core", "score", "raw"), "max": ("core", "score", "max"),
            "location": ("core", "lesson_location"), "exit": ("core", "exit"), "session_time": ("core", "session_time")},
    "2004": {"status": ("completion_status",), "raw": ("score", "raw"), "max": ("score", "max"), "location": ("location",),
             "exit": ("exit",), "session_time": ("session_time",), "scaled": ("score", "scaled"), "progress": ("progress_measure",)},
}
SUSPEND_LIMIT = {"1.2": 4096, "2004": 64000}
BOOT_MS = 120_000
#: An xs:ID (NCName) as the manifest's identifiers must be.
XS_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
FIGURES = {}


@pytest.fixture(scope="module", autouse=True)
def figures():
    """The sizes and times this module measures, printed at its end (pytest -s shows them)."""
    yield FIGURES
    print("\nSCORM figures: " + json.dumps(FIGURES, indent=1))


@pytest.fixture(scope="module")
def packages(built_site, tmp_path_factory):
    """Every package, built once for the module from the site the session built."""
    index = json.loads((paths.GENERATED_DIR / "lessons" / "index.json").read_text())
    started = time.perf_counter()
    written = scorm.write_packages(paths.DIST_DIR, tmp_path_factory.mktemp("scorm"), [(lesson["id"], lesson["title"]) for lesson in index])
    FIGURES["packages built, s"] = round(time.perf_counter() - started, 1)
    return {package.path.stem: package for package in written}


@pytest.fixture(scope="module")
def own_packages(built_site, tmp_path_factory):
    """The packages of a course's own lesson (`build.py --scorm --lesson`): tests/data/course-site/'s."""
    written = scorm.write_own_lesson_packages(paths.DIST_DIR, tmp_path_factory.mktemp("own-scorm") / "out", [course_lesson()])
    return {package.path.stem: package for package in written}


@pytest.fixture(scope="module")
def lms(packages, own_packages):
    with lms_server({name: package.path for name, package in {**packages, **own_packages}.items()}) as server:
        yield server


def expected_score(version, points, most):
    """(raw, max) as the record must carry them: raw on 0-100, the share of the points to two decimals, and max 100,
    which every LMS grades the same (js/lms/runtime.js; in 2004 scaled, the same share, goes with them)."""
    return f"{math.floor(points / most * 10000 + 0.5) / 100:g}", "100"


def field(record, version, name):
    value = record["cmi"]
    for key in RECORD[version][name]:
        value = value[key]
    return value


def wait_for_record(player, holds, what, timeout=30.0):
    """Poll the LMS's record until `holds(record)`."""
    deadline = time.monotonic() + timeout
    while True:
        record = player.evaluate("window.record()")
        if holds(record):
            return record
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never came: {json.dumps(record)[:1500]}")
        time.sleep(0.1)


def storage_of(sco):
    return sco.evaluate("() => { try { localStorage.length; return 'open'; } catch (error) { return error.name; } }")


@pytest.fixture(scope="module")
def browser(playwright_driver, tmp_path_factory, plain_site_url):
    """A browser of the module's own whose HTTP cache outlives each launch (booting Python from it costs less). It
    keeps nothing else of a launch: the package's frame is third-party to the course's page, so its storage is
    blocked (each launch checks), and each launch opens a page of its own. A page of the playground's runtime, on
    a host that sends no isolation headers as the course platform does not, stays live beside them
    (keep_runtime_compiled): the packages' frames are of the same site, 127.0.0.1, so they share its renderer and
    boot Python from WebAssembly compiled already."""
    yield from warm_profile(playwright_driver, tmp_path_factory, (plain_site_url,), "lms-profile")


def launch(browser, lms, package, requests, suspend_data=None):
    """A visit to the course page, launching `package`; gives (page, player, sco) once the page is live and,
    for a lesson's package, the lesson's step drawn."""
    page = browser.new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.goto(lms.course_url(package.path.stem, package.launch, package.version, suspend_data))
    sco_frame = page.frame_locator("#player").frame_locator("#sco")
    expect(sco_frame.locator(sel("playground"))).to_have_attribute("data-status", "live", timeout=BOOT_MS)
    sco = lms.sco(page)
    if package.lesson:
        expect(sco_frame.locator(sel("lesson-step-title"))).to_be_visible(timeout=BOOT_MS)
        wait_for_progress(sco, lambda now: now["status"] == "ready", timeout=BOOT_MS / 1000, what="the lesson's step")
    return page, lms.player(page), sco


def test_every_package_holds_the_site_and_a_manifest_that_launches_its_lesson(packages):
    index = json.loads((paths.GENERATED_DIR / "lessons" / "index.json").read_text())
    expected = {f"{lesson}-{SUFFIX[version]}" for version in SUFFIX for lesson in ["attention-playground", *[entry["id"] for entry in index]]}
    assert set(packages) == expected
    site = sorted(path.relative_to(paths.DIST_DIR).as_posix() for path in paths.DIST_DIR.rglob("*") if path.is_file())
    site = [name for name in site if not ("/" not in name and name.endswith(".zip"))]
    for name, package in packages.items():
        FIGURES[f"{name}.zip, MB"] = round(package.path.stat().st_size / 1e6, 2)
        with zipfile.ZipFile(package.path) as archive:
            names = archive.namelist()
            root = ET.fromstring(archive.read("imsmanifest.xml"))
        assert sorted(set(names) - {"imsmanifest.xml"}) == site and len(names) == len(set(names)), f"{name}: the whole site, once"
        assert "vendor/pyodide/pyodide.asm.wasm" in names, "the runtime is inside"
        cp, adlcp, scorm_type, schema_version = NAMESPACES[package.version]
        q = lambda tag: f"{{{cp}}}{tag}"  # noqa: E731
        assert root.tag == q("manifest") and root.get("identifier") == name
        assert root.findtext(f"{q('metadata')}/{q('schema')}") == "ADL SCORM"
        assert root.findtext(f"{q('metadata')}/{q('schemaversion')}") == schema_version
        identifiers = [element.get("identifier") for element in root.iter() if element.get("identifier") is not None]
        assert len(identifiers) == len(set(identifiers)) and all(XS_ID.match(identifier) for identifier in identifiers), identifiers
        organizations = root.find(q("organizations"))
        organization = next(org for org in organizations.findall(q("organization")) if org.get("identifier") == organizations.get("default"))
        items = organization.findall(q("item"))
        assert organization.findtext(q("title")) and len(items) == 1 and items[0].findtext(q("title"))
        resources = {resource.get("identifier"): resource for resource in root.find(q("resources")).findall(q("resource"))}
        resource = resources[items[0].get("identifierref")]
        assert resource.get("type") == "webcontent" and resource.get(f"{{{adlcp}}}{scorm_type}") == "sco"
        listed = [file.get("href") for file in resource.findall(q("file"))]
        assert sorted(listed) == site, f"{name}: every file it lists is in the zip, and every file is listed"
        # The launch is the resource's href itself: course platforms launch it and drop an item's `parameters`.
        lesson = package.lesson
        assert items[0].get("parameters") is None
        assert resource.get("href") == package.launch == f"index.html?lms={package.version}" + (f"&lesson={lesson}" if lesson else "")
        assert resource.get("href").split("?")[0] in names


@pytest.mark.parametrize("version", ["1.2", "2004"])
def test_a_lesson_package_reports_to_the_lms_and_resumes_from_its_record_alone(version, packages, lms, browser):
    lesson = LESSON_BY_VERSION[version]
    package = packages[f"{lesson}-{SUFFIX[version]}"]
    steps = lesson_steps(lesson)
    questions = sum(1 for step in steps if step["question"])
    exercises = len({step["exercise"] for step in steps if step["exercise"]})
    requests = []
    started = time.perf_counter()
    page, player, sco = launch(browser, lms, package, requests)
    assert storage_of(sco) == "SecurityError", "the package's frame is third-party: Chromium blocks its storage"
    seen = lambda r: field(r, version, "location") == f"{lesson}/{steps[0]['id']}"  # noqa: E731
    first = wait_for_record(player, seen, "the first step's record")
    calls = player.evaluate("window.calls")
    assert calls[0] == ["Initialize" if version == "2004" else "LMSInitialize"]
    assert field(first, version, "status") == "incomplete" and field(first, version, "raw") == "0"
    assert field(first, version, "max") == expected_score(version, 0, questions + exercises)[1]
    if version == "2004":
        assert field(first, version, "progress") == "0.0000", "the first step is on show, not yet read and left"

    # The learner goes on and answers the question right: the score moves, and the progress.
    sco.locator(sel("lesson-next")).click()
    now = wait_for_progress(sco, lambda p: p["number"] == 2 and p["status"] == "ready", what="step 2")
    step = steps[1]
    answer_in_the_player(sco, now["question"], right_answer(step["question"], page_scene(sco)))
    wait_for_verdict(sco, step["id"], 1)
    one_right, _ = expected_score(version, 1, questions + exercises)
    answered = wait_for_record(player, lambda r: field(r, version, "raw") == one_right, "the score after a right answer")
    assert field(answered, version, "status") == "incomplete" and field(answered, version, "location") == f"{lesson}/{step['id']}"
    if version == "2004":
        assert field(answered, version, "progress") == f"{2 / len(steps):.4f}"
        assert field(answered, version, "scaled") == f"{1 / (questions + exercises):.4f}"
    set_calls = [call for call in player.evaluate("window.calls") if call[0] == "SetValue"]
    interaction = {call[1].split(".", 3)[3]: call[2] for call in set_calls if call[1].startswith("cmi.interactions.0.")}
    assert interaction["id"] == f"{lesson}/{step['id']}" and interaction["result"] == "correct"

    # The learner edits the step's scene: the edit reaches the record.
    type_into(sco, sco.locator(sel("x-cell", row=0, column=0)), "3")
    edited = wait_for_record(player, lambda r: step["id"] in unpack(r["cmi"]["suspend_data"])["lessons"][lesson]["edits"], "the edit in the record")
    assert page_scene(sco)["X"][0][0] == 3
    # The learner is told the truth: their course keeps the edit (not "this browser", which keeps nothing here).
    expect(sco.locator(sel("save-text"))).to_have_text("✓ Your edits, kept by your course.")

    # Leaving commits, then terminates.
    commits_before = sum(1 for call in player.evaluate("window.calls") if call[0] in ("Commit", "LMSCommit"))
    player.evaluate("window.leave()")
    ended = wait_for_record(player, lambda r: field(r, version, "exit") == "suspend", "the exit")
    calls = player.evaluate("window.calls")
    names = [call[0] for call in calls]
    assert names[-1] == ("Terminate" if version == "2004" else "LMSFinish") and names[-2] in ("Commit", "LMSCommit")
    assert sum(1 for name in names if name in ("Commit", "LMSCommit")) == commits_before + 1
    session_time = next(call[2] for call in calls if call[0] == "SetValue" and call[1].endswith("session_time"))
    assert re.match(r"^\d{4}:\d{2}:\d{2}\.\d{2}$" if version == "1.2" else r"^PT\d+H\d+M[\d.]+S$", session_time), session_time
    assert field(ended, version, "session_time") not in ("", "00:00:00", "PT0H0M0S"), "the LMS took it"
    suspend_data = ended["cmi"]["suspend_data"]
    assert len(suspend_data) <= SUSPEND_LIMIT[version] and unpack(suspend_data) == unpack(edited["cmi"]["suspend_data"])
    FIGURES[f"{package.path.stem}: suspend_data, characters"] = len(suspend_data)
    FIGURES[f"{package.path.stem}: first launch, s"] = round(time.perf_counter() - started, 1)
    page.close()

    # A second launch, with the record the LMS kept, the frame's storage blocked again: the learner is back at step 2,
    # with their answer and their edit.
    started = time.perf_counter()
    page, player, sco = launch(browser, lms, package, requests, suspend_data=suspend_data)
    assert storage_of(sco) == "SecurityError"
    resumed = wait_for_progress(sco, lambda p: p["number"] == 2, what="the step the learner left")
    assert resumed["answers"][step["id"]]["correct"] is True and steps[0]["id"] in resumed["done"]
    expect(sco.locator(sel("lesson-verdict"))).to_be_visible()
    assert page_scene(sco)["X"][0][0] == 3, "the learner's edit, from the record"
    wait_for_record(player, lambda r: field(r, version, "raw") == one_right, "the score, reported again")
    FIGURES[f"{package.path.stem}: resumed launch, s"] = round(time.perf_counter() - started, 1)
    page.close()
    assert all(re.match(r"^(http://(127\.0\.0\.1|localhost):\d+/|data:|blob:)", url) for url in requests), \
        [url for url in requests if not re.match(r"^(http://(127\.0\.0\.1|localhost):\d+/|data:|blob:)", url)]


@pytest.mark.parametrize("version", ["1.2", "2004"])
def test_a_learner_who_reaches_the_last_step_completes_the_lesson(version, packages, lms, browser):
    lesson = next(other for other in LESSON_BY_VERSION.values() if other != LESSON_BY_VERSION[version])  # the other lesson's package
    package = packages[f"{lesson}-{SUFFIX[version]}"]
    steps = lesson_steps(lesson)
    last = steps[-1]
    assert last["question"] is None, "the last step only shows: seeing it is doing it"
    # A record that says every step but the last is done, in the format the page writes.
    record = pack({"lessons": {lesson: {"step": last["id"], "done": [step["id"] for step in steps[:-1]], "answers": {}, "edits": {}}},
                   "code": {}, "order": [], "passed": []})
    page, player, sco = launch(browser, lms, package, [], suspend_data=record)
    assert progress(sco)["number"] == len(steps)
    done = wait_for_record(player, lambda r: field(r, version, "status") == "completed", "completed")
    if version == "2004":
        assert field(done, version, "progress") == "1.0000"
    player.evaluate("window.leave()")
    ended = wait_for_record(player, lambda r: player.evaluate("window.calls")[-1][0] in ("Terminate", "LMSFinish"), "the end")
    assert field(ended, version, "exit") == ("normal" if version == "2004" else "")
    page.close()


@pytest.mark.parametrize("version", ["1.2", "2004"])
def test_the_whole_playground_package_opens_the_playground_and_counts_both_lessons(version, packages, lms, browser):
    package = packages[f"attention-playground-{SUFFIX[version]}"]
    lessons = [lesson_steps(lesson) for lesson in LESSON_BY_VERSION.values()]
    questions = sum(1 for steps in lessons for step in steps if step["question"])
    exercises = len({step["exercise"] for steps in lessons for step in steps if step["exercise"]})
    page, player, sco = launch(browser, lms, package, [])
    record = wait_for_record(player, lambda r: field(r, version, "status") == "incomplete", "the first record")
    assert player.evaluate("window.calls")[0][0] in ("Initialize", "LMSInitialize")
    assert field(record, version, "max") == expected_score(version, 0, questions + exercises)[1] and field(record, version, "raw") == "0"
    assert progress(sco) is None, "no lesson is open: the playground, with its lessons to start"
    # The learner's exercise code, typed, reaches the record (nothing else on the page changes as they type).
    sco.locator(sel("exercise-open")).click()
    sco.locator(sel("exercise-tab-softmax")).click()
    sco.locator(sel("code-input")).click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# my note")
    wait_for_record(player, lambda r: "# my note" in unpack(r["cmi"]["suspend_data"])["code"].get("softmax", ""), "the code in the record")
    page.close()


def test_a_launch_that_finds_no_course_platform_tells_the_learner_their_progress_is_not_recorded(packages, lms, browser):
    """A lesson's package opened where no LMS offers a runtime (served as files, or by a platform that tracks
    nothing): the page looks for one for a few seconds, then says so in the player, and the lesson works."""
    package = packages[f"{LESSON_BY_VERSION['1.2']}-{SUFFIX['1.2']}"]
    page = browser.new_page()
    page.goto(f"{lms.url}/packages/{package.path.stem}/{package.launch}")
    expect(page.locator(sel("lesson-unrecorded"))).to_be_visible(timeout=BOOT_MS)
    expect(page.locator(sel("lesson-unrecorded"))).to_contain_text("not recording your progress")
    expect(page.locator(sel("lesson-counter"))).to_contain_text("Step 1 of")
    assert page.evaluate("window.attentionPlayground.course()") == {"recorded": False, "version": None}
    page.close()


def test_a_course_lesson_packaged_on_its_own_is_launched_and_recorded(own_packages, lms, browser):
    """`build.py --scorm --lesson FILE.md`: one package per version, of that lesson alone, launched as its href says;
    the learner's answer on the scene file beside the lesson reaches the LMS's record."""
    lesson = COURSE_LESSON.stem
    assert sorted(own_packages) == [f"{lesson}-{SUFFIX[version]}" for version in SUFFIX]
    package = own_packages[f"{lesson}-scorm12"]
    with zipfile.ZipFile(package.path) as archive:
        listed = [entry["id"] for entry in json.loads(archive.read("generated/lessons/index.json"))]
        assert listed[-1] == lesson and json.loads(archive.read(f"generated/lessons/{lesson}.json"))["id"] == lesson
    assert package.launch == f"index.html?lms=1.2&lesson={lesson}"
    steps = lesson_steps(lesson)
    page, player, sco = launch(browser, lms, package, [])
    sco.locator(sel("lesson-next")).click()
    now = wait_for_progress(sco, lambda p: p["number"] == 2 and p["status"] == "ready", what="step 2")
    answer_in_the_player(sco, now["question"], right_answer(steps[1]["question"], page_scene(sco)))
    right, _ = expected_score("1.2", 1, sum(1 for step in steps if step["question"]))
    record = wait_for_record(player, lambda r: field(r, "1.2", "raw") == right, "the score of the course's own lesson")
    assert field(record, "1.2", "location") == f"{lesson}/{steps[1]['id']}"
    page.close()
