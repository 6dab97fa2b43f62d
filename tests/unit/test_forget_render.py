"""The CLI's text of a forget: every forgotten memory, at most a few lines per kind of change."""

from graphmind.cli.forget_cmd import SHOWN, render
from graphmind.forget import ForgetReport
from graphmind.forget.engine import DerivedNode, EdgeRef, ForgottenMemory


def _report(experiences: int) -> ForgetReport:
    return ForgetReport(
        mind="shop",
        cascade=True,
        dry_run=True,
        forgotten=[ForgottenMemory(id="pattern-1", label="Pattern")],
        edges=[
            EdgeRef(source=f"e{k}", type="EXEMPLIFIES", target="pattern-1", provenance=True) for k in range(experiences)
        ],
        derived=[
            DerivedNode(
                id="abs-1", label="Abstraction", via=["SUBSUMES"], support_before=1, support_after=0, action="remove"
            )
        ],
        scrubbed=[],
        released=[f"e{k}" for k in range(experiences)],
    )


def test_a_pattern_of_forty_experiences_prints_a_few_lines_per_kind_and_counts_the_rest():
    text = render(_report(40))
    lines = text.splitlines()
    assert lines[0].startswith("would forget 1 memory of mind shop: 40 edges (40 provenance)")
    assert "  memory   Pattern" in lines[1] and any("abs-1" in line for line in lines)
    assert sum(line.startswith("  edge") for line in lines) == SHOWN
    assert sum(line.startswith("  released") for line in lines) == SHOWN
    assert f"  ... and {40 - SHOWN} more provenance edges (--json lists them all)" in lines
    assert f"  ... and {40 - SHOWN} more released experiences (--json lists them all)" in lines
    assert len(lines) < 25


def test_a_few_changes_are_all_listed():
    lines = render(_report(SHOWN + 1)).splitlines()
    assert sum(line.startswith("  edge") for line in lines) == SHOWN + 1  # no "1 more" line for one line
    assert not any("more" in line for line in lines)
