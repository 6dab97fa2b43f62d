"""Pattern quality on real data: CLINC150 utterances consolidated as experiences.

    python bench/dream_quality.py [--per-intent 10]

Takes the first ``--per-intent`` training utterances of each of the 75 intents of
``../shared/data/clinc150`` (5 domains), captures them as experiences of a scratch mind
(outcome success, no strategy named, no session), embeds them (the default MiniLM model) and
runs one dream with the settings' LLM (the offline one unless ``ANTHROPIC_API_KEY`` is set;
Claude also reviews each ladder level's grouping, ``dream.group_level``), without telling it
how many clusters there are. Then it
compares, with the adjusted Rand index over all experiences,
- the patterns (level 1) with the intents, and the level-2 categories with the domains
  (experiences left in no pattern count as singletons);
- side by side, MiniLM + Ward agglomerative clustering *given* k = 75 and k = 5.
Targets (issue 5): pattern ARI >= 0.75, level-2 ARI >= 0.6.

``--ceiling`` instead runs the dream with a stand-in for a knowledgeable grouping LLM: it
files each pattern under the majority domain of its example experiences (the labels the
evaluation uses, so an upper bound of what ``dream.group_level`` can bring, not a result).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind  # noqa: E402

from graphmind.dream import DreamParams  # noqa: E402
from graphmind.llm import LLM  # noqa: E402
from graphmind.llm.offline import OfflineLLM  # noqa: E402
from graphmind.llm.offline_behaviours.dream import group_level  # noqa: E402
from graphmind.mind import Mind  # noqa: E402
from graphmind.prompts.dream import GroupingOutput, ItemGroup  # noqa: E402

CLINC = Path(os.environ.get("GRAPHMIND_CLINC150", Path(__file__).resolve().parents[2]
                            / "shared" / "data" / "clinc150" / "clinc150_5domains.json"))


def load(per_intent: int, path: Path = CLINC) -> tuple[list[str], list[str], list[str]]:
    """(texts, intents, domains): the first ``per_intent`` utterances of each intent."""
    data = json.loads(path.read_text())
    domain_of = {intent: d for d, intents in data["domains"].items() for intent in intents}
    taken: dict[str, int] = {}
    texts, intents = [], []
    for text, intent in data["train"]:
        if intent in domain_of and taken.get(intent, 0) < per_intent:
            taken[intent] = taken.get(intent, 0) + 1
            texts.append(text)
            intents.append(intent)
    return texts, intents, [domain_of[i] for i in intents]


def experiences(texts: list[str]) -> list[dict]:
    return [{"id": f"u{i:04d}", "description": t, "outcome": "success", "kind": "move",
             "timestamp": f"2026-01-04T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}+00:00"}
            for i, t in enumerate(texts)]


def adjusted_rand_score(truth: list[str], found: list[str]) -> float:
    """Hubert and Arabie's adjusted Rand index (what sklearn.metrics.adjusted_rand_score gives)."""
    _, t = np.unique(truth, return_inverse=True)
    _, f = np.unique(found, return_inverse=True)
    table = np.zeros((t.max() + 1, f.max() + 1), dtype=np.int64)
    np.add.at(table, (t, f), 1)
    pairs = lambda x: (x * (x - 1) // 2).sum()  # noqa: E731
    index, rows, cols, total = pairs(table), pairs(table.sum(1)), pairs(table.sum(0)), pairs(np.array([len(t)]))
    expected = rows * cols / total
    maximum = (rows + cols) / 2
    return 1.0 if maximum == expected else float((index - expected) / (maximum - expected))


def labels_with_singletons(values: list[str | None]) -> list[str]:
    return [v if v is not None else f"alone-{i}" for i, v in enumerate(values)]


def evaluate(mind: Mind, intents: list[str], domains: list[str]) -> dict[str, float]:
    rows = {r["id"]: r for r in mind.store.read("dream/list_memberships", mind=mind.name)}
    ids = [f"u{i:04d}" for i in range(len(intents))]
    patterns = labels_with_singletons([rows[i]["pattern"] for i in ids])
    categories = labels_with_singletons([rows[i]["category"] for i in ids])
    return {"ari_patterns": round(adjusted_rand_score(intents, patterns), 4),
            "ari_categories": round(adjusted_rand_score(domains, categories), 4),
            "unassigned": sum(rows[i]["pattern"] is None for i in ids)}


def ward_reference(vectors: np.ndarray, intents: list[str], domains: list[str]) -> dict[str, float] | None:
    """MiniLM + Ward given the true k, when scikit-learn is importable (it is no dependency of
    graphmind: e.g. PYTHONPATH=DIR after pip install --target DIR scikit-learn)."""
    try:
        from sklearn.cluster import AgglomerativeClustering
    except ImportError:
        return None
    ward = lambda k: AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(vectors)  # noqa: E731
    return {"ari_patterns": round(adjusted_rand_score(intents, ward(len(set(intents)))), 4),
            "ari_categories": round(adjusted_rand_score(domains, ward(len(set(domains)))), 4)}


def domain_grouper(domains_of: dict[str, str]) -> LLM:
    """The offline LLM, but presented as online and grouping level 2 by the true domains."""
    def group(inputs, tools):
        if inputs.level != 2:
            return group_level(inputs, tools)  # the proposal as it is
        groups: dict[str, list[str]] = {}
        for item in inputs.items:
            votes = Counter(domains_of[e] for e in item.example_ids if e in domains_of).most_common(1)
            groups.setdefault(votes[0][0] if votes else "", []).append(item.id)
        return GroupingOutput(groups=[ItemGroup(member_ids=ids) for ids in groups.values()])

    class DomainGrouper(OfflineLLM):
        provider = "domain-ceiling"

    return DomainGrouper(behaviours={"dream.group_level": group})


def run(per_intent: int, ceiling: bool = False) -> dict:
    texts, intents, domains = load(per_intent)
    captured = experiences(texts)
    with bench_store() as (store, settings):
        llm = domain_grouper({e["id"]: d for e, d in zip(captured, domains)}) if ceiling else None
        mind = Mind(scratch_mind("bench-dream-quality"), store, settings, llm=llm)
        try:
            mind.capture_many(captured)
            started = time.perf_counter()
            mind.embed()
            embed_s = time.perf_counter() - started
            report = mind.dream(DreamParams(domain="customer requests to a voice assistant"))
            quality = evaluate(mind, intents, domains)
            vectors = mind.embedder.embed(texts)
        finally:
            mind.delete()
            mind.close()
    return {"experiences": len(texts), "intents": len(set(intents)), "domains": len(set(domains)),
            "patterns": report.active_patterns, "categories": sum(e.level == 2 for e in report.ladder),
            "ladder_levels": report.ladder_levels, "llm": report.llm.get("provider"), "llm_calls": report.llm_calls,
            "duplicates": report.duplicates, "degraded": report.degraded,
            "embed_s": round(embed_s, 1), "timings_ms": report.timings, "graphmind": quality,
            "ward_given_k": ward_reference(vectors, intents, domains)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-intent", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ceiling", action="store_true", help="group level 2 by the true domains (an upper bound)")
    args = parser.parse_args()
    result = run(args.per_intent, args.ceiling)
    if args.json:
        print(json.dumps(result))
        return
    g, w = result["graphmind"], result["ward_given_k"]
    print(f"{result['experiences']} experiences, {result['intents']} intents, {result['domains']} domains")
    print(f"graphmind: {result['patterns']} patterns, {result['categories']} level-2 categories, "
          f"{result['ladder_levels']} levels, {result['llm_calls']} LLM calls ({result['llm']}), "
          f"{g['unassigned']} unassigned")
    for note in result["degraded"]:
        print("degraded:", note)
    print(f"{'':24}{'graphmind (k unknown)':>24}{'Ward given k':>16}{'ratio':>8}{'target':>8}")
    for key, label, target in (("ari_patterns", "ARI patterns/intents", 0.75),
                               ("ari_categories", "ARI level 2/domains", 0.6)):
        ward = f"{w[key]:>16.3f}{g[key] / w[key]:>8.2f}" if w else f"{'(no sklearn)':>16}{'':>8}"
        print(f"{label:24}{g[key]:>24.3f}{ward}{target:>8.2f}")
    print("phase ms:", result["timings_ms"])


if __name__ == "__main__":
    main()
