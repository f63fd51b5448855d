"""Execution guidance: what the next prompt is told about a failed or
suspicious attempt, on real BOXes of the bundled database (no LLM)."""

from __future__ import annotations

import sqlite3

import pytest

from agent.feedback import did_you_mean, judge
from agent.feedback_budget import FeedbackLimits
from agent.state import Attempt, CodeFailure
from plugins import Workspace, load_source
from plugins.executor import execute
from plugins.pandas_box import workspace_boxes
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def boxes():
    workspace = Workspace.of([load_source(str(EXAMPLES / "music.sqlite"))])
    return workspace_boxes(workspace)


def failed(error_type: str, message: str, code: str = "result = 1") -> Attempt:
    return Attempt(code=code, executed=True, error=CodeFailure(type=error_type, message=message))


def ran(rows, columns, code="result = 1", total_rows=None) -> Attempt:
    return Attempt(code=code, executed=True, result=rows, columns=columns, total_rows=total_rows)


def test_an_invented_field_gets_the_nearest_fields_and_some_of_their_values(boxes):
    verdict = judge(failed("KeyError", "'artist_name'"), "Who?", boxes, [])
    assert not verdict.has_rows
    assert verdict.feedback.startswith("The code failed with KeyError: 'artist_name'")
    assert "Did you mean artist['name']? Some values: 'The Night Owls'" in verdict.feedback


def test_a_field_some_boxes_lack_names_the_boxes_that_spell_it_otherwise():
    from tests.conftest import EXAMPLES as examples

    workspace = Workspace.of(
        [load_source(str(examples / "music.sqlite")), load_source(str(examples / "cities.csv"))]
    )
    code = "result = pd.merge(customer, cities, on='country')"
    verdict = judge(failed("KeyError", "'country'", code), "Who?", workspace_boxes(workspace), [])
    assert "'country' is a field of artist, customer only." in verdict.feedback
    assert "cities has 'Country' instead." in verdict.feedback


def test_an_attribute_error_names_the_missing_attribute(boxes):
    message = "'DataFrame' object has no attribute 'titel'"
    verdict = judge(failed("AttributeError", message), "Which titles?", boxes, [])
    assert "Did you mean album['title']?" in verdict.feedback
    assert "Did you mean track['title']?" in verdict.feedback


def test_an_sql_error_on_a_missing_column_gets_did_you_mean(boxes):
    verdict = judge(failed("QueryFailed", "no such column: genere"), "Genres?", boxes, [])
    assert "Did you mean album['genre']?" in verdict.feedback


@pytest.mark.parametrize(("written", "box"), [("Dogs", "dogs"), ("OWNERS", "owners")])
def test_a_box_named_in_another_case_is_suggested_first(tmp_path, written, box):
    # KG types have a label field named after them: owners['owners']
    path = tmp_path / "kennel.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE dogs (dogs TEXT, owner_id INTEGER);"
        "CREATE TABLE owners (owners TEXT, owner_id INTEGER);"
        "INSERT INTO dogs VALUES ('Bessie', 1); INSERT INTO owners VALUES ('Ann', 1);"
    )
    connection.commit()
    connection.close()
    boxes = workspace_boxes(Workspace.of([load_source(str(path))]))
    assert did_you_mean(written, boxes, [])[0].startswith(f"Did you mean the BOX {box!r}?")


def test_graph_node_names_are_suggested_for_networkx(boxes):
    lines = did_you_mean("Hitchcock", [], ["Alfred Hitchcock", "Vertigo", "Grace Kelly"])
    assert (
        lines
        == ["Nodes of the graph close to 'Hitchcock': 'Alfred Hitchcock', 'Grace Kelly', 'Vertigo'"]
        or "'Alfred Hitchcock'" in lines[0]
    )


def test_an_empty_result_names_close_values_of_a_mistyped_literal(boxes):
    code = "result = customer[customer['name'] == 'chen wei']"
    verdict = judge(ran([], ["name"], code), "Where does Chen Wei live?", boxes, [])
    assert "returned no rows" in verdict.feedback
    assert "'chen wei' is not a value in the data" in verdict.feedback
    assert "customer['name'] has 'Chen Wei'" in verdict.feedback


