"""The plan: representation per source, KG focus, schema linking on a big
schema, shared values across sources, and the program cache (zero LLM
calls). LLM replies come from a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from agent import AgentContext, ask
from agent.planning import choose_routes, prompt_schema
from memory.verification import build_demonstration
from plugins import Workspace, load_source
from plugins.errors import BadInputError
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step


def workspace_of(*paths: Path) -> Workspace:
    return Workspace.of(load_source(str(path)) for path in paths)


def test_routes_follow_the_preference_and_sql_alone_above_the_row_threshold(examples):
    music = workspace_of(examples / "music.sqlite")
    assert choose_routes(music, None, ("pandas",), 1_000_000) == [("pandas", "default")]
    both = choose_routes(music, None, ("sql", "pandas"), 1_000_000)
    assert [name for name, _ in both] == ["sql", "pandas"]
    [(representation, why)] = choose_routes(music, None, ("pandas",), 10)
    assert representation == "sql" and "music holds 51 rows" in why


def test_routes_skip_representations_that_cannot_show_the_sources(examples):
    films = workspace_of(examples / "films.ttl")
    assert choose_routes(films, None, ("networkx", "pandas"), 10) == [
        ("networkx", "default"),
        ("pandas", "default"),
    ]
    assert choose_routes(films, None, ("sql",), 10) == [("sql", "default")]
    mixed = workspace_of(examples / "music.sqlite", examples / "cities.csv")
    assert choose_routes(mixed, None, ("sql", "pandas"), 10**6) == [("pandas", "default")]


def test_a_representation_the_sources_cannot_take_is_bad_input(examples):
    with pytest.raises(BadInputError, match="networkx representation shows kg"):
        choose_routes(workspace_of(examples / "music.sqlite"), "networkx", (), 10)
    graph_and_database = workspace_of(examples / "films.ttl", examples / "music.sqlite")
    [(representation, _)] = choose_routes(graph_and_database, "sql", (), 10)
    with pytest.raises(BadInputError, match="SQL runs on one database at a time"):
        prompt_schema(graph_and_database, representation, None, "anything", 8, 4)


def test_the_program_cache_answers_with_zero_llm_calls(llm, store, examples):
    question = "Which artist has the most albums?"
    code = (
        "result = album.merge(artist, on='artist_id').groupby('name').size()"
        ".sort_values(ascending=False).index[:1].tolist()"
    )
    demonstration, outcome = build_demonstration(
        question=question,
        code=code,
        locations=[str(examples / "music.sqlite")],
        representation="pandas",
        origin="cli",
    )
    assert outcome.passed
    store.add(demonstration)
    with llm() as server:  # an empty script: any LLM call would fail
        answer = ask(
            "which artist has the most albums",
            [str(examples / "music.sqlite")],
            context=AgentContext(store=store),
        )
    assert server.requests == []
    assert (answer.llm_calls, answer.attempts) == (0, 0)
    assert answer.code == code
    assert answer.answer == music_query(
        "SELECT artist.name FROM album JOIN artist USING (artist_id) "
        "GROUP BY artist.artist_id ORDER BY COUNT(*) DESC LIMIT 1"
    )
    assert ("plan", "program_cache") in [(e.node, e.event) for e in answer.trace]


def test_a_cached_program_that_fails_falls_back_to_the_llm(llm, store, examples, tmp_path):
    source = tmp_path / "shop.sqlite"
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE item (name TEXT, price REAL)")
        connection.execute("INSERT INTO item VALUES ('pen', 2.0), ('ink', 5.0)")
    question = "What does a pen cost?"
    stale_code = "result = item.set_index('name').loc['pen', 'price']"
    demonstration, outcome = build_demonstration(
        question=question,
        code=stale_code,
        locations=[str(source)],
        representation="pandas",
        origin="cli",
    )
    assert outcome.passed
    store.add(demonstration)
    with sqlite3.connect(source) as connection:  # the data changes, not the schema
        connection.execute("UPDATE item SET name = 'quill' WHERE name = 'pen'")
    right = "result = item['price'].max()"
    with llm(Step(fenced(right))) as server:
        answer = ask(question, [str(source)], context=AgentContext(store=store))
    assert len(server.requests) == 1
    events = [(e.node, e.event) for e in answer.trace]
    assert ("plan", "program_cache") not in events  # its rerun failed: not served
    assert answer.program_cache is None
    assert answer.attempts == 1 and answer.llm_calls == 1
    assert answer.answer == [[5.0]]


def big_database(path: Path) -> Path:
    """Twelve tables; `orders` refers to `customer` and `product`."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute("CREATE TABLE product (product_id INTEGER PRIMARY KEY, title TEXT)")
        connection.execute(
            "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, "
            "customer_id INTEGER REFERENCES customer(customer_id), "
            "product_id INTEGER REFERENCES product(product_id), quantity INTEGER)"
        )
        for name in [
            "weather",
            "planet",
            "volcano",
            "glacier",
            "comet",
            "tide",
            "moon",
            "storm",
            "asteroid",
        ]:
            connection.execute(f"CREATE TABLE {name} ({name}_id INTEGER, reading REAL)")
        connection.execute("INSERT INTO customer VALUES (1, 'Ada')")
    return path


