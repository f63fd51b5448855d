"""What the pandas representation adds to the agent's prompts: instruction,
how demonstrations show, schema items, shared-value notes, its BOXes."""

from __future__ import annotations

from plugins import Workspace, get_registry, load_source

PANDAS = get_registry().representation("pandas")


def test_the_instruction_and_heading_name_boxes(examples):
    workspace = Workspace.of([load_source(str(examples / "cities.csv"))])
    assert PANDAS.schema_heading == "## BOXes"
    assert PANDAS.instruction(workspace).startswith("You answer questions about data by writing")
    assert "Assign the answer to `result`" in PANDAS.instruction(workspace)


def test_demonstrations_show_without_comment_lines():
    code = "# FROM singer AS T1\nframe = singer\n  # SELECT COUNT(*)\nresult = len(frame)"
    assert PANDAS.demonstration_code(code) == "frame = singer\nresult = len(frame)"


def test_schema_items_are_the_boxes_with_their_foreign_keys(examples):
    workspace = Workspace.of([load_source(str(examples / "music.sqlite"))])
    items = {item.name: item for item in PANDAS.schema_items(workspace)}
    assert set(items) == {box.name for box in PANDAS.boxes(workspace)}
    assert "artist" in items["album"].references
    assert "title" in items["album"].fields


def test_shared_values_are_noted_only_across_sources(examples, tmp_path):
    listing = tmp_path / "listing.csv"
    listing.write_text("artist,label\nLos Faroles,Sello Sur\nAino Virtanen,Fonal\n")
    music = load_source(str(examples / "music.sqlite"))
    assert PANDAS.schema_notes(Workspace.of([music]), None, None) == []
    both = Workspace.of([music, load_source(str(listing))])
    notes = PANDAS.schema_notes(both, None, None)
    assert any("artist['name'] and listing['artist']" in note for note in notes)
    assert PANDAS.schema_notes(both, None, ["album"]) == []
