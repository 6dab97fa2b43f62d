"""The README's Python examples run as written (issue 27, item 11), against the test Neo4j,
in a test mind (the only change: the mind's name), and each of their loops prints something.
The import format's field reference in docs/ is the one the models give."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from graphmind.mind import Mind
from graphmind.models.reference import BEGIN, END, field_reference
from graphmind.samples import demo_file

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def _blocks() -> list[str]:
    return BLOCK.findall((REPO / "README.md").read_text())


def _run(code: str, mind_name: str) -> str:
    assert 'Mind.open("felix")' in code
    code = code.replace('Mind.open("felix")', f'Mind.open("{mind_name}")')
    if "import" not in code.split("\n", 1)[0]:
        code = "from graphmind import Mind\n" + code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    return out.getvalue()


def test_the_readme_has_the_examples_this_test_runs():
    blocks = _blocks()
    assert len(blocks) == 2 and "demo_file(" in blocks[0] and "mind.wander(" in blocks[1]


def test_the_first_example_runs_as_written_and_every_loop_prints(
    cli_env, cli_mind, store, settings, monkeypatch, tmp_path
):
    monkeypatch.chdir(tmp_path)
    try:
        printed = _run(_blocks()[0], cli_mind)
    finally:
        Mind(cli_mind, store, settings).delete()
    lines = printed.splitlines()
    assert lines[0].startswith("28 23 {")
    assert (
        sum(
            line.startswith(("Technical_Context", "Conversation_Memory", "Failed_Attempt", "Experience"))
            for line in lines
        )
        >= 3
    )  # the recall loop
    assert any(line.startswith("dream ") for line in lines)
    after_dream = lines[next(i for i, line in enumerate(lines) if line.startswith("dream ")) + 1 :]
    assert after_dream, "the knowledge loop printed nothing"


def test_the_wander_example_runs_as_written(cli_env, cli_mind, store, settings, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    try:
        with Mind(cli_mind, store, settings) as mind:
            mind.import_jsonl(demo_file("felix.jsonl"))
        printed = _run(_blocks()[1], cli_mind)
    finally:
        Mind(cli_mind, store, settings).delete()
    assert "'steps_completed': 50" in printed and "'stopped_reason': 'human checkpoint'" in printed
    assert "'status': 'active', 'seed_concept'" in printed and "'steps_completed': 80" in printed
    assert (tmp_path / "walk.png").exists()


def test_the_field_reference_in_docs_is_the_models():
    doc = (REPO / "docs" / "import-format.md").read_text()
    assert BEGIN in doc and END in doc
    shown = doc[doc.index(BEGIN) : doc.index(END) + len(END)]
    assert shown == field_reference(), "regenerate docs/import-format.md from graphmind.models.reference"
