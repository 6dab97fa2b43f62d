"""After an import: a turn now linked to the Partnership or the Identity of its speaker's name
loses the SPOKEN_BY edge an earlier import gave it to the stand-in Person ``person-<name>``
(made when the mind held neither), so a turn never has both. Only that edge goes
(``import/delete_stand_in_speakers``): a SPOKEN_BY edge line of a file, or one to any other
node, is left as it is, and so is the Person node. Turns new to the mind, and lines refused,
are not asked about.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from graphmind.store import GraphStore


def drop_stand_ins(
    store: GraphStore,
    mind: str,
    displaced: Sequence[tuple[str, str, int]],
    skip: Collection[int],
    new: Collection[str],
    batch: int,
) -> int:
    """Delete each stored turn's SPOKEN_BY edge to its stand-in; ``displaced``: (turn id,
    stand-in Person id, line), ``skip``: the lines refused, ``new``: the ids new to the mind.
    How many edges went."""
    rows = [
        {"turn": f"{mind}:{turn}", "person": f"{mind}:{person}"}
        for turn, person, line in displaced
        if line not in skip and turn not in new
    ]
    deleted = 0
    for start in range(0, len(rows), batch):
        deleted += store.write("import/delete_stand_in_speakers", mind=mind, rows=rows[start : start + batch])[0][
            "deleted"
        ]
    return deleted
