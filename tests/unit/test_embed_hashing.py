"""The hashing embedder: stable buckets, features, fixed vector for wordless text, dimensions."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from graphmind.embed import HashingEmbedder
from graphmind.embed.hashing import MAX_CHARS, _slot, features


def test_buckets_are_stable_across_processes():
    code = "from graphmind.embed.hashing import _slot; print(_slot('w:graph', 384), _slot('c: gr', 97))"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2")
    }
    assert runs == {f"{_slot('w:graph', 384)} {_slot('c: gr', 97)}\n"}


def test_vectors_are_pinned():
    # A change here changes every stored vector: bump hashing.VERSION (it is in model_id).
    assert [_slot(f, 384) for f in ("w:graph", "b:graph memory", "c: gr")] == [(380, -1), (149, 1), (71, 1)]
    vector = HashingEmbedder().embed(["graph memory"])[0]
    assert np.nonzero(vector)[0][:6].tolist() == [15, 71, 89, 100, 149, 183]
    np.testing.assert_allclose(vector[[15, 71, 149]], [-0.145865, 0.145865, 0.29173], atol=1e-6)


def test_features_are_words_pairs_and_padded_char_trigrams():
    found = dict(features("Graph memory"))
    assert found["w:graph"] == 1.0 and found["b:graph memory"] == 0.5
    assert {"c: gr", "c:gra", "c:aph", "c:ph "} <= found.keys()


def test_wordless_texts_share_one_fixed_unit_vector():
    vectors = HashingEmbedder().embed(["", "   ", "?!", "..."])
    assert np.all(np.isfinite(vectors))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert np.all(vectors == vectors[0])


def test_case_is_ignored():
    a, b = HashingEmbedder().embed(["Graph Memory", "graph memory"])
    np.testing.assert_array_equal(a, b)


def test_dimensions_and_model_id_follow_the_argument():
    embedder = HashingEmbedder(dimensions=64)
    assert embedder.dimensions == 64 and embedder.model_id == "graphmind-hashing-v1-64"
    assert embedder.embed(["x y z"]).shape == (1, 64)


def test_only_the_first_max_chars_characters_count():
    head = "alpha beta gamma " * (MAX_CHARS // 17 + 1)
    a, b = HashingEmbedder().embed([head[:MAX_CHARS], head[:MAX_CHARS] + " omega" * 1000])
    np.testing.assert_array_equal(a, b)