def test_a_literal_that_exists_gets_no_value_hint(boxes):
    code = "result = customer[customer['name'] == 'Chen Wei']['joined']"
    verdict = judge(ran([], ["joined"], code), "When?", boxes, [])
    assert verdict.feedback == "The code ran but returned no rows."


def test_all_missing_columns_are_flagged(boxes):
    verdict = judge(ran([["a", None], ["b", None]], ["name", "total"]), "Totals?", boxes, [])
    assert verdict.has_rows
    assert "['total'] hold only missing values" in verdict.feedback


def test_more_rows_than_any_box_after_a_join_is_flagged(boxes):
    code = "result = purchase.merge(track, how='cross')"
    verdict = judge(ran([[1]] * 3, ["x"], code, total_rows=238), "Purchases?", boxes, [])
    assert "more than the largest BOX (17 rows)" in verdict.feedback


def test_repeated_rows_are_flagged(boxes):
    rows = [["8½"]] * 3 + [["La Strada"]] * 3
    verdict = judge(ran(rows, ["film"]), "Which films?", boxes, [])
    assert verdict.has_rows and "repeats rows (6 rows, 2 distinct)" in verdict.feedback


def test_many_rows_for_how_many_is_flagged_unless_grouped(boxes):
    rows = [["a"], ["b"]]
    assert "return the count" in judge(ran(rows, ["x"]), "How many albums?", boxes, []).feedback
    grouped = judge(ran(rows, ["x"]), "How many albums per genre?", boxes, [])
    assert grouped.feedback is None and grouped.has_rows


@pytest.mark.parametrize(
    "question",
    [
        "Count the number of dogs that went through a treatment.",
        "What is the number of cars with over 6 cylinders?",
        "Find the number of orchestras whose record format is CD.",
        "what is the total number of districts?",
        "Count the albums.",
    ],
)
def test_count_questions_not_starting_with_how_many_are_flagged_too(boxes, question):
    """Spider and WikiTableQuestions ask for counts in these words as often as
    with "how many"; a list answering them is as wrong."""
    verdict = judge(ran([["a"], ["b"], ["c"]], ["x"]), question, boxes, [])
    assert verdict.feedback.startswith("The question asks for a count, but the result has 3 rows")


@pytest.mark.parametrize(
    "question",
    [
        "Count the number of dogs of each breed.",
        "What is the phone number of the owner?",
        "Which countries have the largest number of car makers?",
    ],
)
def test_grouped_counts_and_other_numbers_are_not_taken_for_one_count(boxes, question):
    assert judge(ran([["a"], ["b"], ["c"]], ["x"]), question, boxes, []).feedback is None


def test_whole_rows_for_a_question_about_one_field_are_flagged(boxes):
    columns = ["track_id", "title", "album_id", "seconds", "price"]
    rows = [[1, "Intro", 1, 61, 0.99]]
    verdict = judge(ran(rows, columns), "What is the price of the longest track?", boxes, [])
    assert verdict.has_rows and "The result has 5 columns ('track_id'" in verdict.feedback
    asked = judge(ran(rows, columns), "Show all information about the track.", boxes, [])
    assert asked.feedback is None


def test_a_plausible_result_gets_no_feedback(boxes):
    verdict = judge(ran([[8]], ["count"]), "How many albums?", boxes, [])
    assert verdict == type(verdict)(None, True)


def test_kg2code_literals_that_name_nothing_get_the_close_relation_names():
    code = (
        "def KGQA(question, graph):\n"
        "    edges = graph.in_edges('Vertigo', data=True)\n"
        "    return [h for h, t, d in edges if d['relation'] == 'directed by']"
    )
    verdict = judge(ran([], ["result"], code), "Who?", [], ["Vertigo", "directed_by", "starring"])
    assert "'directed by' is no node or relation of the graph; close: 'directed_by'" in (
        verdict.feedback
    )


def test_sql_written_as_python_is_told_to_write_pandas(boxes):
    code = "FROM album AS T1\nJOIN artist AS T2 ON T1.artist_id = T2.id\nGROUP BY T2.name"
    verdict = judge(failed("SyntaxError", "invalid syntax", code), "Which?", boxes, [])
    assert "SQL clauses" in verdict.feedback
    assert ".merge" in verdict.feedback


