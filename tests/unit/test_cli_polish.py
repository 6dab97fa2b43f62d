"""What the CLI prints, tidied (issue 27, item 14): warnings as one line, no word cut in half,
plurals that agree, a dream message that reads."""

from __future__ import annotations

import warnings

import click

from graphmind.cli.main import cli, main
from graphmind.context.templates import compose
from graphmind.dream.report import DreamReport
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import ContextInput, Dependency
from graphmind.text import trim


def test_a_warning_raised_by_a_verb_is_one_line_without_a_source_path(capsys):
    @click.command("warn-once")
    def warn_once() -> None:
        warnings.warn("the ratio is 3.0:1, outside 5-10:1", UserWarning, stacklevel=1)

    cli.add_command(warn_once)
    try:
        assert main(["warn-once"]) == 0
    finally:
        cli.commands.pop("warn-once")
    err = capsys.readouterr().err
    assert err == "graphmind: warning: the ratio is 3.0:1, outside 5-10:1\n"
    assert ".py" not in err


def test_trim_never_cuts_a_word():
    concept = "race conditions between the settlement worker and the reconciliation job"
    cut = trim(concept, 40)
    assert len(cut) <= 40 and cut.endswith("…")
    assert concept.startswith(cut[:-1]) and concept[len(cut) - 1] == " "


def test_the_dream_message_names_the_verification_once_with_its_score():
    report = DreamReport(
        run_id="r1",
        mind="m",
        status="completed",
        trigger="manual",
        experiences=4,
        triaged=4,
        patterns=1,
        verification={"status": "verified", "score": 0.93},
    )
    assert report.message.endswith("; verification: verified (score 0.93)")
    assert "verified verified" not in report.message
    waiting = DreamReport(run_id="r2", mind="m", status="completed", trigger="manual", experiences=17, deferred=10)
    assert "; 10 wait for more like them" in waiting.message  # what the run left aside is said


def test_one_dependency_is_one_file():
    code = MemoryItem(
        id="c1",
        label="Code_Reference",
        text="ledger.py",
        properties={"file_path": "src/ledger.py", "complexity": "high"},
    )
    tech = MemoryItem(id="t1", label="Technical_Context", text="the ledger", properties={"project": "ledger"})
    sections = compose(
        ContextInput(
            stimulus="the ledger is slow",
            memories=[tech, code],
            dependencies=[Dependency(source="t1", rel="DEPENDS_ON", target="c1")],
        )
    )
    text = sections.technical_context
    assert "Dependencies: 1 file\n" in text and "1 files" not in text


def test_log_level_and_verbose_turn_logging_up_for_the_run(capsys):
    import logging

    from graphmind.cli import logs

    try:
        assert main(["--log-level", "debug", "model", "status"]) == 0
        assert logging.getLogger().level == logging.DEBUG
        assert logging.getLogger("neo4j").level == logging.NOTSET  # the driver's lines too
        assert main(["-v", "model", "status"]) == 0
        assert logging.getLogger().level == logging.INFO
        assert main(["model", "status"]) == 0  # without them: graphmind's warnings only
        assert logging.getLogger().level == logging.WARNING
        assert logging.getLogger("neo4j").level > logging.CRITICAL
    finally:
        logs.configure(None)
