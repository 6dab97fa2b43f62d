"""Is an output grounded? Which of its content words appear in none of its sources?

A content word has 4+ letters and is not a stopword; words of the offline templates
(``TEMPLATE_WORDS``) are allowed. Matching ignores case. Engines can use this to check an
LLM's output against the data it was given (the Context Object's "no invented details").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from graphmind.text import STOPWORDS, leaves, words


def strings(value: Any) -> Iterator[str]:
    """Every string inside ``value`` (models, mappings, sequences), keys excluded."""
    return (leaf for leaf in leaves(value) if isinstance(leaf, str))


def content_words(value: Any) -> set[str]:
    """The lower-cased content words (4+ letters, not stopwords) of every string in ``value``."""
    return {w for text in strings(value) for w in words(text) if len(w) >= 4 and w not in STOPWORDS}


def ungrounded_words(output: Any, sources: Iterable[Any], allowed: Iterable[str] = ()) -> list[str]:
    """The output's content words found in no source and not in ``allowed``, sorted."""
    known = {w for text in strings(list(sources)) for w in words(text)} | {w.lower() for w in allowed}
    return sorted(content_words(output) - known)
