"""Every reader on a small dataset of its public format (tests/evaluation/data)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from evaluation.datasets import read_dataset
from evaluation.datasets.temptabqa import parse_infobox
from evaluation.datasets.wikitq import split_target, unescape
from plugins import load_source
from plugins.errors import BadInputError
from plugins.pandas_box import source_boxes


def test_spider_reads_questions_whose_database_is_present(datasets: Path) -> None:
    """Four questions over `shop`; the one over a missing database is skipped."""
    examples = read_dataset("spider", datasets / "spider")
    assert [e.id for e in examples] == ["dev-0", "dev-1", "dev-2", "dev-3"]
    assert examples[0].database == "shop"
    assert examples[0].gold_sql == "SELECT count(*) FROM shop WHERE city = 'Oslo'"
    assert Path(examples[0].sources[0]).name == "shop.sqlite"
    assert len(read_dataset("spider", datasets / "spider", "train")) == 4


def test_wikitq_escapes_and_canonical_answers(datasets: Path) -> None:
    """`\\p` is a pipe inside a value, `|` separates values; canonical forms come along."""
    assert unescape(r"a\nb\\c\pd") == "a\nb\\c|d"
    assert split_target(r"A\\B \p C|D") == ["A\\B | C", "D"]
    examples = {e.id: e for e in read_dataset("wikitq", datasets / "wikitq", "tiny")}
    assert examples["t-0"].gold_answer == [["Oslo"], ["Bergen"]]
    assert examples["t-1"].gold_answer == [["A\\B | C"]]
    assert examples["t-2"].metadata["canonical"] == ["2001-05-01"]
    assert examples["t-0"].database == "csv/200-csv/1.csv"
    assert load_source(examples["t-0"].sources[0]).kind == "table"


def test_wikisql_gold_answers_come_from_the_logical_form(datasets: Path) -> None:
    """Selection, case-insensitive equality, SUM, COUNT with >, MIN; the table as a CSV."""
    examples = read_dataset("wikisql", datasets / "wikisql")
    assert [e.gold_answer for e in examples] == [
        [["Ann Berg"], ["Cy Moe"]],
        [[15.0]],
        [[2]],
        [[7.0]],
    ]
    table = load_source(examples[0].sources[0])
    assert list(next(iter(table.handle.values())).columns) == ["Player", "Team", "Goals"]


def test_kgqa_subgraphs_become_named_triples(datasets: Path) -> None:
    """Freebase ids are replaced by names; the subgraph loads with the triples loader."""
    examples = read_dataset("webqsp", datasets / "webqsp" / "tiny.jsonl")
    first, second = examples
    assert first.entities == ["Vertigo"]
    assert first.gold_answer == [["Alfred Hitchcock"]]
    assert second.gold_answer == [["James Stewart"], ["Kim Novak"]]
    lines = Path(first.sources[0]).read_text(encoding="utf-8").splitlines()
    assert lines[1] == "Vertigo\tfilm.film.directed_by\tAlfred Hitchcock"
    graph = load_source(first.sources[0], plugin=first.metadata["plugin"])
    assert graph.kind == "kg"


def test_spider4sparql_keeps_reliable_gold_by_default(datasets: Path) -> None:
    """Timed-out and graph-less questions are dropped; `differ` only with split 'all'."""
    reliable = read_dataset("spider4sparql", datasets / "spider4sparql")
    assert [e.id for e in reliable] == ["dev-0"]
    assert reliable[0].gold_answer == [[2.0]]
    everything = read_dataset("spider4sparql", datasets / "spider4sparql", "all")
    assert [e.id for e in everything] == ["dev-0", "dev-1"]


def test_temptabqa_infobox_becomes_a_relational_database(datasets: Path) -> None:
    """Athlete, personal details, tournaments, formats and medals, queryable by SQL."""
    examples = read_dataset("temptabqa", datasets / "temptabqa")
    assert [e.variant for e in examples] == ["original"] * 3 + ["counterfactual"] * 2
    assert examples[1].gold_answer == [["2004"]]
    connection = sqlite3.connect(examples[1].sources[0])
    first_gold = connection.execute(
        "SELECT MIN(m.year) FROM Medal m JOIN Format f ON m.format_id = f.format_id "
        "JOIN Tournament t ON f.tournament_id = t.tournament_id "
        "JOIN Athlete a ON t.athlete_id = a.athlete_id WHERE a.name = 'Ann Example' "
        "AND m.type = 'Gold'"
    ).fetchone()
    age = connection.execute(
        "SELECT MIN(m.year) - p.birth_year FROM Medal m, PersonalInformation p"
    ).fetchone()
    assert first_gold == (2004,)
    assert age == (24,)
    counterfactual = sqlite3.connect(examples[3].sources[0])
    assert counterfactual.execute("SELECT MIN(year) FROM Medal WHERE type = 'Gold'").fetchone() == (
        2005,
    )
    boxes = source_boxes(load_source(examples[0].sources[0]))
    assert {box.name for box in boxes} == {
        "Athlete",
        "PersonalInformation",
        "Tournament",
        "Format",
        "Medal",
    }


def test_infobox_parsing_keeps_empty_personal_fields_empty() -> None:
    """A key without a value line (Height) is left out, not given the next key."""
    infobox = parse_infobox("Bo\n\nPersonal Information\nHeight\n\nWeight\n70 kg\t\n")
    assert infobox.personal == {"weight": "70 kg"}


@pytest.mark.parametrize(
    ("task", "relative", "message"),
    [
        ("spider", "nowhere", "no such file or directory"),
        ("spider", "wikisql", "dev.json: no such file"),
        ("webqsp", "webqsp", "name the JSON-lines file"),
        ("temptabqa", "temptabqa", "split must be one of"),
    ],
)
def test_bad_dataset_paths_are_bad_input(
    datasets: Path, task: str, relative: str, message: str
) -> None:
    """A wrong folder or file is a one-line BadInputError naming the problem."""
    split = "both" if task == "temptabqa" else None
    with pytest.raises(BadInputError, match=message):
        read_dataset(task, datasets / relative, split)  # type: ignore[arg-type]


def test_spider4sparql_finds_graphs_named_either_way(datasets: Path) -> None:
    """The published folder has `<name>_triples.ttl` and `<Name>.ttl` files alike."""
    from evaluation.datasets.spider4sparql import graph_files

    kg = datasets / "spider4sparql" / "kg"
    (kg / "Voter_1.ttl").write_text((kg / "shop_triples.ttl").read_text(encoding="utf-8"))
    assert set(graph_files(kg)) == {"shop", "voter_1"}
