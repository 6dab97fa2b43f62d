"""Which terms no memory of a mind holds, by its full-text index."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graphmind.recall._logic import lucene_query
from graphmind.store import GraphStore


def held_nowhere(
    store: GraphStore, mind: str, queries: Sequence[Mapping[str, str]], exclude: Sequence[str] = ()
) -> set[str]:
    """The terms of ``queries`` ({term, lucene}) that no memory of ``mind`` outside ``exclude``
    (uids) holds; the index is brought up to date first."""
    if not queries:
        return set()
    store.autocommit("admin/await_text_index")
    rows = store.read(
        "recall/find_term_uses", mind=mind, queries=list(queries), exclude=list(exclude), fetch=len(exclude) + 50
    )
    return {r["term"] for r in rows if not r["elsewhere"]}


def unheard_words(store: GraphStore, mind: str, words: Iterable[str]) -> set[str]:
    """The plain ``words`` (letters and digits) no memory of ``mind`` holds as a word; a word
    that cannot be asked as a term is taken as heard."""
    queries = [
        {"term": w, "lucene": q}
        for w in dict.fromkeys(words)
        if w.isalnum() and len(w) <= 255 and (q := lucene_query([w], mind)) is not None
    ]
    return held_nowhere(store, mind, queries)
