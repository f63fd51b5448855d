"""docs/plugins.md is tested against the code: every hook documented, the example installable."""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path

from plugins import hookspecs

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
