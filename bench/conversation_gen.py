"""Synthetic multi-session conversations for the turn-scale benchmark (issue 26, item 5).

Deterministic for a seed: the same arguments write the same JSONL. Each pair of speakers (names
made from syllables) holds a run of sessions spread over six years (2020-2025); each session has
``turns_per_session`` turns whose texts join two CLINC150 utterances (real user requests,
``../shared/data/clinc150``), and one turn in twenty mentions an entity (a made-up place or pet
name), so questions can name speakers, entities and months as real ones do. Rows are
conversation rows of the import format (docs/import-format.md).

    python bench/conversation_gen.py --turns 100000 --out /tmp/turns.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

SYLLABLES = (
    "ba be bi bo da de di do ka ke ki ko la le li lo ma me mi mo na ne ni no ra re ri ro sa se si so ta te ti to"
)
START = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
SPAN_DAYS = 6 * 365
CLINC = Path(__file__).resolve().parents[2] / "shared" / "data" / "clinc150" / "clinc150_5domains.json"
MONTHS = "January February March April May June July August September October November December".split()


def names(rng: np.random.Generator, count: int, syllables: int) -> list[str]:
    """``count`` distinct capitalised made-up names of ``syllables`` syllables."""
    pool = SYLLABLES.split()
    out: dict[str, None] = {}
    while len(out) < count:
        out.setdefault("".join(rng.choice(pool, size=syllables)).capitalize())
    return list(out)


def clinc(path: Path) -> tuple[list[str], list[str]]:
    """(corpus, held out): CLINC150 training utterances, the last 400 kept for questions."""
    texts = [text for text, _ in json.loads(path.read_text(encoding="utf-8"))["train"]]
    return texts[:-400], texts[-400:]


class Generator:
    """Conversation rows and questions from one seed."""

    def __init__(self, corpus: list[str], *, seed: int = 26, speakers: int = 300, entities: int = 200):
        self.rng = np.random.default_rng(seed)
        self.corpus = corpus
        self.speakers = names(self.rng, speakers, 3)
        self.entities = names(self.rng, entities, 2)

    def rows(self, turns: int, turns_per_session: int = 20, sessions_per_pair: int = 100) -> Iterator[dict]:
        """Conversation rows holding ``turns`` turns in all."""
        sessions = -(-turns // turns_per_session)
        made = 0
        a, b = self.speakers[:2]
        for s in range(sessions):
            pair, index = divmod(s, sessions_per_pair)
            if index == 0:
                a, b = (self.speakers[int(i)] for i in self.rng.choice(len(self.speakers), size=2, replace=False))
            started = START + dt.timedelta(minutes=int(self.rng.integers(0, SPAN_DAYS * 24 * 60)))
            count = min(turns_per_session, turns - made)
            texts = self.rng.integers(0, len(self.corpus), size=(count, 2))
            rows = []
            for t, (x, y) in enumerate(texts):
                text = f"{self.corpus[x]}; then {self.corpus[y]}"
                if self.rng.random() < 0.05:
                    text += f" with {self.entities[int(self.rng.integers(len(self.entities)))]}"
                rows.append({"id": f"p{pair}-s{index}-t{t}", "speaker": (a, b)[t % 2], "text": text})
            made += count
            yield {
                "type": "conversation",
                "session_id": f"p{pair}-s{index}",
                "started_at": started.isoformat(),
                "participants": [a, b],
                "turns": rows,
            }

    def questions(self, held_out: list[str], count: int) -> list[str]:
        """Held-out utterances; one in four names a month, one in four a speaker, one in four an entity."""
        out = []
        for i in range(count):
            text = held_out[i % len(held_out)]
            kind = i % 4
            if kind == 1:
                text = f"{text} last {MONTHS[int(self.rng.integers(12))]}"
            elif kind == 2:
                text = f"What did {self.speakers[int(self.rng.integers(len(self.speakers)))]} say: {text}"
            elif kind == 3:
                text = f"{text} with {self.entities[int(self.rng.integers(len(self.entities)))]}"
            out.append(text)
        return out


def write(rows: Iterator[dict], path: Path) -> int:
    """Write ``rows`` as JSONL; the number of turns written."""
    turns = 0
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            turns += len(row["turns"])
            out.write(json.dumps(row) + "\n")
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--clinc", type=Path, default=CLINC)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    corpus, _ = clinc(args.clinc)
    print(f"{write(Generator(corpus, seed=args.seed).rows(args.turns), args.out):,} turns in {args.out}")


if __name__ == "__main__":
    main()
