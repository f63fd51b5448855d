"""docs/plugins.md is tested against the code: every hook documented, the example installable."""

from __future__ import annotations

import inspect
import os
import re
import types
from pathlib import Path

from agent.planning import prompt_schema
from agent.prompts import REPLY_FORMAT, code_instruction
from plugins import Workspace, get_registry, hookspecs, load_source
from plugins.representation_defaults import OPTIONAL_MEMBERS

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text()


def test_every_hookspec_has_a_section_in_the_guide():
    hooks = [
        name
        for name, value in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(value, "pandora_spec")
    ]
    assert hooks, "no hookspecs found"
    sections = re.findall(r"^## (\w+)$", GUIDE, flags=re.MULTILINE)
    assert sorted(sections) == sorted(hooks)


def test_the_guide_example_installs_and_loads_a_file(pandora, tmp_path):
    example = re.search(r"```python\n(.*?)```", GUIDE, flags=re.DOTALL).group(1)
    entry_points = re.search(r"```toml\n(.*?)```", GUIDE, flags=re.DOTALL).group(1)
    module_name = re.search(r'= "(\w+)"', entry_points).group(1)
    (tmp_path / f"{module_name}.py").write_text(example)
    info = tmp_path / f"{module_name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module_name}\nVersion: 0.1\n")
    # the line under the pyproject table header, in entry_points.txt syntax (no quotes)
    declaration = entry_points.splitlines()[1].replace('"', "")
    (info / "entry_points.txt").write_text(f"[pandora.plugins]\n{declaration}\n")
    table = tmp_path / "stations.fwf"
    table.write_text("name      height\nSummit    4,810\nValley    1,035\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    listing = pandora("plugins", "--json", env=env).json
    assert {"name": "fixed_width", "contributes": ["loader:fixed-width"]} in listing["plugins"]
    assert listing["broken"] == []
    run = pandora("inspect", str(table), "--values", "2", "--json", env=env)
    assert run.exit_code == 0, run.stderr
    box = run.json["boxes"][0]
    assert run.json["source"]["plugin"] == "fixed-width"
    assert box["fields"] == [{"name": "name", "dtype": "str"}, {"name": "height", "dtype": "int64"}]
    assert box["values"] == [["Summit", 4810], ["Valley", 1035]]


def test_every_optional_representation_member_has_a_section_in_the_guide():
    sections = re.findall(r"^### (\w+)$", GUIDE, flags=re.MULTILINE)
    assert sorted(sections) == sorted(OPTIONAL_MEMBERS)


def test_the_guide_representation_registers_and_shapes_the_prompt(monkeypatch, examples):
    example = re.findall(r"```python\n(.*?)```", GUIDE, flags=re.DOTALL)[1]
    module = types.ModuleType("pandora_field_list")
    exec(compile(example, "docs/plugins.md", "exec"), module.__dict__)
    registry = get_registry()
    monkeypatch.setattr(registry, "representations", dict(registry.representations))
    monkeypatch.setattr(registry, "contributions", dict(registry.contributions))
    registry.register_plugin(module, "field_list")
    try:
        workspace = Workspace.of([load_source(str(examples / "cities.csv"))])
        instruction = code_instruction("field-list", workspace)
        assert instruction.startswith("You answer questions by writing pandas code.")
        assert instruction.endswith(REPLY_FORMAT)
        schema = prompt_schema(workspace, "field-list", None, "Which city is biggest?", 8, 4)
        assert schema.shown_text.startswith("cities: City, Country, Population (2020)")
        representation = registry.representation("field-list")
        assert [box.name for box in representation.vocabulary(workspace).boxes] == ["cities"]
        assert representation.soft_answer("# answer: 1") is None
    finally:
        registry.manager.unregister(name="field_list")
