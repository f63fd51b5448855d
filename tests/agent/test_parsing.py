"""Reading LLM replies as reasoning + code (no LLM involved)."""

from __future__ import annotations

import json

import pytest

from agent.parsing import ParsedReply, UnparsableReply, parse_direct_answer, parse_reply
from agent.prompts import FENCED_REPLY_END


def test_a_json_object_gives_reasoning_and_code():
    parsed = parse_reply('{"reasoning": "count rows", "code": "result = len(album)"}')
    assert (parsed.reasoning, parsed.code) == ("count rows", "result = len(album)")


def test_code_as_a_list_of_lines_is_joined_with_newlines():
    reply = '{"reasoning": "r", "code": ["rows = a.merge(b)", "result = len(rows)"]}'
    assert parse_reply(reply).code == "rows = a.merge(b)\nresult = len(rows)"


def test_json_inside_a_fence_or_with_prose_around_it():
    fenced = 'Answer:\n```json\n{"reasoning": "r", "code": "result = 1"}\n```'
    prose = 'I will do it. {"reasoning": "r", "code": "result = 2"} Done.'
    assert parse_reply(fenced).code == "result = 1"
    assert parse_reply(prose).code == "result = 2"


def test_code_inside_json_that_still_carries_a_fence_is_unwrapped():
    reply = '{"reasoning": "r", "code": "```python\\nresult = 3\\n```"}'
    assert parse_reply(reply).code == "result = 3"


def test_a_fenced_block_with_prose_around_it():
    reply = "First join.\n```python\nresult = a.merge(b)\n```\nThen done."
    parsed = parse_reply(reply)
    assert parsed.code == "result = a.merge(b)"
    assert parsed.reasoning == "First join. Then done."


def test_an_unterminated_fence_still_gives_its_code():
    assert parse_reply("```python\nresult = 4\n").code == "result = 4"


def test_sql_fences_and_bare_sql():
    assert parse_reply("```sql\nSELECT 1;\n```", "sql").code == "SELECT 1;"
    assert parse_reply("SELECT name FROM artist;", "sql").code == "SELECT name FROM artist"


def test_a_python_fence_is_not_taken_as_sql():
    with pytest.raises(UnparsableReply):
        parse_reply("```python\nresult = 1\n```", "sql")


@pytest.mark.parametrize("reply", ["", "The answer is 42.", '{"reasoning": "r", "code": ""}'])
def test_a_reply_without_code_is_unparsable(reply):
    with pytest.raises(UnparsableReply, match="held no code"):
        parse_reply(reply)


def test_direct_answers_give_one_value_per_item():
    assert parse_direct_answer('{"reasoning": "r", "answer": ["Rome"]}').values == ("Rome",)
    assert parse_direct_answer('{"reasoning": "r", "answer": "Rome"}').reasoning == "r"
    assert parse_direct_answer('{"answer": [" a ", "b", ""]}').values == ("a", "b")
    assert parse_direct_answer('{"answer": [3, 2.5, null, ["x"]]}').values == (
        3,
        2.5,
        "null",
        '["x"]',
    )
    assert parse_direct_answer("Rome").values == ("Rome",)


def test_a_direct_answer_that_shows_its_arithmetic_gives_the_result():
    reply = '{"answer": ["7786640 - 6272571 = 1514069", "(3 + 4) * 2 = 14 goals", "E = mc2"]}'
    assert parse_direct_answer(reply).values == ("1514069", "14 goals", "E = mc2")


@pytest.mark.parametrize("reply", ["  ", '{"reasoning": "r", "answer": []}', '{"answer": ""}'])
def test_a_direct_reply_without_an_answer_is_unparsable(reply):
    with pytest.raises(UnparsableReply, match="held no answer"):
        parse_direct_answer(reply)


def test_a_copied_box_schema_is_dropped_before_the_program_runs():
    reply = json.dumps(
        {
            "reasoning": "filter",
            "code": [
                "singer = pd.DataFrame({...})",
                "concert = pd.DataFrame({",
                "    'Year': [...],  # str",
                "})",
                "result = singer[singer['Age'] > 30]",
            ],
        }
    )
    assert parse_reply(reply).code == "result = singer[singer['Age'] > 30]"


def test_a_dataframe_built_from_real_values_is_kept():
    code = "frame = pd.DataFrame({'a': [1, 2]})\nresult = frame"
    assert parse_reply(json.dumps({"reasoning": "", "code": code})).code == code


def test_a_reply_that_is_only_the_schema_is_left_for_the_interpreter_to_refuse():
    code = "singer = pd.DataFrame({...})"
    assert parse_reply(json.dumps({"reasoning": "", "code": code})).code == code


def test_a_reply_cut_where_its_closing_fence_was_reads_as_the_whole_block():
    reply = "Count the rows.\n```sql\nSELECT COUNT(*) FROM singer\n```\n\nThis counts them."
    cut = reply[: reply.index(FENCED_REPLY_END)]
    assert parse_reply(cut, "sql") == ParsedReply("Count the rows.", "SELECT COUNT(*) FROM singer")
