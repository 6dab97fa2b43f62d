"""The BERT encoder of all-MiniLM-L6-v2 in numpy float32: weights in, pooled vectors out.

Pure functions over a frozen :class:`Bert`. The forward pass is the one of Hugging Face's
``BertModel`` in inference mode (no dropout): word + position + token-type embeddings and a
LayerNorm, then post-LayerNorm encoder layers of masked multi-head self-attention and an
exact-GELU feed-forward block. :func:`encode` adds the sentence-transformers head: mean
pooling over the attention mask and L2 normalisation. ``tests/unit/test_embed_minilm.py``
checks it against vectors computed by sentence-transformers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

_MASKED = np.float32(-1e9)  # added to the attention score of a padding key
# Abramowitz & Stegun 7.1.26: |erf(x) - approximation| <= 1.5e-7 for every real x (in exact
# arithmetic; about 5e-7 in float32, far below what changes a vector: see the reference test).
_ERF_P = np.float32(0.3275911)
_ERF_A = tuple(np.float32(a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))
_SQRT_HALF = np.float32(np.sqrt(0.5))
_LOOP_FROM_ROWS = 64


@dataclass(frozen=True)
class Layer:
    """One encoder layer; matrices are stored (in, out) so that ``x @ w`` applies them."""

    qkv_w: np.ndarray  # (hidden, 3 * hidden): query (pre-scaled by 1/sqrt(head_dim)), key, value
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]
    ffn_in_w: np.ndarray
    ffn_in_b: np.ndarray
    ffn_out_w: np.ndarray
    ffn_out_b: np.ndarray
    ln2: tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Bert:
    """The weights of a BERT encoder, arranged for numpy."""

    words: np.ndarray
    positions: np.ndarray
    token_type: np.ndarray  # the type-0 row: single sentences only
    ln: tuple[np.ndarray, np.ndarray]
    layers: tuple[Layer, ...]
    heads: int
    eps: float

    @property
    def hidden(self) -> int:
        return self.words.shape[1]


def from_tensors(tensors: Mapping[str, np.ndarray], *, heads: int, layers: int, eps: float) -> Bert:
    """A :class:`Bert` from a Hugging Face ``BertModel`` state dict (safetensors names)."""
    t = {
        name: np.ascontiguousarray(value, dtype=np.float32)
        for name, value in tensors.items()
        if not name.endswith("position_ids")
    }
    hidden = t["embeddings.word_embeddings.weight"].shape[1]
    scale = np.float32(1.0 / np.sqrt(hidden // heads))

    def ln(prefix: str) -> tuple[np.ndarray, np.ndarray]:
        return t[f"{prefix}.weight"], t[f"{prefix}.bias"]

    def layer(i: int) -> Layer:
        p = f"encoder.layer.{i}"
        q, k, v = (t[f"{p}.attention.self.{n}.weight"] for n in ("query", "key", "value"))
        qb, kb, vb = (t[f"{p}.attention.self.{n}.bias"] for n in ("query", "key", "value"))
        return Layer(
            qkv_w=np.ascontiguousarray(np.concatenate([q * scale, k, v]).T),
            qkv_b=np.concatenate([qb * scale, kb, vb]),
            out_w=np.ascontiguousarray(t[f"{p}.attention.output.dense.weight"].T),
            out_b=t[f"{p}.attention.output.dense.bias"],
            ln1=ln(f"{p}.attention.output.LayerNorm"),
            ffn_in_w=np.ascontiguousarray(t[f"{p}.intermediate.dense.weight"].T),
            ffn_in_b=t[f"{p}.intermediate.dense.bias"],
            ffn_out_w=np.ascontiguousarray(t[f"{p}.output.dense.weight"].T),
            ffn_out_b=t[f"{p}.output.dense.bias"],
            ln2=ln(f"{p}.output.LayerNorm"),
        )

    return Bert(
        words=t["embeddings.word_embeddings.weight"],
        positions=t["embeddings.position_embeddings.weight"],
        token_type=t["embeddings.token_type_embeddings.weight"][0],
        ln=ln("embeddings.LayerNorm"),
        layers=tuple(layer(i) for i in range(layers)),
        heads=heads,
        eps=eps,
    )


def erf(x: np.ndarray) -> np.ndarray:
    """The error function to within 1.5e-7 (Abramowitz & Stegun 7.1.26), in x's float dtype."""
    a = np.abs(x)
    t = a * _ERF_P
    t += 1
    np.reciprocal(t, out=t)
    a1, a2, a3, a4, a5 = _ERF_A
    poly = t * a1
    for coefficient in (a2, a3, a4, a5):  # Horner, in place: few temporaries on big arrays
        poly += coefficient
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(1, poly, out=poly)
    return np.copysign(poly, x, out=poly)


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact (erf) GELU: ``x * Phi(x)``, as BERT's ``hidden_act = "gelu"``."""
    phi = erf(x * _SQRT_HALF)
    phi += 1
    phi *= 0.5
    phi *= x
    return phi


