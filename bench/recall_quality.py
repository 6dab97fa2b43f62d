"""Evidence recall@10 over multi-session conversations (issue 26, item 2), by question kind.

Data: tests/data/conversations (written for the purpose). Each conversation is one corpus (one mind);
a question scores 1 when any gold evidence turn is in the top k; "multi (all)" asks a multi-hop question for
all of its evidence turns. Baselines: TF-IDF (scikit-learn) and a
small Okapi BM25 (no well-kept BM25 package is installed offline). Split: calibrate on CALIBRATE,
report on the rest (held out). graphmind's Turn recall needs conversation import (issue 26, item 1);
until `Mind.add_conversation` exists its column reads n/a.
Run: .venv/bin/python bench/recall_quality.py [--k 10]
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

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
    args = ap.parse_args()
    turns, questions = load()
    splits = {
        "calibrate": [q for q in questions if q["conversation"] in CALIBRATE],
        "held-out": [q for q in questions if q["conversation"] not in CALIBRATE],
        "all": questions,
    }
    rankers: dict[str, Ranker] = {"tfidf": rank_tfidf, "bm25": rank_bm25}
    print(f"evidence recall@{args.k}; {sum(len(v) for v in turns.values())} turns, {len(questions)} questions")
    for split, qs in splits.items():
        print(f"\n[{split}] {len({q['conversation'] for q in qs})} conversations")
        print(f"{'kind':<12}" + "".join(f"{name:>14}" for name in [*rankers, "graphmind"]))
        results = {name: recall_at_k(r, turns, qs, args.k) for name, r in rankers.items()}
        for kind in (*KINDS, "overall", "multi (all)"):
            print(f"{kind:<12}" + "".join(f"{_fmt(results[n], kind):>14}" for n in rankers) + f"{'n/a':>14}")


if __name__ == "__main__":
    main()
