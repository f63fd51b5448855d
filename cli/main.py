"""Entry point of the `pandora` console script.

Commands are imported only when they run: `pandora --help` must not pay for
pandas, chromadb or langgraph. A new command is one line in `COMMANDS`.
"""

from __future__ import annotations

import atexit
import gc
import importlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click
from click.exceptions import NoArgsIsHelpError

from cli.output import CommandLineError

COMMANDS: dict[str, tuple[str, str]] = {
    "inspect": ("cli.inspect:inspect_command", "Show the BOXes, DDL or KG schema the LLM sees."),
    "sql": ("cli.sql:sql_command", "Run one read-only SQL query."),
    "run": ("cli.run:run_command", "Run pandas code on the BOXes, in the sandbox."),
    "graph": ("cli.graph:graph_command", "Run NetworkX code on a KG subgraph, in the sandbox."),
    "memory": ("cli.memory:memory_group", "The memory of verified demonstrations."),
    "plugins": ("cli.plugins:plugins_command", "Installed plugins, and any that failed."),
    "doctor": ("cli.doctor:doctor_command", "The sandbox layers generated code gets here."),
    "translate": ("cli.translate:translate_command", "Translate SQL into commented pandas."),
    "eval": ("cli.evaluate:eval_command", "Measure accuracy on a benchmark; write a report."),
    "ask": ("cli.ask:ask_command", "Answer a question: an LLM writes code, the sandbox runs it."),
    "model": ("cli.model:model_group", "The local model: status, or keep it served warm."),
    "serve": ("cli.serve:serve_command", "Serve the sources to assistants and IDEs over MCP."),
}


ARGUMENTS_KEY = "pandora.arguments"

# At exit, the collector would walk every object of pandas, sqlglot... once more
# only to free memory the system takes back anyway: a fifth of `import pandas`.
# Frozen, they are skipped. Python never promised to finalize objects still
# alive at exit; atexit handlers (executor pools, the model server) all run.
atexit.register(gc.freeze)


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use, by name.

    It also reports usage errors (its own and its commands') the way every
    other error is reported: `CommandLineError`, which honours --json.
    """

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """Parse the group's arguments, remembering them to tell whether --json was asked."""
        try:
            context = super().make_context(info_name, args, parent, **extra)
        except NoArgsIsHelpError:
            raise
        except click.ClickException as error:
            raise CommandLineError(error, wants_json(args)) from None
        context.meta[ARGUMENTS_KEY] = list(args)
        return context

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command; its usage errors become `CommandLineError`."""
        try:
            return super().invoke(ctx)
        except (NoArgsIsHelpError, CommandLineError):
            raise
        except click.UsageError as error:
            raise CommandLineError(error, wants_json(ctx.meta[ARGUMENTS_KEY])) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, without importing any command."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import the module of `cmd_name` and return its click command."""
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[cmd_name][0].split(":")
        with garbage_collection_paused():
            module = importlib.import_module(module_name)
        return getattr(module, attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List commands with their one-line summaries, still importing nothing."""
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pandora-skr")
def main() -> None:
    """Ask questions of tables, databases and knowledge graphs with code an LLM writes."""


@contextmanager
def garbage_collection_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (it is turned back on after).

    Importing a command's libraries (pandas, sqlglot...) creates hundreds of
    thousands of objects that all stay alive; the collector would walk them
    again and again for nothing, which is several percent of start-up.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def wants_json(arguments: Sequence[str]) -> bool:
    """Whether the command line asks for JSON output (before any `--` separator)."""
    options = arguments[: arguments.index("--")] if "--" in arguments else arguments
    return "--json" in options
