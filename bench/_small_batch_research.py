"""The study behind ``graphmind/dream/small_batch.py``: how small batches are grouped.

    python bench/_small_batch_research.py [--trials 12]

Batches drawn from the crossed logs (``dream_crossed``, ``_ops``, ``_workshop``) and CLINC150
(10 utterances of each of 75 intents), their action texts embedded by MiniLM:

- random20 / random35: 20 or 35 experiences drawn at random (most techniques once or twice);
- structured: 2-4 labels, 3-5 experiences of each (a session about a few techniques);
- single: up to 8 experiences of one label.

Printed per kind of batch and set: the ARI against the labels (experiences in no group of three
or more count as singletons), the share placed in such a group, and the pair precision of the
groups (pairs of one group with the same label), for the k-NN graph (``cluster_vectors`` with
the cap on communities, as the dream clustered every batch before) and for ``small_batch_labels``
at several ``TIGHT_SPLIT`` values. No held-out set is read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import adjusted_rand_score

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dream_quality import CROSSED, CROSSED_FILES, load, load_crossed

import graphmind.dream.small_batch as small_batch
from graphmind.app import make_embedder
from graphmind.config import Settings
from graphmind.dream.clustering import cluster_vectors
from graphmind.dream.entities import action_texts
from graphmind.dream.params import DreamParams


def score(labels: np.ndarray, truth: list[str]) -> tuple[float, float, float]:
    out = labels.copy()
    for label in np.unique(labels):
        if (labels == label).sum() < 3:
            out[labels == label] = -1
    ids = [f"s{i}" if label < 0 else f"c{label}" for i, label in enumerate(out)]
    pairs = same = 0
    for label in np.unique(out[out >= 0]):
        members = [truth[i] for i in np.flatnonzero(out == label)]
        pairs += len(members) * (len(members) - 1) // 2
        same += sum(members[a] == members[b] for a in range(len(members)) for b in range(a + 1, len(members)))
    return adjusted_rand_score(truth, ids), float((out >= 0).mean()), same / pairs if pairs else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=12)
    args = parser.parse_args()
    embedder = make_embedder(Settings.from_env())
    sources = (("crossed", CROSSED), *((n, CROSSED_FILES[n]) for n in ("ops", "workshop")))
    sets = {name: load_crossed(path)[:2] for name, path in sources}
    data = {name: ([f["description"] for f in fields], labels) for name, (fields, labels) in sets.items()}
    texts, intents, _ = load(10)
    data["clinc"] = (texts, intents)
    variants = {"k-NN graph": None, **{f"small, tight {t}": t for t in (0.2, 0.25, 0.3)}}
    for kind in ("random20", "random35", "structured", "single"):
        for name, (texts, labels) in data.items():
            rng, truth_all = np.random.default_rng(3), np.array(labels)
            results: dict[str, list] = {v: [] for v in variants}
            for _ in range(args.trials):
                if kind.startswith("random"):
                    batch = rng.permutation(len(texts))[: int(kind[6:])]
                else:
                    count = 1 if kind == "single" else int(rng.integers(2, 5))
                    chosen = rng.choice(np.unique(truth_all), size=count, replace=False)
                    batch = np.concatenate(
                        [
                            rng.choice(
                                np.flatnonzero(truth_all == c),
                                size=min(8, int((truth_all == c).sum()))
                                if kind == "single"
                                else int(rng.integers(3, 6)),
                                replace=False,
                            )
                            for c in chosen
                        ]
                    )
                actions = action_texts([texts[i] for i in batch])
                vectors = np.asarray(embedder.embed(actions))
                truth = list(truth_all[batch])
                for variant, tight in variants.items():
                    if tight is None:
                        found = cluster_vectors(
                            vectors, actions, min_cluster_size=1, max_clusters=max(2, len(batch) // 7)
                        )
                    else:
                        small_batch.TIGHT_SPLIT = tight
                        found = small_batch.small_batch_labels(vectors, DreamParams())
                    results[variant].append(score(np.asarray(found), truth))
            for variant, rows in results.items():
                ari, placed, precision = np.nanmean(np.array(rows, float), axis=0)
                print(
                    f"{kind:10s} {name:9s} {variant:18s} ARI {ari:.3f}  placed {placed:.2f}  pair precision {precision:.2f}"
                )


if __name__ == "__main__":
    main()
