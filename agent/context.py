"""The run configuration of the agent (LangGraph's context): how many
demonstrations and attempts, which representation, the ablation switches, and
the live objects a run uses (workspace, chat model, event callback)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from agent.answer import TraceEvent
    from memory import DemonstrationStore
    from plugins import Workspace

DEFAULT_DEMONSTRATIONS = 10
LOCAL_MODEL_DEMONSTRATIONS = 3
RetrievalMode = Literal["cross", "same", "random", "none"]


@dataclass
class AgentContext:
    """How the agent runs; the defaults are the Pandora paper's (K=10, L=3).

    Ablations of the paper: `execution_guidance=False` stops after the first
    program whatever happened; `retrieval` chooses demonstrations across tasks
    (`cross`), from the question's own kind (`same`), at random, or not at all
    (`none`, zero-shot); `direct_answer=True` asks for the answer itself, with
    no code (a baseline).
    """

    demonstrations: int | None = None
    """K: demonstrations shown in the prompt; None: 10, or 3 for the local
    1.5B model (measured in docs/agent.md)."""
    max_attempts: int = 3
    """L: programs tried per question, the first one included."""
    representation: str | None = None
    """A registered representation (pandas, networkx, sql, or a plugin's);
    None lets the plan choose per source."""
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

    workspace: Workspace | None = field(default=None, repr=False, compare=False)
    """The opened sources; None opens the state's `sources` (cached per process)."""
    chat_model: BaseChatModel | None = field(default=None, repr=False, compare=False)
    """None: the configured LLM (`agent.llm.configured_chat_model`)."""
    on_event: Callable[[TraceEvent], None] | None = field(default=None, repr=False, compare=False)
    store: DemonstrationStore | None = field(default=None, repr=False, compare=False)
    """None: the memory the environment configures."""

    def __post_init__(self) -> None:
        from plugins import get_registry
        from plugins.errors import BadInputError

        if self.demonstrations is not None and self.demonstrations < 0:
            raise BadInputError(f"demonstrations (K) must be 0 or more, got {self.demonstrations}")
        if self.max_attempts < 1:
            raise BadInputError(f"max_attempts (L) must be at least 1, got {self.max_attempts}")
        if self.representation is not None:
            get_registry().representation(self.representation)  # BadInputError naming the known
        if self.retrieval not in ("cross", "same", "random", "none"):
            raise BadInputError(
                f"unknown retrieval mode {self.retrieval!r}; use cross, same, random or none"
            )

    def demonstration_count(self) -> int:
        """K for this run: as set, else the default of the model in use."""
        if self.demonstrations is not None:
            return self.demonstrations
        from agent.llm import LOCAL_MODEL_NAME

        if getattr(self.chat_model, "model_name", None) == LOCAL_MODEL_NAME:
            return LOCAL_MODEL_DEMONSTRATIONS
        return DEFAULT_DEMONSTRATIONS
