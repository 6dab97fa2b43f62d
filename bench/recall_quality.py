"""Evidence recall@10 over multi-session conversations (issue 26, item 2), by question kind.

Data: tests/data/conversations (written for the purpose). Each conversation is one corpus (one mind);
a question scores 1 when any gold evidence turn is in the top k; "multi (all)" asks a multi-hop question for
all of its evidence turns. Baselines: TF-IDF (scikit-learn) and a
small Okapi BM25 (no well-kept BM25 package is installed offline). "hybrid" is graphmind's first stage
(reciprocal-rank fusion of BM25 and MiniLM cosine); "+graph" expands it through the conversation graph
(NEXT neighbours, sessions in the question's time window, named speaker and entities) and reranks with the
feature model of graphmind/recall/turn_expand.py, run here in memory on the JSONL (the same pure logic the
Turn recall uses once conversation import, issue 26 item 1, lands). Split: the feature model is fitted on
CALIBRATE (--fit writes graphmind/recall/turn_rerank.json) and reported on the rest (held out).
The p95 line times expansion + rerank per question (first stage excluded). --graphmind also times
Mind.recall on a real Neo4j: one mind per conversation, then one mind holding all of them (~600 turns).
Run: .venv/bin/python bench/recall_quality.py [--k 10]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from graphmind.recall.turn_expand import FEATURES, FeatureModel, Turn, expand, rerank, shipped_model

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "conversations"
CALIBRATE = ("farm", "choir")
KINDS = ("single-hop", "temporal", "multi-hop", "open-domain")
Ranker = Callable[[list[str], list[str]], list[list[int]]]


def load() -> tuple[dict[str, list[dict]], list[dict]]:
    """Turns per conversation (id, speaker, text, session date) and the questions."""
    turns: dict[str, list[dict]] = defaultdict(list)
    for line in (DATA / "conversations.jsonl").read_text().splitlines():
        row = json.loads(line)
        conv = row["session_id"].rsplit("-s", 1)[0]
        for t in row["turns"]:
            turns[conv].append({**t, "session": row["session_id"], "date": row["started_at"]})
    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()]
    return dict(turns), questions


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def rank_tfidf(docs: list[str], queries: list[str]) -> list[list[int]]:
    vec = TfidfVectorizer(sublinear_tf=True)
    d = vec.fit_transform(docs)
    sims = (vec.transform(queries) @ d.T).toarray()
    return [list(np.argsort(-row, kind="stable")) for row in sims]


def rank_bm25(docs: list[str], queries: list[str], k1: float = 1.2, b: float = 0.75) -> list[list[int]]:
    toks = [Counter(_tokens(d)) for d in docs]
    lens = np.array([sum(t.values()) for t in toks], dtype=float)
    avg = float(lens.mean()) or 1.0
    df = Counter(w for t in toks for w in t)
    n = len(docs)
    out = []
    for q in queries:
        scores = np.zeros(n)
        for w in set(_tokens(q)):
            if w not in df:
                continue
            idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
            tf = np.array([t.get(w, 0) for t in toks], dtype=float)
            scores += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lens / avg))
        out.append(list(np.argsort(-scores, kind="stable")))
    return out


_VECTORS: dict[str, np.ndarray] = {}


def embed(texts: list[str]) -> np.ndarray:
    """MiniLM vectors (graphmind's default embedder), cached per text for the run."""
    missing = [t for t in dict.fromkeys(texts) if t not in _VECTORS]
    if missing:
        from graphmind.embed.minilm import MiniLMEmbedder

        for t, v in zip(missing, MiniLMEmbedder().embed(missing), strict=True):
            _VECTORS[t] = v
    return np.array([_VECTORS[t] for t in texts])


def hybrid_scores(docs: list[str], queries: list[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Reciprocal-rank fusion of BM25 and vector cosine (graphmind's first stage), with the cosines."""
    d_vec, q_vec = embed(docs), embed(queries)
    out = []
    for q_i, lexical in enumerate(rank_bm25(docs, queries)):
        cos = d_vec @ q_vec[q_i]
        rrf = np.zeros(len(docs))
        for order in (lexical, list(np.argsort(-cos, kind="stable"))):
            for r, i in enumerate(order):
                rrf[i] += 1.0 / (60 + r + 1)
        out.append((rrf / rrf.max(), cos))
    return out


def rank_hybrid(docs: list[str], queries: list[str]) -> list[list[int]]:
    return [list(np.argsort(-rrf, kind="stable")) for rrf, _ in hybrid_scores(docs, queries)]


class GraphRanker:
    """Hybrid first stage, then expansion through the conversation graph (in memory) and the feature model."""

    def __init__(self, convs: dict[str, list[dict]], model: FeatureModel):
        self.model = model
        self.graphs = {}
        for rows in convs.values():
            turns, sessions = {}, defaultdict(list)
            for row in rows:
                sessions[row["session"]].append(row["id"])
                date = dt.date.fromisoformat(row["date"][:10])
                turns[row["id"]] = Turn(
                    row["id"], row["session"], len(sessions[row["session"]]) - 1, row["speaker"], date, row["text"]
                )
            self.graphs[tuple(r["text"] for r in rows)] = (rows, turns, dict(sessions))

    def candidates(self, docs: list[str], queries: list[str]) -> list[list]:
        rows, turns, sessions = self.graphs[tuple(docs)]
        today = max(t.date for t in turns.values())
        out = []
        for q, (first, cos) in zip(queries, hybrid_scores(docs, queries), strict=True):
            order = np.argsort(-first, kind="stable")[:40]
            seeds = [(rows[i]["id"], float(first[i]), float(cos[i])) for i in order]
            cands = expand(q, seeds, turns, sessions, today=today)
            ids = {c.turn.id for c in cands}
            for i, row in enumerate(rows):  # cosine for every candidate the graph brought in
                if row["id"] in ids:
                    next(c for c in cands if c.turn.id == row["id"]).features["cosine"] = float(cos[i])
            out.append(cands)
        return out

    def __call__(self, docs: list[str], queries: list[str]) -> list[list[int]]:
        index = {row_id: i for i, row_id in enumerate(r["id"] for r in self.graphs[tuple(docs)][0])}
        return [
            [index[c.turn.id] for c in rerank(cands, self.model, len(docs))] for cands in self.candidates(docs, queries)
        ]


def fit(ranker: GraphRanker, turns: dict[str, list[dict]], questions: list[dict]) -> FeatureModel:
    """Logistic regression on the candidates of the calibration questions (label: a gold evidence turn)."""
    x, y = [], []
    for q in questions:
        docs = [d["text"] for d in turns[q["conversation"]]]
        for c in ranker.candidates(docs, [q["question"]])[0]:
            x.append([c.features[f] for f in FEATURES])
            y.append(int(c.turn.id in q["evidence"]))
    lr = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000).fit(np.array(x), np.array(y))
    return FeatureModel(tuple(round(float(w), 4) for w in lr.coef_[0]), round(float(lr.intercept_[0]), 4))


def recall_at_k(rank: Ranker, turns: dict[str, list[dict]], questions: list[dict], k: int) -> dict[str, list[int]]:
    """Hits (0/1) per kind for the questions given."""
    hits: dict[str, list[int]] = defaultdict(list)
    by_conv: dict[str, list[dict]] = defaultdict(list)
    for q in questions:
        by_conv[q["conversation"]].append(q)
    for conv, qs in by_conv.items():
        docs = turns[conv]
        ranked = rank([d["text"] for d in docs], [q["question"] for q in qs])
        for q, order in zip(qs, ranked, strict=True):
            top = {docs[i]["id"] for i in order[:k]}
            hit = int(bool(top & set(q["evidence"])))
            hits[q["kind"]].append(hit)
            hits["overall"].append(hit)
            if len(q["evidence"]) > 1:
                hits["multi (all)"].append(int(set(q["evidence"]) <= top))
    return hits


def _fmt(hits: dict[str, list[int]], key: str) -> str:
    vals = hits.get(key, [])
    return f"{sum(vals) / len(vals):.2f} ({len(vals):>3})" if vals else "n/a"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument(
        "--graphmind", action="store_true", help="also run graphmind's recall on a real Neo4j (bench_store)"
    )
    ap.add_argument("--fit", action="store_true", help="refit the feature model on the calibration split and ship it")
    args = ap.parse_args()
    turns, questions = load()
    model = shipped_model()
    if args.fit:
        model = fit(GraphRanker(turns, model), turns, [q for q in questions if q["conversation"] in CALIBRATE])
        path = Path(__file__).resolve().parent.parent / "graphmind" / "recall" / "turn_rerank.json"
        path.write_text(model.to_json() + "\n")
        print(f"fitted on {CALIBRATE}: {dict(zip(FEATURES, model.weights, strict=True))}, {model.intercept}")
    splits = {
        "calibrate": [q for q in questions if q["conversation"] in CALIBRATE],
        "held-out": [q for q in questions if q["conversation"] not in CALIBRATE],
        "all": questions,
    }
    rankers: dict[str, Ranker] = {
        "tfidf": rank_tfidf,
        "bm25": rank_bm25,
        "hybrid": rank_hybrid,
        "+graph": GraphRanker(turns, model),
    }
    print(f"evidence recall@{args.k}; {sum(len(v) for v in turns.values())} turns, {len(questions)} questions")
    for split, qs in splits.items():
        print(f"\n[{split}] {len({q['conversation'] for q in qs})} conversations")
        print(f"{'kind':<12}" + "".join(f"{name:>14}" for name in rankers))
        results = {name: recall_at_k(r, turns, qs, args.k) for name, r in rankers.items()}
        for kind in (*KINDS, "overall", "multi (all)"):
            print(f"{kind:<12}" + "".join(f"{_fmt(results[n], kind):>14}" for n in rankers))

    if args.graphmind:
        real_recall(turns, splits, args.k)
    graph = rankers["+graph"]
    assert isinstance(graph, GraphRanker)
    print(f"\nexpansion + rerank p95 per question: {expansion_p95(graph, turns, questions):.1f} ms (600-turn minds)")


def real_recall(turns: dict[str, list[dict]], splits: dict[str, list[dict]], k: int) -> None:
    """graphmind's Mind.recall(labels=["Turn"]) with one mind per conversation, and its latency."""
    import os
    import tempfile
    import time

    from _common import bench_store, scratch_mind

    from graphmind import Mind

    rows = [json.loads(line) for line in (DATA / "conversations.jsonl").read_text().splitlines()]
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as tmp:
        minds = {}
        try:
            for conv in turns:
                path = Path(tmp) / f"{conv}.jsonl"
                path.write_text("".join(json.dumps(r) + "\n" for r in rows if r["session_id"].startswith(conv + "-")))
                minds[conv] = Mind(scratch_mind("bench-turns"), store, settings)
                minds[conv].import_jsonl(path)
                minds[conv].recall("warm up", k=k, labels=["Turn"])
            times: list[float] = []
            for split, qs in splits.items():
                hits: dict[str, list[int]] = defaultdict(list)
                for q in qs:
                    start = time.perf_counter()
                    got = {h.id for h in minds[q["conversation"]].recall(q["question"], k=k, labels=["Turn"]).hits}
                    times.append((time.perf_counter() - start) * 1000)
                    hit = int(bool(got & set(q["evidence"])))
                    hits[q["kind"]].append(hit)
                    hits["overall"].append(hit)
                print(
                    f"graphmind recall [{split}]: "
                    + ", ".join(f"{kind} {_fmt(hits, kind)}" for kind in (*KINDS, "overall"))
                )
            print(
                f"graphmind recall p95 in-process: {np.percentile(times, 95):.1f} ms (~120-turn minds, {len(times)} calls)"
            )
            whole = minds["all"] = Mind(scratch_mind("bench-turns"), store, settings)
            whole.import_jsonl(DATA / "conversations.jsonl")
            whole.recall("warm up", k=k, labels=["Turn"])
            times = []
            for q in splits["all"]:
                start = time.perf_counter()
                whole.recall(q["question"], k=k, labels=["Turn"])
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"graphmind recall in-process, one {sum(len(v) for v in turns.values())}-turn mind: p50 "
                f"{np.percentile(times, 50):.1f} ms, p95 {np.percentile(times, 95):.1f} ms ({len(times)} calls; "
                f"load average {os.getloadavg()[0]:.1f} on this shared VM)"
            )
        finally:
            for m in minds.values():
                m.delete()
                m.close()


def expansion_p95(graph: GraphRanker, turns: dict[str, list[dict]], questions: list[dict]) -> float:
    import time

    times = []
    for q in questions:
        docs = [d["text"] for d in turns[q["conversation"]]]
        cands = graph.candidates(docs, [q["question"]])[0]
        seeds = [(c.turn.id, c.features["first"], c.features["cosine"]) for c in cands if c.features["first"] > 0]
        rows, by_id, sessions = graph.graphs[tuple(docs)]
        today = max(t.date for t in by_id.values())
        start = time.perf_counter()
        rerank(expand(q["question"], seeds, by_id, sessions, today=today), graph.model, 10)
        times.append((time.perf_counter() - start) * 1000)
    return float(np.percentile(times, 95))


if __name__ == "__main__":
    main()
