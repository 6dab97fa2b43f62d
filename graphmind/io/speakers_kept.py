"""After an import: each turn it holds keeps only the speakers the import gives it.

A conversation imported before the mind's Identity (or a Partnership of its speaker's name)
existed links its turns to a stand-in Person (``person-<name>``); imported again afterwards,
they link to the Identity, and the earlier ``SPOKEN_BY`` edge goes (``import/delete_other_speakers``),
so a turn never has two speakers. The Person node stays, with whatever else links to it. Turns
new to the mind have no earlier edge and are not asked about.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from graphmind.store import GraphStore

SPOKEN_BY = "SPOKEN_BY"
BATCH = 5_000


def drop_other_speakers(
    store: GraphStore, mind: str, spoken: Sequence[tuple[str, str, int]], *, skip: Collection[int], new: Collection[str]
) -> int:
    """Delete each stored turn's SPOKEN_BY edges to nodes other than those the import linked;
    ``spoken``: (turn id, speaker id, line) of the import's SPOKEN_BY edges, ``skip``: the
    lines refused, ``new``: the ids new to the mind. How many edges went."""
    speakers: dict[str, set[str]] = {}
    for turn, speaker, line in spoken:
        if line not in skip and turn not in new:
            speakers.setdefault(f"{mind}:{turn}", set()).add(f"{mind}:{speaker}")
    rows = [{"turn": turn, "speakers": sorted(ids)} for turn, ids in sorted(speakers.items())]
    deleted = 0
    for start in range(0, len(rows), BATCH):
        deleted += store.write("import/delete_other_speakers", mind=mind, rows=rows[start : start + BATCH])[0][
            "deleted"
        ]
    return deleted
