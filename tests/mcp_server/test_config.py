"""pandora.toml for the server, and `pandora serve`'s refusals of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_server.config import ServerSettings, config_path, read_config
from mcp_server.transports import check_http_binding
from plugins.errors import BadInputError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pandora.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_sources_resolve_against_the_files_folder_and_settings_are_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[sources]]\nlocation = "data/shop.sqlite"\nname = "shop"\n\n'
        '[[sources]]\nlocation = "sqlite:///elsewhere.db"\n\n'
        "[mcp]\nport = 9000\nmax_rows = 20\n\n[other_part_of_pandora]\nanything = 1\n",
    )
    config = read_config(path)
    assert config.sources[0].location == str(tmp_path / "data" / "shop.sqlite")
    assert config.sources[0].name == "shop"
    assert config.sources[1].location == "sqlite:///elsewhere.db"
    assert (config.settings.port, config.settings.max_rows) == (9000, 20)
    assert config.settings.host == "127.0.0.1"


def test_the_environment_token_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, '[mcp]\ntoken = "from-the-file-0123456789"\n')
    monkeypatch.setenv("PANDORA_MCP_TOKEN", "from-the-environment-0123")
    assert read_config(path).settings.token == "from-the-environment-0123"


def test_config_path_comes_from_the_option_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PANDORA_CONFIG", raising=False)
    assert config_path(None) is None
    monkeypatch.setenv("PANDORA_CONFIG", str(tmp_path / "env.toml"))
    assert config_path(None) == tmp_path / "env.toml"
    assert config_path(str(tmp_path / "option.toml")) == tmp_path / "option.toml"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[mcp]\nprot = 9000\n", "prot"),
        ("[mcp]\nport = 0\n", "port"),
        ('[mcp]\ntoken = "short"\n', "token"),
        ("[[sources]]\nname = 'x'\n", "location"),
        ("[mcp\n", "not valid TOML"),
    ],
)
def test_a_bad_file_names_its_problem(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(BadInputError, match=problem):
        read_config(write(tmp_path, text))


def test_serve_refuses_a_missing_source_with_exit_code_2(pandora, tmp_path: Path) -> None:
    run = pandora("serve", "--source", str(tmp_path / "missing.csv"))
    assert run.exit_code == 2
    assert "missing.csv" in run.stderr
    assert run.stdout == ""


def test_serve_refuses_a_missing_config_with_exit_code_2(pandora, tmp_path: Path) -> None:
    run = pandora("serve", "--config", str(tmp_path / "nowhere.toml"))
    assert run.exit_code == 2
    assert "nowhere.toml" in run.stderr


def test_listening_on_every_address_needs_the_names_clients_use() -> None:
    settings = ServerSettings(host="0.0.0.0", token="a-long-enough-token-0123")
    with pytest.raises(BadInputError, match="allowed_hosts"):
        check_http_binding(settings)
    check_http_binding(settings.model_copy(update={"allowed_hosts": ["pandora.lan:8765"]}))
