"""Phase 4, the abstraction ladder: level 0 experiences, level 1 patterns (named techniques),
level 2 categories, level 3 principles, level 4 meta-principles (from ``meta_min_patterns``
patterns on).

Each level above 1 groups the nodes one level down by their centroids, so every higher node
subsumes at least one lower node and the top still reaches the experiences. Up to
``SMALL_LEVEL`` nodes (a typical session's handful of techniques) are grouped by
average-linkage agglomeration cut at the widest gap between merge distances among the cuts
that keep at least half of them apart, then lone items folded (below), so the ladder
narrows level by level, about twice a level;
more nodes are grouped by communities of their neighbour graph
(graphmind.dream.clustering.group_clusters). A node's id comes from its level and its
members, so a group that a later dream finds again is the same node (its name is kept and no
LLM call is made); names and generalisations come from the LLM (``dream.name_abstraction``),
which is given the node's c-TF-IDF key phrases (``naming``; offline, the first is the name).
Single children (the rule where "a level node with one child is folded into it" meets the
spec's minimum of three levels): a group of one item joins its nearest group, or pairs with
another lone item (``fold_single_children``), before an online LLM sees the proposal. Three
exceptions, each a node with one child: level 2 over a single pattern (level 2 is always
built: experiences, patterns, categories, the spec's minimum of three levels, so one pattern
still gets a category); the last lone item where joining would merge a level of four or more
items into one node; and a technique an online LLM files alone (world knowledge: a category
of its own). From level 3 up, a level of one node is the top: a principle over one category
would only repeat it.

With an online LLM each level's grouping is a proposal: the engine shows it with the items to
the LLM (``dream.group_level``), which may move items between groups, as world knowledge
tells it which techniques belong to one category where the embeddings only see similar
wording. An answer that does not place every item exactly once, in fewer groups than items,
is not used (``accepted_grouping``; the engine asks once more, giving the reason). A ladder
whose patterns are all unchanged is kept as it is (``kept_ladder``), so a run with nothing
new asks the LLM nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from graphmind.dream.clustering import group_clusters
from graphmind.dream.items import LadderNode, PatternState, centroid_of
from graphmind.dream.naming import distinct_names, level_key_phrases
from graphmind.dream.params import DreamParams
from graphmind.prompts.dream import AbstractionInput, AbstractionOutput, GroupingInput, PatternItem

SMALL_LEVEL = 12


def abstraction_id(level: int, member_ids: list[str]) -> str:
    digest = hashlib.sha1("\n".join(sorted(member_ids)).encode()).hexdigest()[:12]
    return f"abstraction-l{level}-{digest}"


Regroup = Callable[[int, list[str], np.ndarray], np.ndarray]
"""(level, the ids of the items one level down, the proposed labels) → the labels to use."""


def group_levels(
    patterns: list[PatternState],
    params: DreamParams,
    *,
    regroup: Regroup | None = None,
    name: Callable[[list[LadderNode]], None] | None = None,
) -> list[LadderNode]:
    """The ladder over the active ``patterns``: level 2, then 3 and 4 while a level has two
    nodes or more (4 from ``meta_min_patterns`` patterns), level by level.
    ``regroup`` may change each level's proposed grouping; ``name`` names a level's nodes
    before the next level is grouped (so the next grouping sees the names)."""
    if not patterns:
        return []
    top = min(params.max_level, 4 if len(patterns) >= params.meta_min_patterns else 3)
    ids = [p.id for p in patterns]
    vectors = np.vstack([p.centroid for p in patterns])
    sizes = [p.usage_count for p in patterns]
    texts = [[p.name, p.description] for p in patterns]
    nodes: list[LadderNode] = []
    for level in range(2, top + 1):
        if len(ids) < 2 and level > 2:
            break  # a node over one child only repeats it; level 2 stays (the spec's three levels)
        labels = fold_single_children(
            vectors,
            widest_gap_groups(vectors)
            if len(vectors) <= SMALL_LEVEL
            else group_clusters(vectors, texts, sizes=sizes, seed=params.seed),
        )
        if regroup is not None:
            labels = regroup(level, ids, labels)  # a category of one that the LLM makes stands
        groups = label_groups(labels)
        level_nodes = [
            _node(level, [ids[k] for k in group], vectors[group], [sizes[k] for k in group]) for group in groups
        ]
        phrases = level_key_phrases([[" ".join(texts[k]) for k in group] for group in groups])
        for node, found in zip(level_nodes, phrases):
            node.key_phrases = found
        if name is not None:
            name(level_nodes)
        nodes += level_nodes
        ids = [n.id for n in level_nodes]
        vectors = np.vstack([n.centroid for n in level_nodes])
        sizes = [sum(sizes[k] for k in group) for group in groups]
        texts = [[t for k in group for t in texts[k]] for group in groups]
    return nodes


def _node(level: int, members: list[str], vectors: np.ndarray, sizes: list[float]) -> LadderNode:
    """The unnamed node of ``members`` (their unit ``vectors``, weighted by ``sizes``)."""
    members = sorted(members)
    return LadderNode(
        id=abstraction_id(level, members),
        level=level,
        members=members,
        centroid=centroid_of(vectors, np.array(sizes, float)),
    )


def fold_single_children(vectors: np.ndarray, labels: Sequence[int] | np.ndarray) -> np.ndarray:
    """``labels`` with no group of one item (a node that would only repeat its child): the lone
    item closest to another group joins it, and so on, so lone items may pair with each other.
    Closeness is the mean cosine to the group's items (average linkage, as
    ``widest_gap_groups``), not to its centroid, which would draw every lone item into the
    biggest group. The last lone item stays alone where joining would merge a level of four or
    more items into one node (the level keeps its structure: 4 techniques → 2 categories)."""
    labels = np.unique(np.asarray(labels, dtype=np.int64), return_inverse=True)[1]
    similarity = vectors @ vectors.T
    while True:
        counts = np.bincount(labels)
        lone = np.flatnonzero(counts[labels] == 1)
        if len(counts) < 2 or not len(lone) or (len(counts) == 2 and len(labels) >= 4):
            return labels
        mean = (similarity[lone] @ np.eye(len(counts))[labels]) / counts
        mean[np.arange(len(lone)), labels[lone]] = -np.inf
        row, group = np.unravel_index(int(np.argmax(mean)), mean.shape)
        labels[lone[row]] = group
        labels = np.unique(labels, return_inverse=True)[1]


def label_groups(labels: Sequence[int] | np.ndarray) -> list[list[int]]:
    """The positions of each label's items, labels in ascending order."""
    return [[k for k, x in enumerate(labels) if int(x) == label] for label in sorted({int(x) for x in labels})]


