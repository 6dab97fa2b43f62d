"""The names in a question, and a text without them (dream.question_names)."""

from graphmind.dream.question_names import name_runs, query_names, without


def test_names_of_a_question_are_its_capitalised_words_inside_the_sentence_without_possessives():
    assert query_names("What is Okafor Engineering's payroll schedule?") == {"okafor", "engineering"}
    assert query_names("Do the nurses at Sankt Anna Hospital get paid overtime?") == {"sankt", "anna", "hospital"}


def test_a_quoted_term_and_an_identifier_are_what_a_question_asks_not_names():
    assert query_names("How should 'Vollzug' be translated for Brightwater?") == {"brightwater"}
    assert query_names("What went wrong with INC-4412 at Kestrel?") == {"kestrel"}


def test_a_question_with_no_name_has_none():
    assert query_names("How long should sourdough proof before baking?") == set()


def test_without_drops_whole_words_only_in_any_case():
    assert without("Okaforville and pre-Okafor met OKAFOR", {"okafor"}) == "Okaforville and pre-Okafor met"


def test_without_drops_each_name_and_its_possessive_and_tidies_spaces():
    assert without("What is Okafor Engineering's payroll schedule?", {"okafor", "engineering"}) == (
        "What is payroll schedule?"
    )
    assert without("Okafor's rate goes up", {"okafor"}) == "rate goes up"


def test_a_word_joined_by_hyphens_is_the_subject_not_a_name():
    assert query_names("What did the X-ray of Bella's hip show?") == {"bella"}
    assert query_names("Is the follow-up for Bella booked?") == {"bella"}


def test_a_name_with_a_sharp_s_is_cut_from_its_own_text():
    asked = query_names("What did Frau Weißmann order?")
    assert "weißmann" in asked and without("Frau Weißmann ordered oak", asked) == "ordered oak"


def test_days_months_and_i_are_no_names():
    assert query_names("Can Dev cover on Friday in March, or shall I ask Siobhan?") == {"dev", "siobhan"}
    assert query_names("extension for the essay due Friday, I've had covid since March") == set()
    assert query_names("Is it due in July or September? I'm away in Aug") == set()


def test_names_next_to_each_other_are_one_name():
    assert name_runs("Has Harold Tate paid, or did Dev waive it for Summit Lifts?") == [
        ("harold", "tate"),
        ("dev",),
        ("summit", "lifts"),
    ]
    assert name_runs("Did Okafor, Dev and Anna meet?") == [("okafor",), ("dev",), ("anna",)]


def test_a_month_that_is_a_first_name_is_a_name_unless_beside_a_day():
    assert name_runs("Did Jan Kowalski call about the order?") == [("jan", "kowalski")]
    assert query_names("Did August fix the skylight?") == {"august"}
    assert query_names("Will buses run from 4 to 11 August?") == set()
    assert query_names("Is the talk on May 3rd, with Dev?") == {"dev"}
