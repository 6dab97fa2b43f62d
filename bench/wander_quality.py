"""Wander's judging and its crystals, scored (issue 22, items 2 and 7).

    python bench/wander_quality.py [--steps 200] [--rng-seed 1] [--labelled-only]

1. The labelled sets in tests/data/wander_crystals (mountain rescue, beekeeping, baking,
   sailing, gardening, pottery), each beside a plain baseline:
   - pairs.jsonl: near-duplicate crystals, content-term Jaccard ≥ DUPLICATE_JACCARD against
     exact (case- and space-folded) text equality; the threshold sweep shows the plateau;
   - templates.jsonl: template text, ``is_template`` against "starts with Both";
   - checks.jsonl: whether an insight holds on its evidence, ``crystal_rules.check`` against
     the former offline rule (60% of the insight's terms in any cited item, residues and
     crystals counted as evidence).
2. Offline walks on a real Neo4j (GRAPHMIND_HOME / NEO4J_URI as the CLI) on three minds of
   different shape: sparse (a dozen assorted memories), consolidated (60 incident experiences
   plus one dream), and the Felix demo: steps run, steps/s, stopped reason, crystals per 100
   steps, and the share of crystals that are duplicates, template-like, or evidenced by
   anything but memories or by fewer than two (non-mem %).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from _common import bench_store, scratch_mind

from graphmind.mind import Mind
from graphmind.models import RECALLED_LABELS
from graphmind.text import jaccard, term_set
from graphmind.wander import crystal_rules as rules
from tests.integration.wander_minds import CONSOLIDATED_SEED, SPARSE_SEED, build_consolidated, sparse_file

DATA = ROOT / "tests" / "data" / "wander_crystals"
DEMO = ROOT / "graphmind" / "demo" / "felix.jsonl"


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def balanced(truth: list[bool], guess: list[bool]) -> float:
    pos = [g for t, g in zip(truth, guess, strict=True) if t]
    neg = [not g for t, g in zip(truth, guess, strict=True) if not t]
    return round((sum(pos) / len(pos) + sum(neg) / len(neg)) / 2, 3)


def labelled() -> None:
    pairs = _rows("pairs.jsonl")
    truth = [p["duplicate"] for p in pairs]
    fold = [" ".join(p["a"].lower().split()) == " ".join(p["b"].lower().split()) for p in pairs]
    print(f"duplicates ({len(pairs)} pairs): baseline exact text {balanced(truth, fold):.3f}")
    for t in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6):
        guess = [
            rules.duplicate_of(p["a"], [], [{"id": "k", "insight": p["b"]}], threshold=t) is not None for p in pairs
        ]
        mark = "  <- DUPLICATE_JACCARD" if abs(t - rules.DUPLICATE_JACCARD) < 1e-9 else ""
        print(f"  Jaccard >= {t:.2f}: balanced accuracy {balanced(truth, guess):.3f}{mark}")
    texts = _rows("templates.jsonl")
    truth = [r["template"] for r in texts]
    print(
        f"templates ({len(texts)} texts): is_template {balanced(truth, [rules.is_template(r['text']) for r in texts]):.3f}"
        f" | baseline 'starts with Both' {balanced(truth, [r['text'].startswith('Both') for r in texts]):.3f}"
    )
    checks = _rows("checks.jsonl")
    truth = [c["holds"] for c in checks]
    ours = [rules.check(c["insight"], [rules.Evidence(**e) for e in c["evidence"]]).holds for c in checks]
    old = [_old_rule(c["insight"], [e["text"] for e in c["evidence"]]) for c in checks]
    print(
        f"checks ({len(checks)} insights): crystal_rules.check {balanced(truth, ours):.3f}"
        f" | baseline 60% of terms in the evidence {balanced(truth, old):.3f}"
    )


def _old_rule(insight: str, texts: list[str]) -> bool:
    claimed = term_set(insight)
    known = set().union(*(term_set(t) for t in texts))
    return bool(claimed) and len(claimed & known) / len(claimed) >= 0.6


def crystal_figures(mind: Mind) -> dict:
    rows = mind.store.read("wander/list_crystals", mind=mind.name, session_id=None)
    kept = [r for r in rows if r["props"].get("status") != "invalidated"]
    dup = 0
    for i, c in enumerate(kept):
        others = [
            {"id": o["id"], "insight": o["props"].get("insight") or "", "evidence": o["evidence"]} for o in kept[:i]
        ]
        dup += rules.duplicate_of(c["props"].get("insight") or "", c["evidence"], others) is not None
    template = sum(rules.is_template(c["props"].get("insight") or "") for c in kept)

    def label(node_id: str) -> str | None:
        rows = mind.store.read("memory/get_node", mind=mind.name, id=node_id)
        return rows[0]["label"] if rows else None

    foreign = sum(any(label(e) not in RECALLED_LABELS for e in c["evidence"]) or len(c["evidence"]) < 2 for c in kept)
    merged = sum(int(c["props"].get("occurrences") or 1) - 1 for c in kept)
    return {
        "crystals": len(kept),
        "invalidated": len(rows) - len(kept),
        "duplicates": dup,
        "template": template,
        "non_memory_evidence": foreign,
        "merges": merged,
        "near_pairs": sum(
            jaccard(term_set(a["props"].get("insight") or ""), term_set(b["props"].get("insight") or "")) >= 0.3
            for i, a in enumerate(kept)
            for b in kept[i + 1 :]
        ),
    }


def share(figures: dict, key: str) -> float:
    return 100 * figures[key] / figures["crystals"] if figures["crystals"] else 0.0


def walks(steps: int, rng_seed: int) -> None:
    print(
        f"\n{'mind':<14} {'memories':>8} {'steps':>6} {'steps/s':>8} {'crystals/100':>12} {'dup %':>6} "
        f"{'templ %':>7} {'non-mem %':>9} merges  stopped"
    )
    with bench_store() as (store, settings), tempfile.TemporaryDirectory() as tmp:
        for shape in ("sparse", "consolidated", "demo"):
            mind = Mind(scratch_mind(f"bench-wq-{shape}"), store, settings)
            try:
                if shape == "sparse":
                    mind.import_jsonl(sparse_file(Path(tmp)))
                    seed = SPARSE_SEED
                elif shape == "consolidated":
                    build_consolidated(mind)
                    seed = CONSOLIDATED_SEED
                else:
                    mind.import_jsonl(DEMO)
                    seed = "race conditions in async code"
                handle = mind.wander(seed, rng_seed=rng_seed, human_checkpoint_frequency=0, max_steps=max(steps, 1000))
                start = time.perf_counter()
                report = handle.run(steps)
                elapsed = time.perf_counter() - start
                memories = handle._space.memory_count or 0
                f = crystal_figures(mind)
                done = report.steps_completed
                print(
                    f"{shape:<14} {memories:>8} {done:>6} {done / elapsed:>8.1f} "
                    f"{100 * f['crystals'] / max(done, 1):>12.1f} {share(f, 'duplicates'):>6.1f} "
                    f"{share(f, 'template'):>7.1f} {share(f, 'non_memory_evidence'):>9.1f} {f['merges']:>6}  "
                    f"{report.stopped_reason}"
                )
            finally:
                mind.delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rng-seed", type=int, default=1)
    parser.add_argument("--labelled-only", action="store_true")
    args = parser.parse_args()
    labelled()
    if not args.labelled_only:
        walks(args.steps, args.rng_seed)


if __name__ == "__main__":
    main()
