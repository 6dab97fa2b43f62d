"""Pattern quality over two nights: does a night's grouping meet the patterns earlier nights formed?

    python bench/dream_nights_quality.py [--data clinc,crossed,...] [--write]

Each labelled set of ``bench/dream_quality.py`` is captured in two halves: the first half of
each label's experiences (night 1, dreamed), then the rest (night 2, dreamed again). The
adjusted Rand index over all experiences against the labels (those in no pattern count as
singletons) is printed for:

- graphmind: night 2 clustered with the patterns' anchors (``graphmind/dream/anchors.py``);
- the baseline: the same two nights with no anchors, so night 2's experiences join a pattern
  only by strategy name or by cosine ≥ ``join_similarity`` to its centroid, and the rest are
  clustered alone (the behaviour before anchors);
- one night: all experiences dreamed at once (what two nights would ideally reach).

Also: the share of night 2's experiences that joined a pattern of night 1, and how many of those
joined the pattern whose night-1 members mostly carry their label ("right").
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import bench_store, scratch_mind, write_table
from dream_quality import CROSSED_FILES, INTENT_FILES, experiences, labels_with_singletons, load, load_crossed
from sklearn.metrics import adjusted_rand_score

from graphmind.dream import DreamParams
from graphmind.mind import Mind


def labelled(name: str, per_intent: int) -> tuple[list[dict], list[str]]:
    if name == "clinc":
        texts, labels, _ = load(per_intent)
        return experiences(texts), labels
    if name in INTENT_FILES:
        texts, labels, _ = load(None, INTENT_FILES[name])
        return experiences(texts), labels
    fields, labels, _ = load_crossed(CROSSED_FILES[name])
    return experiences(fields), labels


def halves(labels: list[str]) -> list[int]:
    """0 for the first half of each label's experiences (in order), 1 for the rest."""
    total, seen, out = Counter(labels), Counter(), []
    for label in labels:
        seen[label] += 1
        out.append(0 if seen[label] <= total[label] // 2 else 1)
    return out


def dream_nights(captured: list[dict], nights: list[int], params: DreamParams) -> tuple[dict, dict]:
    """(memberships after night 1, after the last night): experience id → pattern id or None."""
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-dream-nights"), store, settings)
        try:
            after: list[dict] = []
            for night in sorted(set(nights)):
                mind.capture_many([c for c, n in zip(captured, nights) if n == night])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    mind.dream(params)
                rows = mind.store.read("dream/list_memberships", mind=mind.name)
                after.append({r["id"]: r["pattern"] for r in rows})
        finally:
            mind.delete()
            mind.close()
    return after[0], after[-1]


def score(name: str, per_intent: int, per_pattern: int) -> dict:
    captured, labels = labelled(name, per_intent)
    nights = halves(labels)
    first, last = dream_nights(captured, nights, DreamParams(anchors_per_pattern=per_pattern))
    ids = [c["id"] for c in captured]
    owners: dict[str, Counter] = defaultdict(Counter)
    for i, label, night in zip(ids, labels, nights):
        if night == 0 and first.get(i):
            owners[first[i]][label] += 1
    joined = [(i, label) for i, label, n in zip(ids, labels, nights) if n == 1 and last.get(i) in owners]
    right = sum(owners[last[i]].most_common(1)[0][0] == label for i, label in joined)
    return {
        "ari": adjusted_rand_score(labels, labels_with_singletons([last.get(i) for i in ids])),
        "joined": len(joined) / max(1, sum(nights)),
        "right": right / max(1, len(joined)),
    }


def one_night(name: str, per_intent: int) -> float:
    captured, labels = labelled(name, per_intent)
    _, last = dream_nights(captured, [0] * len(captured), DreamParams())
    return adjusted_rand_score(labels, labels_with_singletons([last.get(c["id"]) for c in captured]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="clinc,crossed,ops,workshop,helpdesk,civic,campus,garden,incidents")
    parser.add_argument("--per-intent", type=int, default=10)
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md (dream-nights)")
    args = parser.parse_args()
    lines = [
        "| data | two nights: graphmind (anchors) | joined, right | baseline (no anchors) | joined, right "
        "| ratio | one night |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in args.data.split(","):
        default = DreamParams.model_fields["anchors_per_pattern"].default
        ours, base = score(name, args.per_intent, default), score(name, args.per_intent, 0)
        once = one_night(name, args.per_intent)
        ratio = f"{ours['ari'] / base['ari']:.2f}" if base["ari"] > 0.05 else "-"
        line = (
            f"| {name} | {ours['ari']:.3f} | {ours['joined']:.2f}, {ours['right']:.2f} | {base['ari']:.3f} "
            f"| {base['joined']:.2f}, {base['right']:.2f} | {ratio} | {once:.3f} |"
        )
        print(line, flush=True)
        lines.append(line)
    if args.write:
        write_table("dream-nights", "dream_nights_quality.py", lines, "offline LLM, MiniLM; ARI against the labels")


if __name__ == "__main__":
    main()