def test_a_python_syntax_error_is_not_taken_for_sql(boxes):
    code = "result = album[album['price'] > 5"
    verdict = judge(failed("SyntaxError", "'[' was never closed", code), "Which?", boxes, [])
    assert "SQL clauses" not in verdict.feedback


def test_a_program_without_result_is_told_to_end_with_it(boxes):
    code = "frame = album\nframe = frame[frame['price'] > 5]"
    message = "the code must assign `result`"
    verdict = judge(failed("NoResult", message, code), "How many?", boxes, [])
    assert "result = len(frame)" in verdict.feedback


def test_a_program_that_reads_a_file_is_told_the_boxes_are_loaded(boxes):
    """The executor's own refusal of `pd.read_csv` gets the BOX names to use instead."""
    code = "frame = pd.read_csv('album.csv')\nresult = frame"
    workspace = Workspace.of([load_source(str(EXAMPLES / "music.sqlite"))])
    refused = execute(code, workspace, "pandas").error
    assert refused is not None and refused.type == "CodeRejected"
    attempt = failed(refused.type, refused.message, code)
    verdict = judge(attempt, "Which albums?", boxes, [])
    assert "already loaded" in verdict.feedback
    assert all(box.name in verdict.feedback for box in boxes)


def test_a_join_on_a_key_named_differently_on_each_side_gets_the_merge_call(tmp_path):
    database = tmp_path / "cars.sqlite"
    with sqlite3.connect(database) as connection:
        connection.executescript(
            """
            CREATE TABLE countries (CountryId INTEGER PRIMARY KEY, CountryName TEXT);
            CREATE TABLE car_makers (Id INTEGER PRIMARY KEY, Maker TEXT,
                                     Country INTEGER REFERENCES countries(CountryId));
            INSERT INTO countries VALUES (1, 'usa'), (2, 'japan');
            INSERT INTO car_makers VALUES (1, 'amc', 1), (2, 'toyota', 2);
            """
        )
    car_boxes = workspace_boxes(Workspace.of([load_source(str(database))]))
    code = "result = car_makers.merge(countries, on='CountryId')"
    verdict = judge(failed("KeyError", "'CountryId'", code), "Which country?", car_boxes, [])
    assert (
        "car_makers.merge(countries, left_on='Country', right_on='CountryId')" in verdict.feedback
    )


def test_arithmetic_on_numbers_stored_as_text_gets_to_numeric(tmp_path):
    database = tmp_path / "cars.sqlite"
    with sqlite3.connect(database) as connection:
        connection.executescript(
            """
            CREATE TABLE cars_data (Id INTEGER PRIMARY KEY, MPG TEXT, Model TEXT);
            INSERT INTO cars_data VALUES (1, '18', 'amc'), (2, 'null', 'bmw'), (3, '26.5', 'vw'),
                                         (4, '15', 'fiat'), (5, '31', 'saab');
            """
        )
    car_boxes = workspace_boxes(Workspace.of([load_source(str(database))]))
    code = "result = cars_data['MPG'].mean()"
    message = "Cannot perform reduction 'mean' with string dtype"
    verdict = judge(failed("TypeError", message, code), "Average MPG?", car_boxes, [])
    assert "pd.to_numeric(cars_data['MPG'], errors='coerce')" in verdict.feedback
    assert "'Model'" not in verdict.feedback


# --- bounds: adversarial data cannot make feedback long or slow (issue 25) ---


def test_huge_values_are_cut_and_the_whole_text_fits_max_chars(tmp_path):
    """Four 100 KB cells quoted as "some values" made a 400 KB MCP error."""
    database = tmp_path / "notes.sqlite"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE notes (note TEXT, body TEXT)")
        connection.executemany(
            "INSERT INTO notes VALUES (?, ?)", [(f"n{i}", "x" * 100_000 + str(i)) for i in range(8)]
        )
    boxes = workspace_boxes(Workspace.of([load_source(str(database))]))
    attempt = failed("KeyError", "'bodi'", "result = notes['bodi']")
    verdict = judge(attempt, "Which?", boxes, [], limits=FeedbackLimits(max_chars=20_000))
    assert "Did you mean notes['body']? Some values: 'xxxx" in verdict.feedback
    assert len(verdict.feedback) <= 2_000  # four values of at most VALUE_CHARS each
    tiny = judge(attempt, "Which?", boxes, [], limits=FeedbackLimits(max_chars=300))
    assert len(tiny.feedback) <= 300 and tiny.feedback.endswith("(feedback cut here)")


