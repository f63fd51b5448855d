"""`pandora translate`: a SQL query over a database as readable pandas over its BOXes."""

from __future__ import annotations

import sys

import click

from cli.output import EXIT_FAILED, json_option, print_error_line, print_json, reports_errors
from cli.sources import open_source, source_options
from plugins import Workspace
from plugins.pandas_box import workspace_boxes
from plugins.pandas_box.sql_to_pandas import UntranslatableSql, translate_sql


@click.command("translate")
@click.option("--source", "src", required=True, help="The database (path or URL) the SQL reads.")
@click.argument("query")
@source_options
@json_option
@reports_errors
def translate_command(
    src: str, query: str, plugin: str | None, source_name: str | None, kg: bool, as_json: bool
) -> None:
    """Translate one SQL QUERY into pandas over the BOXes of SRC (no LLM, nothing runs).

    The program is commented step by step; `pandora run SRC --code FILE`
    runs it. A construct the translator does not handle exits with code 1.
    """
    workspace = Workspace.of([open_source(src, plugin, source_name, kg)])
    try:
        translation = translate_sql(query, workspace_boxes(workspace))
    except UntranslatableSql as error:
        if as_json:
            print_json(
                {
                    "code": None,
                    "reasoning": None,
                    "error": {"type": "Untranslatable", "message": str(error)},
                    "construct": error.construct,
                }
            )
        print_error_line("Untranslatable", str(error))
        sys.exit(EXIT_FAILED)
    if as_json:
        print_json(translation)
    else:
        click.echo(translation.code.rstrip("\n"))
