"""The dream commands' text: ``graphmind waiting`` (cli.dream_cmd.waiting_text) and knowledge's examples."""

from graphmind.cli.dream_cmd import waiting_text
from graphmind.dream.waiting import Waiting, WaitingExperience


def test_nothing_waiting_says_so():
    assert waiting_text(Waiting(mind="m", total=0, unread=0, experiences=[])) == (
        "mind 'm': no experience waits for a pattern"
    )


def test_each_line_says_why_it_waits_and_a_cut_list_says_so():
    found = Waiting(
        mind="m",
        total=5,
        unread=1,
        experiences=[
            WaitingExperience(id="a", description="Degassed the eluent"),
            WaitingExperience(id="b", description="Sparged it", runs=2, invalid=True),
        ],
    )
    lines = waiting_text(found).splitlines()
    assert lines[0] == (
        "mind 'm': 5 experiences wait for a pattern (1 that no dream has read yet, 4 that a dream left to wait"
        " for more like them); the oldest 2:"
    )
    one = Waiting(mind="m", total=1, unread=1, experiences=[WaitingExperience(id="a", description="x")])
    assert waiting_text(one).startswith("mind 'm': 1 experience waits for a pattern (1 that no dream")
    assert lines[1:] == ["  a  unread  Degassed the eluent", "  b  left by 2 runs, superseded  Sparged it"]


def test_an_outdated_example_says_since_when():
    from graphmind.cli.dream_cmd import _told

    example = {"description": "Warm fluids, 15ml", "outdated": True, "invalid_at": "2026-04-21T18:00:00+00:00"}
    assert _told(example) == "Warm fluids, 15ml  (outdated: superseded since 2026-04-21 18:00 UTC)"
    assert _told({"description": "Warm fluids, 5ml", "outdated": False}) == "Warm fluids, 5ml"
