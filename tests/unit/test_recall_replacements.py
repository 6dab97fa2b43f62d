"""What replaced an outdated recall hit, and what gives way to keep k (recall.hits, pure with a
stand-in for the one read it makes)."""

from __future__ import annotations

from graphmind.recall.hits import with_replacements
from graphmind.recall.results import RecallHit
from graphmind.store.records import node_to_model


class Replacements:
    """Answers ``recall/list_replacements`` with the rows it was given."""

    def __init__(self, rows: list[dict]):
        self.rows = rows

    def read(self, name: str, **params) -> list[dict]:
        assert name == "recall/list_replacements" and params["mind"] == "m"
        return [r for r in self.rows if r["old"] in params["uids"] and r["label"] in params["labels"]]


def hit(
    node_id: str,
    score: float,
    outdated: str | None = None,
    identifiers: tuple[str, ...] = (),
    similarity: float | None = None,
) -> RecallHit:
    node = node_to_model("Experience", {"id": node_id, "description": f"memory {node_id}", "outcome": "success"})
    return RecallHit(
        node=node,
        label="Experience",
        score=score,
        outdated=outdated,
        identifiers=list(identifiers),
        similarity=similarity,
    )


def row(old: str, new: str, hops: int = 1) -> dict:
    props = {"id": new, "description": f"memory {new}", "outcome": "success"}
    return {"old": f"m:{old}", "uid": f"m:{new}", "label": "Experience", "props": props, "hops": hops}


def ids(hits: list[RecallHit]) -> list[str]:
    return [h.id for h in hits]


def test_the_replacement_ranks_where_the_outdated_hit_would_and_the_plain_hit_gives_way():
    hits = [hit("a", 0.03), hit("b", 0.02), hit("old", 0.05, "not valid since 2026-01-01")]
    out = with_replacements(Replacements([row("old", "new")]), "m", hits, 3, ["Experience"])
    assert ids(out) == ["new", "a", "old"] and out[0].graph == ["replaces old"]


def test_a_hit_naming_the_querys_identifier_never_gives_way_to_a_replacement():
    hits = [hit("named", 0.01, identifiers=("ABC-123",)), hit("old", 0.05, "not valid since 2026-01-01")]
    out = with_replacements(Replacements([row("old", "new")]), "m", hits, 2, ["Experience"])
    assert ids(out) == ["named", "new"]  # after the named hit, and the outdated one made room


def test_a_replacement_of_a_label_not_asked_for_stays_out():
    hits = [hit("a", 0.03), hit("old", 0.05, "not valid since 2026-01-01")]
    out = with_replacements(Replacements([row("old", "new")]), "m", hits, 2, ["Technical_Context"])
    assert ids(out) == ["a", "old"]


def test_a_replacement_ranked_above_already_is_marked_and_its_outdated_hit_kept():
    hits = [hit("new", 0.09), hit("a", 0.03), hit("b", 0.02), hit("old", 0.05, "not valid since 2026-01-01")]
    out = with_replacements(Replacements([row("old", "new")]), "m", hits, 3, ["Experience"])
    assert ids(out) == ["new", "a", "old"] and out[0].graph == ["replaces old"]


def test_a_replacement_never_ranks_before_a_hit_nearer_the_query_than_the_outdated_one():
    """The outdated hit ranked first on a shared word; the memory most like the query stays first."""
    old = hit("old", 0.05, "not valid since 2026-01-01", similarity=0.60)
    hits = [hit("best", 0.03, similarity=0.80), hit("b", 0.02, similarity=0.55), old]
    out = with_replacements(Replacements([row("old", "new")]), "m", hits, 3, ["Experience"])
    assert ids(out) == ["best", "new", "old"]
    only_text = hit("old", 0.05, "not valid since 2026-01-01")  # found by the full-text search alone
    out = with_replacements(
        Replacements([row("old", "new")]), "m", [hit("a", 0.03, similarity=0.5), only_text], 3, ["Experience"]
    )
    assert ids(out) == ["a", "new", "old"]
    alike = hit("old", 0.05, "not valid since 2026-01-01", similarity=0.90)  # the nearest: its place holds
    out = with_replacements(
        Replacements([row("old", "new")]), "m", [hit("a", 0.03, similarity=0.8), alike], 3, ["Experience"]
    )
    assert ids(out) == ["new", "a", "old"]