def test_many_long_field_names_are_listed_in_part(tmp_path):
    database = tmp_path / "wide.sqlite"
    names = [f"measurement_{i}_" + "q" * 300 for i in range(1_500)]
    with sqlite3.connect(database) as connection:
        connection.execute(f"CREATE TABLE wide ({', '.join(f'{n} REAL' for n in names)})")
    boxes = workspace_boxes(Workspace.of([load_source(str(database))]))
    verdict = judge(failed("NameError", "name 'Wide' is not defined"), "?", boxes, [])
    assert "Did you mean the BOX 'wide'? Its fields: ['measurement_0_qq" in verdict.feedback
    assert "and 1480 more]" in verdict.feedback
    assert len(verdict.feedback) <= FeedbackLimits().max_chars


def test_a_very_long_missing_name_is_cut_in_the_feedback(boxes):
    missing = "artist_name" + "z" * 50_000
    verdict = judge(failed("KeyError", repr(missing)), "Who?", boxes, [])
    assert len(verdict.feedback) <= 1_100  # the interpreter's message is cut at 1,000


def test_the_search_for_hints_stops_at_its_time_budget(tmp_path):
    """Fuzzy matching 20 literals against 20 text columns of many rows took
    seconds after a program that failed in milliseconds; with no time left
    the feedback keeps the interpreter's message and says the search stopped."""
    database = tmp_path / "big.sqlite"
    columns = [f"c{i}" for i in range(20)]
    with sqlite3.connect(database) as connection:
        connection.execute(f"CREATE TABLE big ({', '.join(f'{c} TEXT' for c in columns)})")
        connection.executemany(
            f"INSERT INTO big VALUES ({', '.join('?' for _ in columns)})",
            ([f"value {i} {row}" for i in range(20)] for row in range(30_000)),
        )
    boxes = workspace_boxes(Workspace.of([load_source(str(database))]))
    code = "result = big[" + " & ".join(f"(big['c{i}'] == 'valeu {i} 7')" for i in range(20)) + "]"
    stopped = judge(ran([], ["c0"], code), "?", boxes, [], limits=FeedbackLimits(seconds=0))
    assert stopped.feedback == (
        "The code ran but returned no rows.\n(The search for hints stopped after 0 s.)"
    )
    code = "result = big[big['c3'] == 'valeu 3 7']"
    found = judge(ran([], ["c0"], code), "?", boxes, [], limits=FeedbackLimits(seconds=600))
    assert "'valeu 3 7' is not a value in the data" in found.feedback
    assert "big['c3'] has 'value 3 7'" in found.feedback


# --- hints that point the right way (issue 26) ---


@pytest.fixture(scope="module")
def music():
    return Workspace.of([load_source(str(EXAMPLES / "music.sqlite"))])


def sql_failure(query: str, workspace: Workspace) -> Attempt:
    """The attempt of `query` as the real executor reports it."""
    error = execute(query, workspace, "sql").error
    assert error is not None
    return failed(error.type, error.message, query)


def test_did_you_mean_searches_only_the_tables_the_query_reads(music):
    attempt = sql_failure("SELECT nosuchcol FROM album", music)
    feedback = judge(attempt, "?", workspace_boxes(music), []).feedback
    assert "purchase" not in feedback
    assert "album has no field 'nosuchcol'; its fields: ['album_id', 'artist_id', 'title'" in (
        feedback
    )


def test_a_misspelt_column_is_matched_in_the_table_read_and_others_are_named_as_such(music):
    boxes = workspace_boxes(music)
    feedback = judge(sql_failure("SELECT titel FROM album", music), "?", boxes, []).feedback
    assert "Did you mean album['title']?" in feedback
    assert "track['title']" not in feedback
    elsewhere = judge(sql_failure("SELECT titel FROM artist", music), "?", boxes, []).feedback
    assert "artist has no field 'titel'; its fields: ['artist_id', 'name'" in elsewhere
    assert "Close fields of BOXes the code does not read: album['title'], track['title']" in (
        elsewhere
    )