@pytest.mark.parametrize("representation", ["pandas", "sql"])
def test_schema_linking_keeps_the_relevant_tables_and_their_foreign_keys(tmp_path, representation):
    workspace = workspace_of(big_database(tmp_path / "big.sqlite"))
    schema = prompt_schema(
        workspace,
        representation,
        None,
        "How many orders did each customer place?",
        linking_min_items=8,
        linking_keep=2,
    )
    assert schema.linked is not None and "orders" in schema.linked
    assert {"customer", "product"} <= set(schema.linked)  # the foreign-key closure
    assert "volcano" not in schema.shown_text and "volcano" in schema.full_text
    assert "customer_id" in schema.shown_text


def test_a_small_schema_is_shown_whole(examples):
    workspace = workspace_of(examples / "music.sqlite")
    schema = prompt_schema(workspace, "pandas", None, "anything", 8, 4)
    assert schema.linked is None and schema.shown_text == schema.full_text


def test_two_sources_one_program_and_the_shared_values_noted(llm, context, examples, tmp_path):
    listing = tmp_path / "listing.csv"
    rows = [("Los Faroles", "Sello Sur"), ("Aino Virtanen", "Fonal"), ("Nobody", "Void")]
    listing.write_text("artist,label\n" + "".join(f"{a},{b}\n" for a, b in rows))
    code = (
        "names = set(artist['name'])\n"
        "result = listing[listing['artist'].isin(names)]['label'].tolist()"
    )
    with llm(Step(fenced(code))) as server:
        answer = ask(
            "Which labels sign artists of the record shop?",
            [str(examples / "music.sqlite"), str(listing)],
            context=context,
        )
    prompt = server.prompts()[0]
    note = (
        "# shared values: artist['name'] and listing['artist'] (2 in common, "
        "e.g. 'Aino Virtanen'); join with "
        "artist.merge(listing, left_on='name', right_on='artist')"
    )
    assert note in prompt
    known = {row[0] for row in music_query("SELECT name FROM artist")}
    expected = [[label] for artist, label in rows if artist in known]
    assert answer.answer == expected == [["Sello Sur"], ["Fonal"]]


def test_kg_questions_are_focused_on_the_linked_entities(llm, context, examples):
    code = (
        "director = person[person['person'] == 'Alfred Hitchcock']\n"
        "result = film[film['directed_by'] == 'Alfred Hitchcock']['film'].unique().tolist()"
    )
    with llm(Step(fenced(code))):
        answer = ask(
            "Which films did Alfred Hitchcock direct?",
            [str(examples / "films.ttl")],
            context=context,
        )
    plan_event = answer.trace[0]
    assert plan_event.detail["topic_entities"] == ["Alfred Hitchcock"]
    assert answer.answer and all(isinstance(row[0], str) for row in answer.answer)
