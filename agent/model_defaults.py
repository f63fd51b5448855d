"""The settings the agent uses for a model unless the run says otherwise.

A 1.5B local model and a large hosted one need different prompts: the local
model writes far better code in a fenced block than as grammar-constrained
JSON, is more often right in SQL than in pandas, and gains from voting over
several candidates (docs/evaluation.md, "Choosing the local model's
defaults"). Hosted models keep the Pandora paper's configuration, which
nothing here has measured against them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

ReplyFormat = Literal["json", "fenced", "code"]
REPLY_FORMATS: tuple[ReplyFormat, ...] = get_args(ReplyFormat)


@dataclass(frozen=True)
class ModelDefaults:
    """What a run uses for settings it leaves open (None in AgentContext)."""

    demonstrations: int
    """K: demonstrations shown in the prompt. 0 for the local model: on
    two Spider dev samples its SQL was as right or more without them, at a
    third of the time, since demonstrations differ per question and so are
    the one part of the prompt llama.cpp cannot keep cached
    (docs/evaluation.md, "Demonstrations off for the local model"). The
    memory still answers a question it has verified (the program cache)."""
    attempts: int
    """L: programs per candidate, the first one included."""
    reply_format: ReplyFormat
    """`json`: one JSON object (grammar-constrained where the server can);
    `fenced`: a sentence of reasoning, then the code in a fenced block;
    `code`: the code in a fenced block and nothing else. This one is for
    SQL; Python code (pandas, NetworkX) takes `python_reply_format`. The
    local model writes SQL alone: its "sentence" ran to 150 tokens, three
    quarters of a reply, and its programs were no better for it
    (docs/evaluation.md, "Code-only replies")."""
    python_reply_format: ReplyFormat
    """The reply format of Python code. The local model keeps its sentence
    there: nothing measured code alone in pandas, and a real-model test of
    two sources (pandas) failed with it."""
    candidates: int
    """Most candidate programs per question (each with its own attempts)."""
    routes: tuple[str, ...]
    """Representations to write candidates in, by prior (ties go to the first);
    those that cannot show the sources are skipped."""
    example_values: int
    """Most example rows per table (SQL: a small database is then shown
    whole, within a character budget) or values per field (pandas, at most
    3) the schema shows."""
    joined_views: bool
    """Whether the schema shows foreign-key chains pre-joined as views."""
    readings: int
    """How many times the model reads data small enough to show whole and
    answers directly, its readings voting beside the programs, which are
    always written too (`agent.nodes.read`); 0 never. Three for the local
    model: on two WikiTableQuestions samples the readings added a few
    questions over the programs alone and beat one direct call by more
    than ten points (docs/evaluation.md, "Readings on by default")."""


PAPER_DEFAULTS = ModelDefaults(
    demonstrations=10,
    attempts=3,
    reply_format="json",
    python_reply_format="json",
    candidates=1,
    routes=("pandas",),
    example_values=0,
    joined_views=False,
    readings=0,
)
"""The Pandora paper's method: K=10, pandas over BOXes, one program with
execution feedback."""

LOCAL_MODEL_DEFAULTS = ModelDefaults(
    demonstrations=0,
    attempts=2,
    reply_format="code",
    python_reply_format="fenced",
    candidates=4,
    routes=("sql",),
    example_values=20,
    joined_views=True,
    readings=3,
)
"""The bundled Qwen2.5-Coder-1.5B, chosen by measurement (docs/evaluation.md)."""


def defaults_for(model_name: str | None) -> ModelDefaults:
    """The defaults of the chat model named `model_name`."""
    from agent.llm import LOCAL_MODEL_NAME

    return LOCAL_MODEL_DEFAULTS if model_name == LOCAL_MODEL_NAME else PAPER_DEFAULTS