def test_a_python_program_is_searched_in_the_boxes_it_uses(music):
    code = "result = album[album['genere'] == 'Jazz']"
    feedback = judge(failed("KeyError", "'genere'", code), "?", workspace_boxes(music), []).feedback
    assert "Did you mean album['genre']?" in feedback
    assert "come from all BOXes" not in feedback
    unnamed = judge(failed("KeyError", "'genere'"), "?", workspace_boxes(music), []).feedback
    assert "(The code reads no BOX by name: these fields come from all BOXes.)" in unnamed


def test_a_table_that_is_another_source_says_which_source_to_pass(music):
    cities = load_source(str(EXAMPLES / "cities.csv"))
    boxes = workspace_boxes(music)
    attempt = sql_failure("SELECT city FROM cities", music)
    feedback = judge(
        attempt, "?", boxes, [], sources=music.sources, other_sources=[cities]
    ).feedback
    assert "'cities' is its own source 'cities' (table), which this program does not run on" in (
        feedback
    )
    assert "query it alone with sources=['cities']" in feedback
    assert "Did you mean" not in feedback.split("\n")[1]
    code = "result = customer.merge(cities, on='country')"
    error = execute(code, music, "pandas").error
    python = judge(
        failed(error.type, error.message, code),
        "?",
        boxes,
        [],
        sources=music.sources,
        other_sources=[cities],
    ).feedback
    assert "pass sources=['music', 'cities']" in python


def test_sql_on_a_type_of_another_knowledge_graph_says_to_ask_it_alone(music):
    films = load_source(str(EXAMPLES / "films.ttl"))
    attempt = sql_failure("SELECT film FROM film", music)
    feedback = judge(
        attempt, "?", workspace_boxes(music), [], sources=music.sources, other_sources=[films]
    ).feedback
    assert "'film' is in the source 'films' (kg)" in feedback
    assert "a knowledge graph is queried on its own: ask with sources=['films']" in feedback


def test_sql_written_for_a_knowledge_graph_is_told_to_walk_the_graph():
    from plugins import Focus, get_registry

    films = Workspace.of([load_source(str(EXAMPLES / "films.ttl"))])
    focus = Focus(entities=("Vertigo",), hops=1)
    vocabulary = get_registry().representation("networkx").vocabulary(films, focus)
    code = "SELECT film FROM film\nWHERE directed_by = 'Alfred Hitchcock'"
    error = execute(code, films, "networkx", focus=focus).error
    assert error is not None and error.type == "SyntaxError"
    attempt = failed(error.type, error.message, code)
    feedback = judge(attempt, "?", vocabulary.boxes, vocabulary.names).feedback
    assert "This program is Python, not SQL: the graph is the NetworkX MultiDiGraph" in feedback
    assert "pandas operations on the BOXes" not in feedback
    boxes = workspace_boxes(films, focus)
    on_boxes = judge(attempt, "?", boxes, [], sources=films.sources).feedback
    assert "This program is Python, not SQL: the graph's types are the BOXes" in on_boxes


@pytest.fixture(scope="module")
def medal_table_boxes(tmp_path_factory):
    path = tmp_path_factory.mktemp("medals") / "medals.csv"
    path.write_text(
        "Rank,Nation,Gold,Silver\n1,China,10,4\n2,India (IND),3,9\n3,Japan,2,1\n,Totaal,15,14\n"
    )
    return workspace_boxes(Workspace.of([load_source(str(path))]))


def test_a_result_naming_the_closing_total_row_is_flagged(medal_table_boxes):
    question = "which country won the most silver medals?"
    verdict = judge(ran([["Totaal"]], ["Nation"]), question, medal_table_boxes, [])
    assert verdict.has_rows
    assert verdict.feedback.startswith(
        "The result holds 'Totaal', the label of the last row of medals"
    )
    assert "leave out the row where 'Nation' is 'Totaal'" in verdict.feedback
    nation = judge(ran([["India (IND)"]], ["Nation"]), question, medal_table_boxes, [])
    assert nation.feedback is None


def test_the_total_row_may_answer_a_question_that_names_it(medal_table_boxes):
    question = "how many silver medals are in the totaal row?"
    assert (
        judge(ran([["Totaal", 14]], ["Nation", "Silver"]), question, medal_table_boxes, []).feedback
        is None
    )
