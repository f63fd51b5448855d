"""Demonstration records: stable ids, validation, JSON round trips."""

import pytest
from pydantic import ValidationError

from memory.fingerprints import normalise_question, schema_fingerprint
from memory.models import Demonstration
from tests.memory.conftest import make_demo


def test_id_ignores_case_spacing_and_final_punctuation():
    first = make_demo("How many cities are in Japan?", "result = 2\n")
    second = make_demo("  how many CITIES are in   japan ", "result = 2   \r\n\n")
    assert first.id == second.id


def test_id_changes_with_code_or_representation():
    base = make_demo("How many cities?", "result = 2")
    assert make_demo("How many cities?", "result = 3").id != base.id
    assert make_demo("How many cities?", "result = 2", representation="sql").id != base.id


def test_id_given_in_input_is_replaced_by_the_derived_one():
    demo = make_demo("How many cities?", id="forged")
    assert demo.id != "forged"
    assert demo.id == make_demo("How many cities?").id


def test_json_round_trip_keeps_the_schema_field_name():
    demo = make_demo("Q?", schema="cities = pd.DataFrame({...})")
    line = demo.to_json_line()
    assert '"schema":"cities = pd.DataFrame' in line
    assert Demonstration.model_validate_json(line) == demo


def test_unknown_fields_and_bad_verification_are_refused():
    with pytest.raises(ValidationError):
        make_demo("Q?", colour="blue")
    with pytest.raises(ValidationError):
        make_demo("Q?", verified="trusted")


def test_schema_fingerprint_ignores_layout_but_not_structure():
    schema = "cities = pd.DataFrame({\n    'City': [...str],\n})"
    assert schema_fingerprint(schema) == schema_fingerprint("  " + schema.replace("\n", "\n\n"))
    assert schema_fingerprint(schema) != schema_fingerprint(schema.replace("str", "Int64"))


def test_normalise_question():
    assert normalise_question("  Which CITY?! ") == "which city"
