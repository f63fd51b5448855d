"""Demonstrations that read more tables than the question's schema has are
not shown: a one-table question is never taught to join (real store, real
SQLite file, the fake OpenAI-compatible server reading the prompt)."""

from __future__ import annotations

import dataclasses

import pytest

from agent import AgentContext, ask
from agent.demonstration_fit import fitting, tables_read
from agent.state import ShownDemonstration
from memory import Demonstration
from tests.agent.conftest import fenced
from tests.fake_openai import Step

JOINING_SQL = (
    "SELECT T2.title FROM artist AS T1 JOIN album AS T2 ON T1.artist_id = T2.artist_id "
    "WHERE T1.name = 'Miles Davis'"
)
ONE_TABLE_SQL = "SELECT COUNT(*) FROM album WHERE genre = 'Jazz'"


def shown(code: str, representation: str = "sql") -> ShownDemonstration:
    return ShownDemonstration(
        id=code, question="q", reasoning="", code=code, representation=representation, score=1.0
    )


@pytest.mark.parametrize(
    ("code", "representation", "tables"),
    [
        (ONE_TABLE_SQL, "sql", 1),
        (JOINING_SQL, "sql", 2),
        ("SELECT name FROM singer WHERE age > (SELECT AVG(age) FROM singer)", "sql", 1),
        ("SELECT a FROM x UNION SELECT b FROM y", "sql", 2),
        ("SELECT T1.a FROM t AS T1 JOIN t AS T2 ON T1.a = T2.b", "sql", 2),  # a self-join
        ("SELECT a FROM t WHERE b IN (SELECT c FROM t AS u JOIN t AS v ON u.c = v.c)", "sql", 2),
        ("SELEC broken", "sql", None),
        ("result = album.merge(artist, on='artist_id')['name'].tolist()", "pandas", 2),
        ("result = ', '.join(album['title'])", "pandas", 1),
        ("def KGQA(question, graph):\n    return []", "networkx", None),
    ],
)
def test_tables_read(code, representation, tables):
    assert tables_read(shown(code, representation)) == tables


def test_fitting_keeps_order_and_k_and_what_cannot_be_told():
    candidates = [shown(JOINING_SQL), shown(ONE_TABLE_SQL), shown("SELEC x"), shown("SELECT 1")]
    assert [item.code for item in fitting(candidates, 1, 2)] == [ONE_TABLE_SQL, "SELEC x"]
    assert [item.code for item in fitting(candidates, 2, 1)] == [JOINING_SQL]


def test_a_one_table_question_is_shown_no_joining_demonstration(llm, store, tmp_path):
    table = tmp_path / "albums.csv"
    table.write_text("title,genre\nKind of Blue,Jazz\nNevermind,Rock\n", encoding="utf-8")
    for question, code in [
        ("Which albums did Miles Davis make?", JOINING_SQL),
        ("How many jazz albums are there?", ONE_TABLE_SQL),
    ]:
        store.add(
            Demonstration(
                question=question, kind="database", representation="sql", code=code, dataset="t"
            )
        )
    context = dataclasses.replace(
        AgentContext(store=store),
        candidates=1,
        routes=("sql",),
        reply_format="fenced",
        demonstrations=2,
        retrieval="cross",
    )
    with llm(Step(fenced("SELECT COUNT(*) FROM albums", "sql"))) as server:
        answer = ask("How many albums are there?", [str(table)], context=context)
    assert answer.answer == [[2]]
    prompt = server.prompts()[0]
    assert ONE_TABLE_SQL in prompt
    assert "JOIN album" not in prompt