def accepted_grouping(ids: Sequence[str], groups: Sequence[Sequence[str]]) -> np.ndarray | str:
    """The labels (in the order of ``ids``) of an LLM's ``groups``, or why they cannot be used:
    every id exactly once, no unknown id, no empty group, fewer groups than ids."""
    position = {item: k for k, item in enumerate(ids)}
    labels = np.full(len(ids), -1, dtype=np.int64)
    for label, group in enumerate(groups):
        if not group:
            return "a group is empty"
        for item in group:
            if item not in position:
                return f"{item!r} is not one of the items"
            if labels[position[item]] >= 0:
                return f"{item!r} is in two groups"
            labels[position[item]] = label
    missing = [ids[int(k)] for k in np.flatnonzero(labels < 0)]
    if missing:
        return f"{missing[0]!r} is in no group"
    if len(groups) >= len(ids):
        return f"{len(groups)} groups for {len(ids)} items do not narrow the ladder"
    return labels


def kept_ladder(patterns: list[PatternState], old: dict[str, LadderNode]) -> list[LadderNode] | None:
    """The stored ladder, its centroids recomputed, when it stands on exactly these
    ``patterns`` and none of them changed this run; else None."""
    if not patterns or any(p.is_new or p.changed for p in patterns):
        return None
    level2 = [n for n in old.values() if n.level == 2]
    if sorted(m for n in level2 for m in n.members) != sorted(p.id for p in patterns):
        return None
    if any(n.level > 2 and len(n.members) < 2 for n in old.values()):
        return None  # a principle over one category, from before group_levels built none: built again
    vectors = {p.id: p.centroid for p in patterns}
    sizes = {p.id: float(p.usage_count) for p in patterns}
    kept = []
    for node in sorted(old.values(), key=lambda n: (n.level, n.id)):
        if any(m not in vectors for m in node.members):
            return None
        centroid = centroid_of(
            np.vstack([vectors[m] for m in node.members]), np.array([sizes[m] for m in node.members])
        )
        vectors[node.id], sizes[node.id] = centroid, sum(sizes[m] for m in node.members)
        kept.append(
            LadderNode(
                id=node.id,
                level=node.level,
                members=list(node.members),
                centroid=centroid,
                name=node.name,
                generalization=node.generalization,
                is_new=False,
            )
        )
    return kept


