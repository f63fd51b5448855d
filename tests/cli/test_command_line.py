"""What every command shares: usage errors honour --json, one error prefix,
help text on every option, and output a terminal cannot be driven by."""

from __future__ import annotations

import importlib
import re

import click
import pytest

from cli.main import COMMANDS

ERROR_LINE = re.compile(r"pandora: [A-Za-z][A-Za-z0-9_]*: \S.*")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["run", "--json"], "Missing argument 'SRC [SRC...]'"),
        (["run", "examples/cities.csv", "--json"], "Missing option '--code'"),
        (["inspect", "examples/cities.csv", "--values", "-1", "--json"], "--values"),
        (["sql", "examples/cities.csv", "--timeout", "0", "--json"], "--timeout"),
        (["no-such-command", "--json"], "No such command 'no-such-command'"),
    ],
)
def test_usage_errors_give_one_json_object_one_line_and_exit_2(pandora, arguments, message):
    run = pandora(*arguments)
    assert run.exit_code == 2
    assert run.json["error"]["type"] == "UsageError"
    assert message in run.json["error"]["message"]
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith("pandora: UsageError: ") and message in run.stderr


def test_usage_errors_without_json_print_nothing_on_stdout(pandora):
    run = pandora("run", "examples/cities.csv")
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr == (
        "pandora: UsageError: Missing option '--code'. (see pandora run --help)\n"
    )


def test_help_still_works(pandora):
    run = pandora("run", "--help")
    assert run.exit_code == 0 and "--max-rows" in run.stdout and run.stderr == ""


@pytest.mark.parametrize(
    ("arguments", "stdin", "exit_code"),
    [
        (["inspect", "missing.csv"], None, 2),
        (["sql", "examples/music.sqlite", "DELETE FROM album"], None, 2),
        (["sql", "examples/music.sqlite", "SELECT nope FROM album"], None, 1),
        (["run", "examples/cities.csv", "--code", "-"], "result = missing", 1),
        (["graph", "examples/films.ttl", "--entities", "Nobody", "--code", "-"], "", 2),
        (["run", "examples/cities.csv"], None, 2),
    ],
)
def test_every_error_is_one_line_with_one_prefix(pandora, arguments, stdin, exit_code):
    run = pandora(*arguments, stdin=stdin)
    assert run.exit_code == exit_code
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and ERROR_LINE.fullmatch(lines[0]), run.stderr


def all_options() -> list[tuple[str, click.Option]]:
    """Every option of every command (and subcommand), named by its command path."""
    found = []

    def walk(path: str, command: click.Command) -> None:
        for parameter in command.params:
            if isinstance(parameter, click.Option):
                found.append((f"{path} {parameter.opts[-1]}", parameter))
        if isinstance(command, click.Group):
            for name, subcommand in command.commands.items():
                walk(f"{path} {name}", subcommand)

    for name, (target, _summary) in COMMANDS.items():
        module_name, attribute = target.split(":")
        walk(name, getattr(importlib.import_module(module_name), attribute))
    return found


def test_every_option_of_every_command_has_help_text():
    options = all_options()
    assert len(options) > 20
    missing = [path for path, option in options if not (option.help or "").strip()]
    assert missing == []


def test_output_cannot_drive_the_terminal_or_forge_a_line(pandora, tmp_path):
    source = tmp_path / "notes.csv"
    source.write_text("note\nplain\n")
    code = (
        'print("\\x1b[2J\\x1b]52;c;c2VjcmV0\\x07 cleared")\n'
        'bad = type("Bad\\npandora: Forged", (Exception,), {})\n'
        'raise bad("first\\npandora: BadInput: forged line\\r\\x1b[1A")\n'
    )
    run = pandora("run", str(source), "--code", "-", stdin=code)
    assert run.exit_code == 1
    assert "\x1b" not in run.stderr and "\r" not in run.stderr and "\x07" not in run.stderr
    assert "\\x1b[2J\\x1b]52;c;c2VjcmV0\\x07 cleared" in run.stderr
    error_lines = [line for line in run.stderr.splitlines() if line.startswith("pandora:")]
    assert len(error_lines) == 1 and "forged line" in error_lines[0]


def test_cells_with_control_characters_are_escaped_in_text_output(pandora, tmp_path):
    source = tmp_path / "notes.csv"
    source.write_text("note\nplain\n")
    code = 'result = ["\\x1b]52;c;c2VjcmV0\\x07", "tab\\there", "two\\nlines", "\\u202eevil"]'
    run = pandora("run", str(source), "--code", "-", stdin=code)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == [
        "result",
        "\\x1b]52;c;c2VjcmV0\\x07",
        "tab\\there",
        "two\\nlines",
        "\\u202eevil",
    ]
    exact = pandora("run", str(source), "--code", "-", "--json", stdin=code)
    assert exact.json["result"][0] == ["\x1b]52;c;c2VjcmV0\x07"]  # JSON keeps the data exact


def test_json_output_escapes_c1_controls_and_keeps_the_data(pandora, tmp_path):
    source = tmp_path / "notes.csv"
    source.write_text("note\nplain\n")
    code = 'result = "\x9b2J \x7f \u202eevil"'  # 8-bit CSI, DEL, right-to-left override
    run = pandora("run", str(source), "--code", "-", "--json", stdin=code)
    assert run.exit_code == 0, run.stderr
    assert not {"\x9b", "\x7f", "\u202e"} & set(run.stdout)
    assert run.json["result"] == [["\x9b2J \x7f \u202eevil"]]
