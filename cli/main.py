"""Entry point of the `pandora` console script."""

import click

from cli.doctor import doctor_command
from cli.graph import graph_command
from cli.inspect import inspect_command
from cli.memory import memory_group
from cli.plugins import plugins_command
from cli.run import run_command
from cli.sql import sql_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pandora-skr")
def main() -> None:
    """Ask questions of tables, databases and knowledge graphs with code an LLM writes."""


main.add_command(inspect_command)
main.add_command(sql_command)
main.add_command(plugins_command)
main.add_command(run_command)
main.add_command(graph_command)
main.add_command(memory_group)
main.add_command(doctor_command)
