"""The configurations an evaluation compares: Pandora itself, its ablations (the
paper's), and the same model answering without the method (baselines)."""

from __future__ import annotations

from pydantic import BaseModel

from evaluation.datasets.example import Task

KG_TASKS = ("spider4sparql", "webqsp", "grailqa")


class Configuration(BaseModel):
    """How the agent is run for one column of the report."""

    name: str
    description: str
    representation: str | None = None
    demonstrations: int | None = None
    """K; None keeps the run's --k."""
    max_attempts: int | None = None
    """L; None keeps the run's --attempts."""
    retrieval: str = "cross"
    execution_guidance: bool = True
    direct_answer: bool = False
    candidates: int | None = None
    """Candidates per question; None keeps the model's default."""
    reply_format: str | None = None
    example_values: int | None = None
    joined_views: bool | None = None
    """Joined views in the schema; None keeps the model's default."""
    views_alone: bool = False
    """The joined views alone when they join every table (`AgentContext.views_alone`)."""
    readings: int | None = None
    """Readings of small data voting beside the programs; None keeps the model's default."""
    repair: bool = True
    stop_when_sure: bool = True
    """Whether a sure greedy program answers alone (`agent.voting.sure`)."""
    routes: tuple[str, ...] | None = None
    """Representations candidates are written in; None keeps the model's."""


CONFIGURATIONS: dict[str, Configuration] = {
    c.name: c
    for c in [
        Configuration(
            name="pandora", description="the product: the model's defaults (docs/evaluation.md)"
        ),
        Configuration(
            name="paper",
            description="the Pandora paper's method: pandas BOXes, JSON reply, one program, L=3",
            representation="pandas",
            max_attempts=3,
            candidates=1,
            reply_format="json",
            example_values=0,
            joined_views=False,
            readings=0,
            repair=False,
        ),
        Configuration(
            name="no-vote",
            description="one candidate (the first route's greedy program and its corrections)",
            candidates=1,
        ),
        Configuration(
            name="always-vote",
            description="candidates until two agree, even after a sure greedy program",
            stop_when_sure=False,
        ),
        Configuration(
            name="across-representations",
            description="candidates in SQL and in pandas, voted together",
            routes=("sql", "pandas"),
        ),
        Configuration(
            name="no-repair", description="no repair of unknown names before retry", repair=False
        ),
        Configuration(
            name="no-values", description="schema without example values", example_values=0
        ),
        Configuration(
            name="few-rows",
            description="3 example rows per table, small databases not shown whole",
            example_values=3,
        ),
        Configuration(
            name="readings",
            description="up to three readings of small data voting beside the programs",
            readings=3,
        ),
        Configuration(
            name="no-readings",
            description="no readings of small data: programs alone",
            readings=0,
        ),
        Configuration(
            name="sentence-replies",
            description="replies with a sentence of reasoning before the code",
            reply_format="fenced",
        ),
        Configuration(
            name="no-views",
            description="schema without joined views of foreign-key chains",
            joined_views=False,
        ),
        Configuration(
            name="views-alone",
            description="the joined views alone when they join every table, not their tables",
            views_alone=True,
        ),
        Configuration(
            name="no-guidance",
            description="no execution guidance: the first program is final",
            max_attempts=1,
            execution_guidance=False,
        ),
        Configuration(
            name="same-retrieval",
            description="demonstrations of the same kind only",
            retrieval="same",
        ),
        Configuration(
            name="random-retrieval", description="random demonstrations", retrieval="random"
        ),
        Configuration(
            name="three-demonstrations",
            description="the 3 nearest demonstrations from the memory (the local model's K before)",
            demonstrations=3,
        ),
        Configuration(
            name="no-retrieval",
            description="no demonstrations (zero-shot)",
            retrieval="none",
            demonstrations=0,
        ),
        Configuration(name="sql", description="SQL over the schema", representation="sql"),
        Configuration(name="pandas", description="pandas over BOXes", representation="pandas"),
        Configuration(
            name="networkx", description="NetworkX over the KG subgraph", representation="networkx"
        ),
        Configuration(
            name="text-to-sql",
            description=(
                "baseline: one SQL query over the schema only, the code alone in a fenced "
                "block; no demonstrations, retries, votes or repair"
            ),
            representation="sql",
            retrieval="none",
            demonstrations=0,
            max_attempts=1,
            execution_guidance=False,
            candidates=1,
            reply_format="code",
            example_values=0,
            joined_views=False,
            repair=False,
        ),
        Configuration(
            name="direct-answer",
            description="baseline: the model answers without code",
            retrieval="none",
            demonstrations=0,
            max_attempts=1,
            execution_guidance=False,
            direct_answer=True,
            candidates=1,
            joined_views=False,
        ),
    ]
}
ABLATIONS = (
    "no-vote",
    "always-vote",
    "across-representations",
    "no-repair",
    "no-values",
    "few-rows",
    "no-views",
    "no-readings",
    "sentence-replies",
    "no-retrieval",
    "three-demonstrations",
    "paper",
)
"""What each part of the product adds: voting (and its early stop), repair, example values,
joined views, the readings of small data, code-only replies, demonstrations, and the
paper's method as a whole. The paper's own grid
(`no-guidance`, `same-retrieval`, `random-retrieval`, the representations)
runs by name with --config."""
BASELINES = ("text-to-sql", "direct-answer")


def applicable(name: str, task: Task) -> bool:
    """Whether a configuration makes sense for a task (NetworkX needs a KG;
    SQL runs everywhere, on a KG over the question's BOXes as tables)."""
    representation = CONFIGURATIONS[name].representation
    if representation == "networkx":
        return task in KG_TASKS
    return True
