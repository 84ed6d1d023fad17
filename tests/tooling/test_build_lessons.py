"""The shipped lessons (lessons/*.md): each checks clean with the command authors run, every expected answer of
every step is computed by the module and agrees with the tutorials' printed numbers, and the build writes what the
page loads (generated/lessons/) with no expected answer and no solution in it; a bad lesson stops the build.

The names the lessons share with the page's JavaScript (its panels, the experiments' tabs, the link format's
version) are tied to the JavaScript here.
"""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from attention_playground.lessons.checker import EXPERIMENTS, PANELS, check_lesson  # noqa: E402
from attention_playground.lessons.compile import compile_lesson  # noqa: E402
from attention_playground.lessons.sources import LINK_VERSION  # noqa: E402
from sitebuild import lessons as lesson_build  # noqa: E402
from sitebuild.downloads import BuildError  # noqa: E402

SHIPPED = sorted((ROOT / "lessons").glob("*.md"))


def checked(name):
    lesson = check_lesson((ROOT / "lessons" / f"{name}.md").read_text(encoding="utf-8"), f"lessons/{name}.md")
    assert lesson.problems == []
    return {step.id: step for step in lesson.steps}


def test_every_shipped_lesson_checks_clean_with_the_authors_command():
    completed = subprocess.run([sys.executable, "-m", "attention_playground.lessons", "check",
                                *(str(path) for path in SHIPPED)], cwd=ROOT / "py", capture_output=True, text=True,
                               check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    (line,) = completed.stdout.splitlines()
    steps = int(re.search(r": (\d+) steps", line)[1])
    assert line.startswith(f"{len(SHIPPED)} lessons checked: ") and steps >= 24


def test_the_command_exits_1_naming_each_mistake(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text("# Bad\n\n## A\n\n```step\nscene = \"dog-bites-man\"\nfocus = \"cat\"\n```\n", encoding="utf-8")
    completed = subprocess.run([sys.executable, "-m", "attention_playground.lessons", "check", str(bad)],
                               cwd=ROOT / "py", capture_output=True, text=True, check=False)
    assert completed.returncode == 1
    assert completed.stdout.splitlines()[0] == (f"{bad}:7: step 1 (a): focus: there is no word “cat”; the words are "
                                                "“dog”, “bites”, “man”")


def test_every_step_of_the_first_lesson_expects_what_the_tutorial_prints():
    steps = checked("attention-from-scratch")
    value = {step_id: step.expected["value"] for step_id, step in steps.items() if step.expected
             and "value" in step.expected}
    assert value["a-score-is-a-dot-product"] == 2
    assert steps["how-big-is-the-table-of-scores"].expected["measured"] == [10, 10]  # "Check yourself" 3
    assert [round(w, 4) for w in value["draw-the-row-before-you-compute-it"]] == [0.2483, 0.2483, 0.5035]
    assert round(value["divide-by-the-square-root-of-d"], 4) == 0.7071
    assert round(value["raise-e-to-each-score"], 4) == 2.0281
    assert round(value["add-up-the-row"], 4) == 8.1695
    assert round(value["one-weight"], 4) == 0.2483
    assert round(value["the-output-of-man"], 4) == 0.7517  # 0.7518 from the rounded weights
    assert value["why-every-row-adds-up-to-one"] == "rows"
    assert value["the-overflow-trap"] == "nan"
    assert round(value["with-the-shift-back-on"], 4) == 0.6652
    assert value["the-shift-changes-nothing"] == "stays"
    assert steps["where-does-it-look"].scene["tokens"][value["where-does-it-look"]] == "cat"
    assert round(steps["where-does-it-look"].expected["values"][1], 3) == 0.920
    assert round(steps["where-does-it-look"].expected["values"][5], 3) == 0.054
    assert [round(value[step] * 100, 1) for step in ("take-away-the-noun-match", "quieter-queries", "louder-queries",
                                                     "twice-as-loud")] == [65.3, 29.1, 96.5, 99.6]
    assert value["double-every-number-in-wq"] == "rises"
    options = {option["id"]: option["text"] for option in steps["a-common-mistake"].expected["options"]}
    assert (options["right"], options["no-scale"]) == ("0.2483", "0.2119")
    assert round(value["why-divide-by-root-d"], 3) == 0.958
    assert value["and-with-the-division"] == "stays"
    # Part 7's table: with ÷√d, 0.307 at d = 4 and 0.318 at d = 512.
    assert "from 0.307 at d = 4 to 0.318 at d = 512" in steps["and-with-the-division"].expected["sentence"]
    assert (value["does-word-order-matter"], value["giving-attention-positions"]) == ("same", "different")
    assert steps["why-a-separate-query-and-key"].scene["tokens"][value["why-a-separate-query-and-key"]] == "it"
    build_step = steps["put-it-back-in-one-edit"]
    assert build_step.scene["title"] == steps["take-away-the-noun-match"].scene["title"]  # kept from the step before
    assert [c["met"] for c in build_step.expected["conditions"]] == [False]


def test_every_step_of_the_lab_expects_what_the_scene_gives():
    steps = checked("self-attention-lab")
    value = {step_id: step.expected["value"] for step_id, step in steps.items() if step.expected
             and "value" in step.expected}
    assert value["what-the-third-word-reads"][3:] == [0.0] * 6  # the mask's zeros: nothing after "met"
    assert value["the-zeros-above-the-diagonal"] == "zero"
    assert value["the-first-row"] == 1.0
    assert value["the-root-d-detail-on-random-numbers"] == "rises"
    tokens = steps["a-trained-model-on-a-repeated-noun"].scene["tokens"]
    # At the second "fox", L1H0 reads the word after the first "fox": the induction route (docs/model.md, The second mention).
    assert tokens[value["a-trained-model-on-a-repeated-noun"]] == "met"
    assert value["one-word-early"] == 2 and tokens[2] == "fox"  # from the second "the", the first "fox"
    assert value["the-attention-sink"] == "most"
    assert tokens[value["weight-against-effect-part-one"]] == "<bos>"
    assert value["weight-against-effect-part-two"] != value["weight-against-effect-part-one"]
    assert steps["two-heads-at-once"].scene["tokens"][value["two-heads-at-once"]] == "because"
    for claim_step in ("predict-then-train-the-causal-mask", "and-once-the-mask-is-back"):
        assert steps[claim_step].expected is None and steps[claim_step].settings["claim"] == "mask"
    assert steps["write-it-yourself"].settings == {"panels": ["heatmap", "exercise"], "exercise": "attention"}


def test_the_lessons_have_at_least_24_steps_and_every_kind_of_question():
    kinds = [step.question["kind"] for name in ("attention-from-scratch", "self-attention-lab")
             for step in checked(name).values() if step.question]
    steps = sum(len(checked(name)) for name in ("attention-from-scratch", "self-attention-lab"))
    assert steps >= 24 and set(kinds) == {"pick", "estimate", "sketch", "choose", "compute", "build"}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    output = tmp_path_factory.mktemp("lessons")
    return output, lesson_build.write_lessons(output_dir=output)


def test_the_build_writes_an_index_and_one_file_per_lesson_without_answers(written):
    output, index = written
    assert sorted(path.name for path in output.iterdir()) == sorted(["index.json", *(f"{p.stem}.json" for p in SHIPPED)])
    assert json.loads((output / "index.json").read_text(encoding="utf-8")) == index
    assert [entry["id"] for entry in index] == [path.stem for path in SHIPPED]
    for entry in index:
        lesson = json.loads((output / f"{entry['id']}.json").read_text(encoding="utf-8"))
        assert [step["id"] for step in lesson["steps"]] == [step["id"] for step in entry["steps"]]
        text = json.dumps(lesson)
        assert '"solution"' not in text and '"expected"' not in text
        for number in ("0.2483", "2.0281", "8.1695", "0.920", "65.3", "0.958", "0.7517"):
            assert number not in text, f"{number} typed into {entry['id']}"


def test_a_bad_lesson_stops_the_build_with_the_checkers_lines(tmp_path):
    (tmp_path / "good.md").write_text((ROOT / "lessons" / "attention-from-scratch.md").read_text(), encoding="utf-8")
    (tmp_path / "bad.md").write_text("# Bad\n\n## A\n\n```step\nscene = \"dog-bites-man\"\nhead = 3\n```\n",
                                     encoding="utf-8")
    output = tmp_path / "out"
    with pytest.raises(BuildError) as error:
        lesson_build.write_lessons(tmp_path, output)
    assert str(error.value).startswith("1 mistake in the lessons:\n")
    assert re.search(r"bad\.md:7: step 1 \(a\): head: head is the scene's head to show", str(error.value))
    assert not output.exists(), "nothing is written when a lesson has a mistake"


def test_a_fresh_build_installs_what_the_lessons_need():
    pins = build.pinned_requirements()
    assert [pin.split("==")[0] for pin in pins] == ["numpy", "markdown-it-py", "mdurl"]
    assert build.pinned_numpy() == pins[0] and build.missing_requirements() == []


def test_the_lessons_name_the_pages_panels_tabs_and_link_format_as_the_page_does():
    view = (ROOT / "js" / "layout" / "panels.js").read_text(encoding="utf-8")
    panels = re.search(r"PANEL_SELECTORS = Object\.freeze\(Object\.fromEntries\(\s*\[([^\]]+)\]", view)[1]
    assert tuple(re.findall(r'"([a-z]+)"', panels)) == PANELS
    experiments = (ROOT / "js" / "ui" / "teaching" / "experiments.js").read_text(encoding="utf-8")
    tabs = re.search(r"const tabsInOrder = \[(.*?)\];", experiments, re.S)[1]  # the experiments' tabs, in order
    assert tuple(re.findall(r'^\s+\["([a-z-]+)", "', tabs, re.M)) == EXPERIMENTS
    permalink = (ROOT / "js" / "sharing" / "permalink.js").read_text(encoding="utf-8")
    assert f"export const LINK_VERSION = {LINK_VERSION};" in permalink


def test_every_choice_in_the_shipped_lessons_is_drawn_from_its_markdown_with_no_backtick_left():
    code_spans = 0
    for path in sorted((ROOT / "lessons").glob("*.md")):
        _, lesson = compile_lesson(path.read_text(encoding="utf-8"), path.name)
        for step in lesson["steps"]:
            for nodes in (step["options"] or {}).values():
                assert all("`" not in node.get("text", "") for node in nodes), (path.name, step["id"], nodes)
                code_spans += sum(node["type"] == "code" for node in nodes)
    assert code_spans >= 1  # the lab's "None: `<bos>` carries no meaning." is one


#: How a lesson names a control for the learner to use: "Open **show every step**", "tick *add sinusoidal
#: positions to X*", "press **Train both** in *Test a claim*", "The **Word order** experiment".
CONTROL_NAMED = re.compile(r"(?:tick(?:s|ed)?|[Oo]pen(?:s|ed)?|[Pp]ress|[Cc]hoose|[Cc]lick)(?: the experiment| the)?\s+(\*{1,2})([^*]+?)\1"
                           r"|(?:experiment|in) (\*{1,2})([^*]+?)\3|(\*{1,2})([^*]+?)\5 experiment")


def test_every_control_a_lesson_names_is_named_as_the_page_labels_it():
    page_words = " ".join(path.read_text(encoding="utf-8") for path in (ROOT / "js").rglob("*.js"))
    page_words += (ROOT / "index.html").read_text(encoding="utf-8")
    named = {}
    for path in SHIPPED:
        for found in CONTROL_NAMED.finditer(path.read_text(encoding="utf-8")):
            name = " ".join(next(group for group in found.groups()[1::2] if group).split())
            named.setdefault(name, path.name)
    assert {"show every step", "Train both", "Word order", "add sinusoidal positions to X"} <= set(named)
    unlabelled = {name: where for name, where in named.items() if name not in page_words}
    assert not unlabelled, f"no control on the page is labelled so: {unlabelled}"


def test_no_step_heading_repeats_its_question_word_for_word():
    words = lambda text: re.sub(r"[^\w\s]", "", text).lower().split()  # noqa: E731
    for path in SHIPPED:
        _, lesson = compile_lesson(path.read_text(encoding="utf-8"), path.name)
        for step in lesson["steps"]:
            ask = " ".join(node.get("text", "") for block in step["ask"] or [] for node in block.get("children", []))
            first_sentence = re.split(r"(?<=[.?!])\s", ask.strip(), maxsplit=1)[0]
            assert words(step["title"]) != words(first_sentence), (path.name, step["number"], step["title"])


def test_the_tutorial_lesson_in_the_guide_checks_and_its_mistake_reads_as_the_guide_shows(tmp_path):
    """docs/lessons.md's first lesson checks clean, and the mistake its third part makes shows as the guide prints it."""
    from attention_playground.lessons.__main__ import check

    guide = (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8")
    lesson = re.search(r"````markdown\n(# My first lesson.*?)````", guide, re.S).group(1)
    shown = re.search(r"```\n(line \d+ · step 1 .*)\n```", guide).group(1)
    path = tmp_path / "first-lesson.md"
    path.write_text(lesson, encoding="utf-8")
    out = io.StringIO()
    assert check([str(path)], out) == 0, out.getvalue()
    path.write_text(lesson.replace('row = "man"\nask', 'row = "men"\nask'), encoding="utf-8")
    out = io.StringIO()
    assert check([str(path)], out) == 1
    line, step, field, message = re.match(r"^line (\d+) · (step 1 \([a-z-]+\)) · ([a-z.]+): (.*)$", shown).groups()
    assert out.getvalue().splitlines()[0] == f"{path}:{line}: {step}: {field}: {message}"


def test_lesson_goes_with_serve_or_scorm_and_names_a_file_that_is_there(capsys):
    for argv, expected in ((["--lesson", "lessons/self-attention-lab.md"], "goes with serve"),
                           (["serve", "--lesson", "no/such/lesson.md"], "does not exist"),
                           (["serve", "--lesson", "lessons"], "serve previews one lesson file")):
        with pytest.raises(SystemExit):
            build.parse_arguments(argv)
        assert expected in capsys.readouterr().err
    assert build.parse_arguments(["--scorm", "--lesson", "lessons"]).lesson == "lessons"  # a folder of lessons


def test_the_preview_command_names_a_lesson_file_that_is_not_there():
    from attention_playground.lessons.__main__ import preview

    out = io.StringIO()
    assert preview("no/such/lesson.md", 8000, out) == 2
    assert out.getvalue() == "no/such/lesson.md: no such lesson file\n"
