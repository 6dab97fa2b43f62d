"""Pure parts of recall: what to embed, query terms, fusion, over-fetch growth."""

from __future__ import annotations

import pytest

from graphmind.errors import ValidationError
from graphmind.recall._logic import (
    INDEX_FIELDS,
    MAX_CLAUSES,
    MAX_QUERY_TERMS,
    Ranked,
    capitalised,
    check_query_text,
    fuse,
    lucene_query,
    matched_terms,
    next_fetch,
    plan_embedding,
    query_terms,
    text_hash,
)

MODEL = "model-a"


def _row(uid: str, **props):
    return {"uid": uid, "label": "Technical_Context", "props": {"id": uid.split(":")[1], **props}}


def test_plan_embeds_new_text_and_skips_current_and_empty():
    text = "race condition in the event queue"
    rows = [
        _row("m:new", component="queue", description="race condition"),
        _row("m:same", text=text, embedding_model=MODEL, embedding_hash=text_hash(text)),
        _row("m:changed", text=text, embedding_model=MODEL, embedding_hash=text_hash("old text")),
        _row("m:other-model", text=text, embedding_model="model-b", embedding_hash=text_hash(text)),
        _row("m:empty"),
    ]
    plan = plan_embedding(rows, MODEL)
    assert [uid for uid, _, _ in plan.to_embed] == ["m:new", "m:changed", "m:other-model"]
    assert plan.to_embed[0][1] == "queue — race condition"
    assert plan.to_embed[0][2] == text_hash("queue — race condition")
    assert plan.current == ["m:same"]
    assert plan.no_text == ["m:empty"]


@pytest.mark.parametrize("bad", ["", "   \n", "caf\udce9", None, b"bytes"])
def test_query_text_rejects_empty_non_text_and_non_utf8(bad):
    with pytest.raises(ValidationError) as info:
        check_query_text(bad)
    assert info.value.field == "text"


def test_query_terms_are_distinct_lowercase_words_without_stopwords_and_capped():
    assert query_terms("The race-condition is back: RACE again!") == ["race", "condition", "back", "again"]
    many = " ".join(f"word{i}" for i in range(500))
    assert len(query_terms(many)) == MAX_QUERY_TERMS
    assert query_terms("the and of") == []


def test_lucene_query_needs_no_escaping_because_terms_are_words():
    terms = query_terms('title:"x" AND (y OR z)* ~fuzzy \\ ) ]')
    query = lucene_query(terms, "felix-2.b")
    assert query == (
        "mind:\"felix-2.b\" AND (title OR x OR y OR z OR fuzzy OR title's OR title\u2019s OR x's OR x\u2019s "
        "OR y's OR y\u2019s OR z's OR z\u2019s OR fuzzy's OR fuzzy\u2019s)"
    )
    assert lucene_query([], "felix") is None


def test_lucene_query_names_the_fields_it_searches_when_told():
    query = lucene_query(["pump", "relay"], "felix", ["a.py"], fields=["text", "topic"])
    forms = "pump OR relay OR pump's OR pump\u2019s OR relay's OR relay\u2019s"
    assert query == f'mind:"felix" AND (text:({forms} OR "a.py") OR topic:({forms} OR "a.py"))'
    assert lucene_query(["v2"], None, fields=["text"]) == "(text:(v2))"


def test_a_long_query_stays_within_lucenes_clause_limit_terms_first_then_their_possessives():
    words = [f"word{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(MAX_QUERY_TERMS)]
    words = ["".join(c for c in w if c.isalpha()) for w in words]
    for fields in ([], ["text"] * 40, ["text"] * 5):
        query = lucene_query(words, "felix", ["a.py"], fields=fields)
        inner = query.split("text:(")[1].split(")")[0] if fields else query.split(" AND (", 1)[1][:-1]
        asked = inner.count(" OR ") + 1
        assert asked * (len(fields) or INDEX_FIELDS) <= MAX_CLAUSES
        assert words[0] in query and '"a.py"' in query
    assert "wordaa's" in lucene_query(words[:3], "felix") and "wordaa's" not in lucene_query(words, "felix")
    chinese = query_terms("我们的服务器昨天晚上又崩溃了需要重新启动数据库连接池 " * 3 + "重启")
    query = lucene_query(chinese, "felix", fields=["text"] * 29)
    assert (
        query is not None
        and sum(len(t) for t in query.split("text:(")[1].split(")")[0].split(" OR ")) * 29 <= MAX_CLAUSES
    )


def test_matched_terms_are_whole_words_of_the_text():
    assert matched_terms(["race", "queue", "lock"], "A race in the queues") == ["race"]
    assert matched_terms(["race"], None) == []


def test_fuse_ranks_by_reciprocal_rank_and_keeps_both_reasons():
    vector = [Ranked("a", 0.9), Ranked("b", 0.8), Ranked("c", 0.7)]
    text = [Ranked("c", 5.0), Ranked("d", 4.0)]
    fused = fuse(vector, text, k=3)
    assert [f.uid for f in fused] == ["c", "a", "b"]  # c: 1/63 + 1/61 beats a: 1/61
    assert fused[0].vector_rank == 3 and fused[0].text_rank == 1 and fused[0].text_score == 5.0
    assert fused[1].text_rank is None
    assert fused[0].score == pytest.approx(1 / 63 + 1 / 61)


def test_fuse_breaks_ties_by_uid_and_handles_empty_lists():
    assert [f.uid for f in fuse([Ranked("b", 1)], [Ranked("a", 1)], k=5)] == ["a", "b"]
    assert fuse([], [], k=5) == []


def test_next_fetch_grows_only_while_the_index_is_full_and_too_few_are_ours():
    assert next_fetch(fetch=100, fetched=100, kept=3, wanted=20, cap=10_000) == 800
    assert next_fetch(fetch=100, fetched=100, kept=20, wanted=20, cap=10_000) is None
    assert next_fetch(fetch=100, fetched=42, kept=3, wanted=20, cap=10_000) is None  # index exhausted
    assert next_fetch(fetch=8000, fetched=8000, kept=3, wanted=20, cap=10_000) == 10_000
    assert next_fetch(fetch=10_000, fetched=10_000, kept=3, wanted=20, cap=10_000) is None


def test_overfetch_factor_follows_the_minds_share_of_the_candidates():
    from graphmind.recall._logic import overfetch_factor

    assert overfetch_factor(fetched=200, own=100) == 6  # half are ours: 3 / 0.5
    assert overfetch_factor(fetched=200, own=200) == 3
    assert overfetch_factor(fetched=1000, own=10) == 300
    assert overfetch_factor(fetched=1000, own=0) == 500  # none seen: the most, not infinity
    assert overfetch_factor(fetched=0, own=0) == 1


def test_only_the_words_written_with_a_capital_get_their_possessives_when_told():
    terms = query_terms("How did Tomasz fix the reporting job's queue?")
    assert capitalised("How did Tomasz fix the reporting job's queue?") == {"how", "tomasz"}
    query = lucene_query(terms, "felix", possessive=capitalised("How did Tomasz fix the job's queue?"))
    assert "tomasz's" in query and "job's" not in query and "queue's" not in query
