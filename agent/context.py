"""The run configuration of the agent (LangGraph's context): how many
demonstrations and attempts, which representation, the ablation switches, and
the live objects a run uses (workspace, chat model, event callback)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic.json_schema import SkipJsonSchema

from agent.model_defaults import REPLY_FORMATS, ModelDefaults, ReplyFormat, defaults_for

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from agent.answer import TraceEvent
    from memory import DemonstrationStore
    from plugins import Workspace
else:
    # Pydantic resolves the annotations when LangGraph builds the run-settings
    # schema (`graph.get_context_jsonschema()`, LangGraph Studio's form); the
    # live objects are taken as they come and left out of that schema.
    BaseChatModel = TraceEvent = DemonstrationStore = Workspace = Any

RetrievalMode = Literal["cross", "same", "random", "none"]


@dataclass
class AgentContext:
    """How the agent runs. Settings left at None take the defaults of the
    model in use (`agent.model_defaults`): the Pandora paper's method (K=10,
    pandas, one program, L=3) for hosted models, the measured ones for the
    local model.

    Ablations of the paper: `execution_guidance=False` stops after the first
    program whatever happened; `retrieval` chooses demonstrations across tasks
    (`cross`), from the question's own kind (`same`), at random, or not at all
    (`none`, zero-shot); `direct_answer=True` asks for the answer itself, with
    no code (a baseline).
    """

    demonstrations: int | None = None
    """K: demonstrations shown in the prompt."""
    max_attempts: int | None = None
    """L: programs tried per candidate, the first one included."""
    representation: str | None = None
    """A registered representation (pandas, networkx, sql, or a plugin's):
    every candidate is written in it. None lets the plan choose the routes."""
    candidates: int | None = None
    """Most candidate programs per question; their results are grouped by
    value and the largest group answers (1: no voting)."""
    routes: tuple[str, ...] | None = None
    """Representations candidates are written in, by prior (ties go to the
    first); those that cannot show the sources are skipped."""
    reply_format: ReplyFormat | None = None
    """`json` (one JSON object) or `fenced` (reasoning, then a fenced block)."""
    example_values: int | None = None
    """Example values per field (rows per table in SQL) shown in the schema;
    0 shows structure only (for sensitive data)."""
    joined_views: bool | None = None
    """Show each foreign-key chain of a database pre-joined as one view (SQL)
    or BOX (pandas) beside its tables (`plugins.joined_views`)."""
    views_alone: bool = False
    """When the joined views join every table, show the views alone: the
    same fields but the keys, in half the prompt (the tables stay
    queryable). Measured on TempTabQA-C, not yet a default
    (docs/evaluation.md, "The joined view alone")."""
    readings: int | None = None
    """How many times the model reads data small enough to show whole and
    answers directly (the first greedy, the others sampled at
    `sample_temperature`); the readings vote beside the programs
    (`agent.voting`), and when `stop_votes` of them agree no program is
    written. 0 never reads; nothing is read when example values are
    off (`PANDORA_EXAMPLE_VALUES=0`)."""
    sample_temperature: float = 0.7
    """Temperature of candidates after each route's first (greedy) one."""
    stop_votes: int = 2
    """Stop writing candidates once this many agree on one result."""
    stop_when_sure: bool = True
    """Answer with the first greedy program alone when it is sure
    (`agent.voting.sure`: its first attempt ran to a clean result) and no
    reading outvotes it; False writes candidates until `stop_votes` agree."""
    repair: bool = True
    """Replace an unknown name in a failed program by the one nearest name of
    the schema, and rerun it with no LLM call, before asking the LLM again."""
    hops: int = 2
    """Hops of the KG subgraph around the question's entities."""
    retrieval: RetrievalMode = "cross"
    execution_guidance: bool = True
    direct_answer: bool = False
    program_cache: bool = True
    """Run a verified program of the same question and schema with no LLM call."""
    sql_row_threshold: int = 1_000_000
    """A database with more rows than this is answered in SQL by its own engine."""
    schema_linking_min_boxes: int = 8
    """Schemas with more BOXes/tables than this are cut to the relevant ones."""
    schema_linking_keep: int = 4
    """BOXes kept by similarity before the foreign-key closure adds their neighbours."""
    execution_timeout_seconds: float = 10.0

    workspace: SkipJsonSchema[Workspace | None] = field(default=None, repr=False, compare=False)
    """The opened sources; None opens the state's `sources` (cached per process)."""
    chat_model: SkipJsonSchema[BaseChatModel | None] = field(
        default=None, repr=False, compare=False
    )
    """None: the configured LLM (`agent.llm.configured_chat_model`)."""
    on_event: SkipJsonSchema[Callable[[TraceEvent], None] | None] = field(
        default=None, repr=False, compare=False
    )
    store: SkipJsonSchema[DemonstrationStore | None] = field(
        default=None, repr=False, compare=False
    )
    """None: the memory the environment configures."""

    def __post_init__(self) -> None:
        from plugins import get_registry
        from plugins.errors import BadInputError

        if self.demonstrations is not None and self.demonstrations < 0:
            raise BadInputError(f"demonstrations (K) must be 0 or more, got {self.demonstrations}")
        if self.max_attempts is not None and self.max_attempts < 1:
            raise BadInputError(f"max_attempts (L) must be at least 1, got {self.max_attempts}")
        if self.representation is not None:
            get_registry().representation(self.representation)  # BadInputError naming the known
        if self.retrieval not in ("cross", "same", "random", "none"):
            raise BadInputError(
                f"unknown retrieval mode {self.retrieval!r}; use cross, same, random or none"
            )
        if self.readings is not None and self.readings < 0:
            raise BadInputError(f"readings must be 0 or more, got {self.readings}")
        if self.candidates is not None and self.candidates < 1:
            raise BadInputError(f"candidates must be at least 1, got {self.candidates}")
        if self.reply_format is not None and self.reply_format not in REPLY_FORMATS:
            raise BadInputError(
                f"unknown reply format {self.reply_format!r}; use {', '.join(REPLY_FORMATS)}"
            )
        for route in self.routes or ():
            get_registry().representation(route)

    def model_defaults(self) -> ModelDefaults:
        """The defaults of the chat model in use: the run's, else the configured
        one, so a run started with no chat model (LangGraph Studio, a bare
        `graph.invoke`) has the defaults `ask` would use."""
        if self.chat_model is not None:
            return defaults_for(getattr(self.chat_model, "model_name", None))
        from agent.llm import configured_model_name

        return defaults_for(configured_model_name())

    def demonstration_count(self) -> int:
        """K for this run: as set, else the default of the model in use."""
        if self.direct_answer:
            return 0
        chosen = self.demonstrations
        return self.model_defaults().demonstrations if chosen is None else chosen

    def attempt_count(self) -> int:
        """L for this run: as set, else the default of the model in use."""
        chosen = self.max_attempts
        return self.model_defaults().attempts if chosen is None else chosen

    def candidate_count(self) -> int:
        """Most candidates for this run (one for a direct answer)."""
        if self.direct_answer:
            return 1
        return self.model_defaults().candidates if self.candidates is None else self.candidates

    def route_preference(self) -> tuple[str, ...]:
        """Representations to write candidates in, by prior."""
        if self.representation is not None:
            return (self.representation,)
        return self.routes or self.model_defaults().routes

    def reply_format_in_use(self, representation: str) -> ReplyFormat:
        """How the LLM is asked to reply with code in `representation`: as
        set, else the model's default for SQL or for Python code."""
        if self.reply_format is not None:
            return self.reply_format
        from plugins import get_registry

        defaults = self.model_defaults()
        language = get_registry().representation(representation).language
        return defaults.reply_format if language == "sql" else defaults.python_reply_format

    def example_value_count(self) -> int:
        """Example values per field shown in the schema: as set, else
        `PANDORA_EXAMPLE_VALUES` (0 keeps the data's values out of every
        prompt), else the default of the model in use."""
        if self.example_values is not None:
            return self.example_values
        text = os.environ.get("PANDORA_EXAMPLE_VALUES", "").strip()
        if text:
            from plugins.errors import BadInputError

            if not text.isdigit():
                raise BadInputError(f"PANDORA_EXAMPLE_VALUES={text!r} must be a whole number >= 0")
            return int(text)
        return self.model_defaults().example_values

    def joined_views_in_use(self) -> bool:
        """Whether the schema shows joined views: as set, else
        `PANDORA_JOINED_VIEWS` (`0` or `1`), else the default of the model in use."""
        if self.joined_views is not None:
            return self.joined_views
        text = os.environ.get("PANDORA_JOINED_VIEWS", "").strip()
        if text:
            from plugins.errors import BadInputError

            if text not in ("0", "1"):
                raise BadInputError(f"PANDORA_JOINED_VIEWS={text!r} must be 0 or 1")
            return text == "1"
        return self.model_defaults().joined_views

    def reading_count(self) -> int:
        """How many readings of the data this run asks for: as set, else the
        default of the model in use; none when the data's values are kept
        out of prompts or the run is the direct-answer baseline."""
        if self.direct_answer or self.example_value_count() == 0:
            return 0
        return self.model_defaults().readings if self.readings is None else self.readings
