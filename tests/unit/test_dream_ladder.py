"""The ladder's grouping hooks, without a database: an LLM's regrouping is checked before use,
and a ladder over unchanged patterns is kept as stored."""

from __future__ import annotations

import numpy as np
import pytest

from graphmind.dream import ladder
from graphmind.dream.items import LadderNode, PatternState
from graphmind.dream.params import DreamParams
from tests.unit.dream_items import pattern, unit

PARAMS = DreamParams()


def two_themes() -> list[PatternState]:
    """Two tight pairs of patterns, far apart: the embeddings propose {a1, a2} and {b1, b2}."""
    return [
        pattern("a1", unit(1, 0.1)),
        pattern("a2", unit(1, 0.15)),
        pattern("b1", unit(0, 1, 0.1)),
        pattern("b2", unit(0, 1, 0.15)),
    ]


def level_members(nodes: list[LadderNode], level: int) -> list[list[str]]:
    return sorted(n.members for n in nodes if n.level == level)


@pytest.mark.parametrize(
    ("groups", "problem"),
    [
        ([["a", "b"], ["c"], []], "a group is empty"),
        ([["a", "b"], ["c", "x"]], "'x' is not one of the items"),
        ([["a", "b"], ["b", "c"]], "'b' is in two groups"),
        ([["a", "b"]], "'c' is in no group"),
        ([["a"], ["b"], ["c"]], "3 groups for 3 items do not narrow the ladder"),
    ],
)
def test_a_grouping_that_misplaces_an_item_is_refused_with_the_reason(groups, problem):
    assert ladder.accepted_grouping(["a", "b", "c"], groups) == problem


def test_a_sound_grouping_gives_labels_in_the_order_of_the_items():
    labels = ladder.accepted_grouping(["a", "b", "c", "d"], [["d", "a"], ["c", "b"]])
    assert labels.tolist() == [0, 1, 1, 0]


def test_the_regroup_hook_decides_each_level_and_sees_the_proposal():
    seen = []

    def regroup(level, ids, labels):
        seen.append(
            (
                level,
                list(ids),
                ladder.grouping_input(
                    level, ids, labels, {i: ladder.node_item(LadderNode(i, 1, [], unit(1), i)) for i in ids}, ""
                ).proposal,
            )
        )
        return np.array([0, 1, 0, 1]) if level == 2 else labels  # a1 with b1, a2 with b2

    nodes = ladder.group_levels(two_themes(), PARAMS, regroup=regroup)
    assert seen[0] == (2, ["a1", "a2", "b1", "b2"], [["a1", "a2"], ["b1", "b2"]])
    assert level_members(nodes, 2) == [["a1", "b1"], ["a2", "b2"]]
    assert all(n.id == ladder.abstraction_id(n.level, n.members) for n in nodes)
    assert level_members(ladder.group_levels(two_themes(), PARAMS), 2) == [["a1", "a2"], ["b1", "b2"]]


def test_names_are_given_level_by_level_before_the_next_grouping():
    order = []
    nodes = ladder.group_levels(
        two_themes(), PARAMS, name=lambda level_nodes: order.append(sorted({n.level for n in level_nodes}))
    )
    assert order == [[2], [3]] and {n.level for n in nodes} == {2, 3}


def stored(nodes: list[LadderNode]) -> dict[str, LadderNode]:
    """The ladder as graph.read_ladder returns it: names, members, no centroids."""
    return {
        n.id: LadderNode(
            n.id,
            n.level,
            list(n.members),
            np.empty(0, np.float32),
            f"name {n.id}",
            f"generalization {n.id}",
            is_new=False,
        )
        for n in nodes
    }


def test_a_ladder_over_unchanged_patterns_is_kept_with_its_names_and_centroids():
    patterns = two_themes()
    built = ladder.group_levels(
        patterns, PARAMS, regroup=lambda level, ids, labels: np.array([0, 1, 0, 1]) if level == 2 else labels
    )
    kept = ladder.kept_ladder(patterns, stored(built))
    assert [(n.id, n.level, n.members) for n in kept] == sorted(
        ((n.id, n.level, n.members) for n in built), key=lambda t: (t[1], t[0])
    )
    assert all(n.name == f"name {n.id}" and not n.is_new for n in kept)
    by_id = {n.id: n for n in built}
    for node in kept:
        assert np.allclose(node.centroid, by_id[node.id].centroid, atol=1e-6)


def test_a_new_changed_or_missing_pattern_means_the_ladder_is_built_again():
    patterns = two_themes()
    old = stored(ladder.group_levels(patterns, PARAMS))
    assert ladder.kept_ladder(patterns, old) is not None
    assert ladder.kept_ladder([*patterns, pattern("c1", unit(0, 0, 1), is_new=True)], old) is None
    assert ladder.kept_ladder(patterns[:3], old) is None
    patterns[0].changed = True
    assert ladder.kept_ladder(patterns, old) is None
    assert ladder.kept_ladder(two_themes(), {}) is None


def test_a_stored_principle_over_one_category_means_the_ladder_is_built_again():
    patterns = [pattern("a1", unit(1, 0, 0))]
    category = LadderNode(ladder.abstraction_id(2, ["a1"]), 2, ["a1"], np.empty(0, np.float32), "c", "g", is_new=False)
    principle = LadderNode(
        ladder.abstraction_id(3, [category.id]), 3, [category.id], np.empty(0), "p", "g", is_new=False
    )
    assert ladder.kept_ladder(patterns, {category.id: category}) is not None
    assert ladder.kept_ladder(patterns, {category.id: category, principle.id: principle}) is None  # built before


@pytest.mark.parametrize(("max_level", "levels"), [(1, []), (2, [2]), (3, [2, 3]), (4, [2, 3])])
def test_the_ladder_stops_at_max_level(max_level, levels):
    nodes = ladder.group_levels(two_themes(), DreamParams(max_level=max_level))
    assert sorted({n.level for n in nodes}) == levels