def widest_gap_groups(vectors: np.ndarray) -> np.ndarray:
    """Average-linkage groups of unit ``vectors`` (cosine distance), cut at the widest gap
    between successive merge distances, keeping ceil(n/2)..n-1 groups (at least 2); 1-3 vectors
    form one group."""
    n = len(vectors)
    if n <= 3:
        return np.zeros(n, dtype=np.int64)
    groups = [[i] for i in range(n)]
    distance = 1.0 - vectors @ vectors.T
    history, heights = [], []
    while len(groups) > 1:
        pairs = [
            (float(distance[np.ix_(a, b)].mean()), i, j)
            for i, a in enumerate(groups)
            for j, b in enumerate(groups)
            if i < j
        ]
        height, i, j = min(pairs)
        groups[i] = groups[i] + groups[j]
        del groups[j]
        history.append([list(g) for g in groups])
        heights.append(height)
    # history[m] holds n-1-m groups: a cut after merge m leaves them.
    fewest = max(2, -(-n // 2))
    gaps = [(heights[m + 1] - heights[m], m) for m in range(len(heights) - 1) if n - 1 - m >= fewest]
    _, cut = max(gaps)
    labels = np.zeros(n, dtype=np.int64)
    for label, members in enumerate(history[cut]):
        labels[members] = label
    return labels


def grouping_input(
    level: int, ids: list[str], labels: np.ndarray, below: dict[str, PatternItem], domain: str
) -> GroupingInput:
    proposal = [[ids[k] for k in group] for group in label_groups(labels)]
    return GroupingInput(level=level, items=[below[i] for i in ids], proposal=proposal, domain=domain)


def naming_input(node: LadderNode, below: dict[str, PatternItem], domain: str) -> AbstractionInput:
    return AbstractionInput(
        level=node.level, members=[below[m] for m in node.members], domain=domain, key_phrases=node.key_phrases
    )


def node_item(node: LadderNode) -> PatternItem:
    """An abstraction as the next level's naming prompt sees it."""
    return PatternItem(id=node.id, description=f"{node.name}: {node.generalization}".strip(": "), name=node.name)


def apply_name(node: LadderNode, output: AbstractionOutput) -> None:
    node.name, node.generalization = output.name, output.generalization


def distinct_siblings(nodes: list[LadderNode], below: dict[str, PatternItem]) -> None:
    """No two nodes of a level share a name (``naming.distinct_names``; a stored one keeps its)."""
    children = [[below[m].description for m in node.members] for node in nodes]
    names = distinct_names(
        [n.name for n in nodes], [not n.is_new for n in nodes], [n.key_phrases for n in nodes], children
    )
    for node, name in zip(nodes, names, strict=True):
        node.name = name


def levels(nodes: list[LadderNode], has_patterns: bool) -> int:
    """How many levels the ladder has, level 0 (the experiences) included."""
    if not has_patterns:
        return 0
    return 2 + len({n.level for n in nodes})
