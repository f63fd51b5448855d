"""What the plan node decides: the representation, the KG focus and the
schema the prompt shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent.schema_linking import keep_blocks, link_schema
from memory.settings import MemorySettings
from plugins import Focus, Workspace, get_registry
from plugins.errors import BadInputError
from plugins.loaders.row_counts import database_rows
from plugins.model import SchemaItem, Vocabulary
from plugins.protocols import Representation

if TYPE_CHECKING:
    from agent.state import Plan
    from plugins import Box


def choose_routes(
    workspace: Workspace,
    requested: str | None,
    preference: Sequence[str],
    sql_row_threshold: int,
) -> list[tuple[str, str]]:
    """The representations candidates are written in for `workspace`, by
    prior, each with why it was chosen.

    The requested one alone (refused when the sources cannot be shown that
    way); sql alone when a database holds more rows than
    `sql_row_threshold`, so its own engine answers instead of loading BOXes;
    else those of `preference` that can show every source together (pandas,
    which shows them all, when none can).
    """
    registry = get_registry()
    kinds = {source.kind for source in workspace.sources}
    if requested is not None:
        representation = registry.representation(requested)
        if not kinds & set(representation.kinds):
            raise BadInputError(
                f"the {requested} representation shows {' or '.join(representation.kinds)} "
                f"sources; these are {', '.join(sorted(kinds))}"
            )
        return [(requested, "asked for")]
    if "kg" not in kinds:
        for source in workspace.sources:
            rows = database_rows(workspace, source)
            if rows > sql_row_threshold:
                return [("sql", f"{source.name} holds {rows} rows (> {sql_row_threshold})")]
    routes = [
        (name, "default")
        for name in preference
        if name in registry.representations
        and kinds <= set(registry.representation(name).kinds)
        and _can_show(name, workspace)
    ]
    return routes or [("pandas", "default")]


def _can_show(representation: str, workspace: Workspace) -> bool:
    """Whether `representation` can show this mix of sources (SQL runs on one
    database, or on flat tables only: not on a database and a CSV together)."""
    try:
        get_registry().representation(representation).schema_items(workspace)
    except BadInputError:
        return False
    return True


def kg_focus(
    workspace: Workspace, question: str, entities: Sequence[str], hops: int
) -> Focus | None:
    """The focus of a question on a workspace with a KG (None without one):
    the given entities, else those linked in the question."""
    if not any(source.kind == "kg" for source in workspace.sources):
        return None
    return Focus(question=question, entities=tuple(entities), hops=hops)


@dataclass(frozen=True)
class PromptSchema:
    """The schema of a question: the full structure-only text (the program
    cache's key), the text the prompt shows, and the BOXes schema linking kept."""

    full_text: str
    shown_text: str
    linked: list[str] | None


def prompt_schema(
    workspace: Workspace,
    representation: str,
    focus: Focus | None,
    question: str,
    linking_min_items: int,
    linking_keep: int,
    example_values: int = 0,
    joined_views: bool = True,
    views_alone: bool = False,
) -> PromptSchema:
    """Render the schema (with `example_values` values per field, or rows per
    table, in the shown text; the full text is structure only); without
    `joined_views`, cut the joined views (their items and blocks) out of the
    shown text (the full text, the program cache's key, keeps them); with
    `views_alone`, show only the joined views when they join every table
    (`views_joining_everything`); cut it to the relevant items when the
    representation lists more than `linking_min_items`; add the
    representation's notes (for pandas: the fields of different sources
    that share values)."""
    chosen = get_registry().representation(representation)
    full_text = chosen.render_schema(workspace, focus)
    items = chosen.schema_items(workspace, focus)
    linked = None
    shown_text = (
        chosen.render_schema(workspace, focus, example_values) if example_values else full_text
    )
    if not joined_views and any(item.joins for item in items):
        items = [item for item in items if not item.joins]
        shown_text = keep_blocks(shown_text, [item.name for item in items])
    elif joined_views and views_alone and views_joining_everything(items):
        items = views_joining_everything(items)
        shown_text = keep_blocks(shown_text, [item.name for item in items])
    if len(items) > linking_min_items:
        linked = link_schema(question, items, linking_keep, MemorySettings.from_env().embedding)
        shown_text = keep_blocks(shown_text, linked)
    notes = chosen.schema_notes(workspace, focus, linked)
    if notes:
        shown_text += "\n\n" + "\n".join(notes)
    return PromptSchema(full_text, shown_text, linked)


def views_joining_everything(items: Sequence[SchemaItem]) -> list[SchemaItem]:
    """The joined views among `items` when, together, they join every table
    among them and none leaves a row of its tables out, so that the views
    alone show all the data but its keys (a TempTabQA-C athlete: Medal,
    Format, Tournament, Athlete and their personal details, one view); else
    none. An artist with no track sold is in no view of purchases, so such
    a schema keeps its tables. The tables stay queryable either way."""
    views = [item for item in items if item.joins]
    joined = {table for view in views for table in view.joins}
    tables = {item.name for item in items if not item.joins}
    if not views or not tables <= joined:
        return []
    return views if all(view.loses_no_row() for view in views) else []


def shown_vocabulary(
    representation: Representation, workspace: Workspace, focus: Focus | None, joined_views: bool
) -> Vocabulary:
    """The representation's vocabulary (where feedback, repair and NotInData
    look names up), without the BOXes of joined views when the schema hides
    them: feedback then never names a view the LLM was not shown."""
    vocabulary = representation.vocabulary(workspace, focus)
    if joined_views:
        return vocabulary
    views = {item.name for item in representation.schema_items(workspace, focus) if item.joins}
    if not views:
        return vocabulary
    boxes = [box for box in vocabulary.boxes if box.name not in views]
    return Vocabulary(boxes=boxes, names=vocabulary.names)


def plan_boxes(plan: Plan, question: str, workspace: Workspace, joined_views: bool) -> list[Box]:
    """The BOXes (tables) of the plan's representation over `workspace`, as
    `shown_vocabulary` has them: what a reading or the direct-answer baseline
    reads, and where NotInData looks a name up."""
    representation = get_registry().representation(plan.representation)
    return shown_vocabulary(representation, workspace, plan.focus(question), joined_views).boxes
