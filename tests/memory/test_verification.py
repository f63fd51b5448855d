"""Verification by execution (through the real executor) and answer comparison."""

from memory.fingerprints import schema_fingerprint
from memory.verification import answers_match, build_demonstration, open_workspace, verify_code
from tests.conftest import EXAMPLES

CITIES = str(EXAMPLES / "cities.csv")


def test_answers_stored_as_text_equal_the_same_answers_as_json_values():
    """Before results kept their JSON types, stored answers were text ("3")."""
    assert answers_match([[3, "Paris", 2.5, None, True]], [["3", "Paris", "2.5", "None", "True"]])
    assert answers_match([["Lagos", 15388000]], [["Lagos", "15388000"]])
    assert not answers_match([[3]], [["4"]])


def test_answers_match_ignores_order_case_and_number_formatting():
    assert answers_match([["b", "2"], ["A", "1.0"]], [["a", "1"], ["B", "2.000"]])
    assert answers_match([["0.3333333"]], [["0.33333333"]])
    assert not answers_match([["13960236"]], [["13960237"]])
    assert not answers_match([["1"], ["1"]], [["1"]])


def test_gold_when_the_expected_answer_comes_back():
    workspace = open_workspace([CITIES])
    code = "result = int((cities['Country'] == 'India').sum())"
    for expected in ([[2]], [["2"]]):  # a JSON value, or text as stored before
        outcome = verify_code(code, workspace, "pandas", expected=expected)
        assert (outcome.verified, outcome.answer, outcome.problem) == ("gold", [[2]], None)


def test_a_different_answer_is_refused_with_both_answers_in_the_message():
    workspace = open_workspace([CITIES])
    outcome = verify_code("result = 3", workspace, "pandas", expected=[[2]])
    assert not outcome.passed
    assert "got [[3]]" in outcome.problem and "expected [[2]]" in outcome.problem


def test_failing_code_and_empty_answers_are_refused():
    workspace = open_workspace([CITIES])
    failed = verify_code("result = cities['Nope']", workspace, "pandas")
    assert failed.verified == "unverified" and "KeyError" in failed.problem
    empty = verify_code("result = cities[cities['City'] == 'Atlantis']", workspace, "pandas")
    assert empty.problem == "the code returned no rows"


def test_executed_or_approved_without_an_expected_answer():
    workspace = open_workspace([CITIES])
    assert verify_code("result = len(cities)", workspace, "pandas").verified == "executed"
    approved = verify_code("result = len(cities)", workspace, "pandas", approved=True)
    assert approved.verified == "approved"


def test_build_demonstration_records_kind_schema_and_fingerprint():
    demo, outcome = build_demonstration(
        question="How many artists are there?",
        code="SELECT COUNT(*) FROM artist",
        locations=[str(EXAMPLES / "music.sqlite")],
        representation="sql",
        origin="cli",
    )
    assert outcome.passed and demo.answer == [[6]]
    assert demo.kind == "database" and demo.verified == "executed"
    assert "CREATE TABLE" in demo.schema_ and "Night Owls" not in demo.schema_
    assert demo.schema_fingerprint == schema_fingerprint(demo.schema_)
