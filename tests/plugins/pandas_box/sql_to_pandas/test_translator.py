"""The translator on the bundled record-shop database, its refusals, and its CLI.

Translations are checked by running both programs through the executor on
examples/music.sqlite; refusals must name the construct.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from plugins import Workspace, load_source
from plugins.pandas_box import workspace_boxes
from plugins.pandas_box.sql_to_pandas import (
    UntranslatableSql,
    translate_sql,
    verify_translation,
)

MUSIC_QUERIES = [
    "SELECT genre, count(*) FROM album GROUP BY genre ORDER BY count(*) DESC, genre",
    "SELECT T1.name, sum(T3.amount) FROM customer AS T1 JOIN purchase AS T3 "
    "ON T1.customer_id = T3.customer_id GROUP BY T1.customer_id ORDER BY sum(T3.amount) DESC",
    "SELECT title FROM album WHERE release_date > '2015-01-01'",
    "SELECT T1.title, T2.title FROM album AS T1 JOIN track AS T2 ON T1.album_id = T2.album_id "
    "WHERE T2.duration_seconds > (SELECT avg(duration_seconds) FROM track)",
    "SELECT name FROM artist WHERE artist_id NOT IN (SELECT artist_id FROM album)",
    "SELECT country FROM artist INTERSECT SELECT country FROM customer",
    "SELECT name FROM artist WHERE name LIKE '%the%'",
    "SELECT count(DISTINCT customer_id) FROM purchase WHERE amount BETWEEN 1 AND 10",
    "SELECT title, CASE WHEN price > 10 THEN 'premium' ELSE 'regular' END FROM album",
    "SELECT T2.name, count(*) FROM album AS T1 JOIN artist AS T2 ON T1.artist_id = "
    "T2.artist_id JOIN track AS T3 ON T3.album_id = T1.album_id GROUP BY T2.name "
    "HAVING count(*) > 2",
]

REFUSED = [
    ("SELECT name, row_number() OVER (ORDER BY name) FROM artist", "a window function"),
    ("WITH a AS (SELECT * FROM artist) SELECT * FROM a", "WITH"),
    (
        "SELECT name FROM artist AS a WHERE EXISTS (SELECT 1 FROM album AS b "
        "WHERE b.artist_id = a.artist_id)",
        "a correlated subquery",
    ),
    ("SELECT group_concat(name) FROM artist", "the aggregate GROUPCONCAT"),
    ("SELECT * FROM artist RIGHT JOIN album ON artist.artist_id = album.artist_id", "RIGHT JOIN"),
    ("SELECT * FROM nowhere", "an unknown table"),
    ("SELECT shoe_size FROM artist", "an unknown column"),
    ("DELETE FROM artist", "a DELETE statement"),
    ("SELECT 1; SELECT 2", "several statements"),
    ("SELEC name FROM", "SQL that does not parse"),
]


@pytest.fixture(scope="module")
def music(request: pytest.FixtureRequest) -> Workspace:
    """The bundled record-shop database."""
    examples = Path(request.config.rootpath) / "examples"
    return Workspace.of([load_source(str(examples / "music.sqlite"))])


@pytest.mark.parametrize("sql", MUSIC_QUERIES)
def test_translation_of_the_bundled_database_equals_sqlite(sql: str, music: Workspace) -> None:
    """Run in the sandbox, the pandas program returns SQLite's rows."""
    translation = translate_sql(sql, workspace_boxes(music))
    verification = verify_translation(sql, translation, music)
    assert verification.equal, (translation.code, verification)


def test_translation_is_commented_step_by_step(music: Workspace) -> None:
    """Every reasoning step is a comment of the code, in SQL's logical order."""
    sql = (
        "SELECT genre, avg(price) FROM album WHERE price > 5 GROUP BY genre "
        "HAVING count(*) > 1 ORDER BY genre LIMIT 2"
    )
    translation = translate_sql(sql, workspace_boxes(music))
    steps = translation.reasoning.splitlines()
    assert [step.split()[0] for step in steps] == [
        "FROM",
        "WHERE",
        "GROUP",
        "HAVING",
        "SELECT",
        "ORDER",
        "LIMIT",
    ]
    comments = [line[2:] for line in translation.code.splitlines() if line.startswith("# ")]
    assert comments == steps
    assert "result = " in translation.code


@pytest.mark.parametrize(("sql", "construct"), REFUSED)
def test_untranslatable_sql_names_the_construct(sql: str, construct: str, music: Workspace) -> None:
    """What the translator cannot do is refused, naming the construct."""
    with pytest.raises(UntranslatableSql) as refusal:
        translate_sql(sql, workspace_boxes(music))
    assert refusal.value.construct == construct
    assert construct in str(refusal.value)


def test_translate_command_prints_code_and_reasoning(pandora, examples: Path) -> None:
    """`pandora translate --json` prints {"code", "reasoning"}; the code runs with `pandora run`."""
    sql = "SELECT name FROM artist WHERE formed_year < 2000 ORDER BY name"
    translated = pandora("translate", "--source", str(examples / "music.sqlite"), sql, "--json")
    assert translated.exit_code == 0, translated.stderr
    assert set(translated.json) == {"code", "reasoning"}
    assert translated.json["reasoning"].splitlines()[0] == "FROM artist"
    ran = pandora(
        "run",
        str(examples / "music.sqlite"),
        "--code",
        "-",
        "--json",
        stdin=translated.json["code"],
    )
    queried = pandora("sql", str(examples / "music.sqlite"), sql, "--json")
    assert ran.exit_code == 0, ran.stderr
    assert [[str(v) for v in row] for row in ran.json["result"]] == [
        [str(v) for v in row] for row in queried.json["rows"]
    ]


def test_translate_command_exits_1_naming_the_construct(pandora, examples: Path) -> None:
    """An untranslatable query exits 1; the message and the JSON name the construct."""
    refused = pandora(
        "translate",
        "--source",
        str(examples / "music.sqlite"),
        "SELECT name, rank() OVER (ORDER BY name) FROM artist",
        "--json",
    )
    assert refused.exit_code == 1
    assert refused.json["construct"] == "a window function"
    assert "window function" in refused.stderr


def test_translate_command_bad_source_exits_2(pandora, tmp_path: Path) -> None:
    """A missing database is bad input: exit 2, one line."""
    missing = pandora("translate", "--source", str(tmp_path / "none.sqlite"), "SELECT 1")
    assert missing.exit_code == 2
    assert "no such file" in missing.stderr
