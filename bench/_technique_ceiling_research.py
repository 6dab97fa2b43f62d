"""How far can technique grouping go on the crossed logs if the thing acted on were known? (issue 20)

    python bench/_technique_ceiling_research.py

For each crossed log (techniques x entities, dream_quality's loaders; MiniLM, unit vectors), on
the raw descriptions and on the action texts grouping reads (``entities.action_texts``), the
ARI against technique of Ward given the true k on:
- ``as is``: the vectors themselves;
- ``entity ARI``: Ward given the number of entities, against the entity (how much the thing
  acted on shapes the space);
- ``oracle``: each vector minus the mean of its true entity's vectors (the entity removed by
  its label: a ceiling no label-free rule reaches);
- ``estimated``: the same with the entity estimated as Ward's grouping into the true number of
  entities (label-free but for that number), which helps only where the entity is the space's
  main shape and ruins the grouping where the technique is.
A research script (no --write): its figures are quoted in bench/RESULTS.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.metrics import adjusted_rand_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import json

import dream_quality as dq

from graphmind.dream import entities
from graphmind.embed import MiniLMEmbedder


def ward(x: np.ndarray, k: int) -> np.ndarray:
    return AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(x)


def residuals(x: np.ndarray, groups: np.ndarray) -> np.ndarray:
    out = x.copy()
    for g in np.unique(groups):
        out[groups == g] -= x[groups == g].mean(axis=0)
    return out


def main() -> None:
    embedder = MiniLMEmbedder()
    print(f"{'log':10} {'texts':7} {'as is':>6} {'entity ARI':>10} {'oracle':>7} {'estimated':>9}")
    for name, path in dq.CROSSED_FILES.items():
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        techniques = [r["technique"] for r in rows]
        things = np.array([str(r.get("entity") or r.get("service")) for r in rows])
        raw = [r["description"] for r in rows]
        k, n_things = len(set(techniques)), len(set(things))
        for kind, texts in (("raw", raw), ("action", entities.action_texts(raw, readable=False))):
            x = np.asarray(embedder.embed(list(texts)), dtype=np.float64)
            x /= np.linalg.norm(x, axis=1, keepdims=True)
            as_is = adjusted_rand_score(techniques, ward(x, k))
            entity = adjusted_rand_score(things, ward(x, n_things))
            oracle = adjusted_rand_score(techniques, ward(residuals(x, things), k))
            estimated = adjusted_rand_score(techniques, ward(residuals(x, ward(x, n_things)), k))
            print(f"{name:10} {kind:7} {as_is:6.3f} {entity:10.3f} {oracle:7.3f} {estimated:9.3f}")


if __name__ == "__main__":
    main()