def layer_norm(x: np.ndarray, gamma_beta: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    """LayerNorm over the last axis."""
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    gamma, beta = gamma_beta
    return centred / np.sqrt(var + np.float32(eps)) * gamma + beta


def _attention(x: np.ndarray, layer: Layer, key_bias: np.ndarray, shape: tuple[int, int, int]) -> np.ndarray:
    """Multi-head self-attention of ``x`` (batch * length, hidden); padding keys are masked.

    Linear maps run on 2-D arrays and the per-head products on contiguous copies: numpy's
    matmul is many times slower on 3-D @ 2-D operands and on strided views.
    """
    batch, length, heads = shape
    head_dim = x.shape[1] // heads
    qkv = (x @ layer.qkv_w + layer.qkv_b).reshape(batch, length, 3, heads, head_dim)
    q = np.ascontiguousarray(qkv[:, :, 0].transpose(0, 2, 1, 3))  # (batch, heads, length, head_dim)
    k_t = np.ascontiguousarray(qkv[:, :, 1].transpose(0, 2, 3, 1))  # (batch, heads, head_dim, length)
    v = np.ascontiguousarray(qkv[:, :, 2].transpose(0, 2, 1, 3))
    scores = _batched_matmul(q, k_t)  # query already scaled
    scores += key_bias
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    context = _batched_matmul(scores, v).transpose(0, 2, 1, 3).reshape(batch * length, heads * head_dim)
    return context @ layer.out_w + layer.out_b


def _batched_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` over the leading axes of contiguous arrays; long sequences go slice by slice.

    For slices of 64+ rows a loop of 2-D ``np.dot`` is several times faster than numpy's
    stacked matmul (measured: 16 x 12 slices of 256 x 32 @ 32 x 256, 26 ms vs 210 ms).
    """
    if a.shape[-2] < _LOOP_FROM_ROWS:
        return a @ b
    out = np.empty(a.shape[:-1] + b.shape[-1:], dtype=np.result_type(a, b))
    a2, b2, out2 = (m.reshape(-1, *m.shape[-2:]) for m in (a, b, out))
    for i in range(len(out2)):
        np.dot(a2[i], b2[i], out=out2[i])
    return out


def _layer(x: np.ndarray, layer: Layer, key_bias: np.ndarray, shape: tuple[int, int, int], eps: float) -> np.ndarray:
    x = layer_norm(x + _attention(x, layer, key_bias, shape), layer.ln1, eps)
    inner = gelu(x @ layer.ffn_in_w + layer.ffn_in_b)
    return layer_norm(x + (inner @ layer.ffn_out_w + layer.ffn_out_b), layer.ln2, eps)


def hidden_states(bert: Bert, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The last layer's states, (batch, length, hidden), for padded ``ids`` and their 0/1 ``mask``."""
    batch, length = ids.shape
    x = bert.words[ids] + bert.positions[:length] + bert.token_type
    x = layer_norm(x.reshape(batch * length, bert.hidden), bert.ln, bert.eps)
    key_bias = np.where(mask[:, None, None, :] > 0, np.float32(0), _MASKED)
    for layer in bert.layers:
        x = _layer(x, layer, key_bias, (batch, length, bert.heads), bert.eps)
    return x.reshape(batch, length, bert.hidden)


def encode(bert: Bert, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean-pooled (over ``mask``), L2-normalised sentence vectors, (batch, hidden) float32."""
    states = hidden_states(bert, ids, mask)
    weights = mask.astype(np.float32)[:, :, None]
    pooled = (states * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), np.float32(1e-9))
    return normalise(pooled)


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (a zero row stays zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
