"""BOX names are identifiers; a workspace keeps source names unique."""

from __future__ import annotations

import pytest

from plugins import BadInputError, Workspace, load_source
from plugins.names import make_identifier
from plugins.pandas_box import workspace_boxes


@pytest.mark.parametrize(
    ("text", "identifier"),
    [
        ("singer", "singer"),
        ("class", "class_"),
        ("match", "match_"),
        ("2019 sales", "t_2019_sales"),
        ("Größe & Gewicht", "Größe_Gewicht"),
        ("  --  ", "box"),
        ("order-items.v2", "order_items_v2"),
    ],
)
def test_make_identifier(text, identifier):
    assert make_identifier(text) == identifier
    assert make_identifier(text).isidentifier()


def test_workspace_refuses_two_sources_with_one_name(examples):
    cities = load_source(str(examples / "cities.csv"))
    with pytest.raises(BadInputError, match="already loaded"):
        Workspace.of([cities, load_source(str(examples / "cities.csv"))])


def test_loading_writes_nothing_next_to_the_source(tmp_path, examples):
    database = tmp_path / "music.sqlite"
    database.write_bytes((examples / "music.sqlite").read_bytes())
    table = tmp_path / "cities.csv"
    table.write_bytes((examples / "cities.csv").read_bytes())
    workspace = Workspace.of([load_source(str(database)), load_source(str(table))])
    workspace_boxes(workspace)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cities.csv", "music.sqlite"]


def test_a_workspace_keeps_the_data_of_its_most_recent_foci_only():
    from plugins import Focus, load_source
    from plugins.pandas_box import workspace_boxes
    from plugins.sql_schema.targets import workspace_sql_target
    from plugins.workspace import FOCI_KEPT
    from tests.conftest import EXAMPLES

    films = Workspace.of([load_source(str(EXAMPLES / "films.ttl"))])
    foci = [Focus(f"question {n}", ("Vertigo",), 1) for n in range(FOCI_KEPT + 2)]
    first_tables = workspace_sql_target(films, foci[0])
    first_boxes = workspace_boxes(films, foci[0])
    for focus in foci[1:FOCI_KEPT]:
        workspace_sql_target(films, focus)
    assert workspace_sql_target(films, foci[0]) is first_tables  # used again: now the newest
    for focus in foci[FOCI_KEPT:]:
        workspace_boxes(films, focus)
    assert workspace_sql_target(films, foci[0]) is first_tables
    assert workspace_boxes(films, foci[1]) is not first_boxes
    kept = {key[1] for key in films.cache if key[1] is not None}
    assert len(kept) == FOCI_KEPT and foci[1] in kept and foci[2] not in kept
