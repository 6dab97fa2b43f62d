"""``query_knowledge``'s pure logic: which questions ask whether something works, which
failures are about it, and that those failures get a place in the answer."""

from __future__ import annotations

import numpy as np
import pytest

from graphmind.dream.knowledge import KnowledgeMatch, about, asks_whether_it_works, subject, surface_failures
from graphmind.dream.params import DreamParams

PARAMS = DreamParams()


def match(pid: str, score: float, description: str, failed: bool = False) -> KnowledgeMatch:
    failures = [{"id": f"{pid}-e1", "description": description, "outcome": "failure"}] if failed else []
    return KnowledgeMatch(
        id=pid,
        name=pid,
        description=description,
        score=score,
        records_failure=failed,
        failure_count=len(failures) * 3,
        failures=failures,
    )


@pytest.mark.parametrize(
    "question",
    [
        "does brining the turkey help",
        "Did a longer hold timer fix the BGP flaps?",
        "is resting the dough worth it?",
        "Would lowering the MTU make a difference",
        "doesn't a hotter pan work better?",
        "Can salting the water speed up boiling?",
    ],
)
def test_questions_whether_something_works(question):
    assert asks_whether_it_works(question)


@pytest.mark.parametrize(
    "question",
    [
        "how do I brine a turkey",  # how-to, not whether it works
        "salting the water",  # no question
        "does the oven have a fan",  # a yes/no question, not about working
        "what helps a dense crumb",  # open question
    ],
)
def test_other_queries_are_not_such_questions(question):
    assert not asks_whether_it_works(question)


def test_a_failure_is_about_the_subject_when_it_shares_half_its_terms():
    asked = subject("does brining the turkey help")
    assert asked == {"brin", "turkey"}
    assert about(match("a", 0.1, "brined turkey breast came out salty and no juicier", True), asked, PARAMS)
    # Another failure that merely "did not help" is not about brining.
    assert not about(match("b", 0.1, "searing in a crowded pan did not help the crust", True), asked, PARAMS)
    assert not about(match("c", 0.1, "anything at all"), set(), PARAMS)


def test_failures_about_the_subject_get_a_place_however_low_they_rank():
    ranked = [match(f"win{i}", 0.9 - i / 100, f"brining the turkey {i} kept it moist") for i in range(6)]
    ranked += [
        match("other-fail", 0.5, "searing in a crowded pan did not brown it", True),
        match("brine-fail", 0.4, "brined turkey came out salty and no juicier", True),
    ]
    chosen = surface_failures(ranked, "does brining the turkey help", 3, PARAMS)
    assert [m.id for m in chosen] == ["win0", "win1", "brine-fail"]
    # Without a failure about the subject, the answer is the plain top k.
    assert surface_failures(ranked[:7], "does brining the turkey help", 3, PARAMS) == ranked[:3]


def test_a_floor_from_unrelated_texts_tells_a_related_pattern_from_an_unrelated_one():
    """The floor is the query's own: a pattern about the query clears it, one about another
    field does not."""
    from graphmind.dream.coherence import relevance_floor
    from graphmind.dream.knowledge import relevant
    from graphmind.embed.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    query, near, far = embedder.embed(
        [
            "how do I stop a sourdough loaf from spreading flat in the oven",
            "shaping the dough tighter and proofing it in a banneton kept the loaf tall",
            "rotated the database credentials and restarted the connection pool",
        ]
    )
    floor = relevance_floor(embedder, query, 97.5)
    cosine = lambda a, b: float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))  # noqa: E731
    assert relevant(cosine(query, near), floor)
    assert not relevant(cosine(query, far), floor)
