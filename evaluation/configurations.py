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


CONFIGURATIONS: dict[str, Configuration] = {
    c.name: c
    for c in [
        Configuration(name="pandora", description="the full method"),
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
            description="baseline: one SQL query, no demonstrations, no retries",
            representation="sql",
            retrieval="none",
            demonstrations=0,
            max_attempts=1,
            execution_guidance=False,
        ),
        Configuration(
            name="direct-answer",
            description="baseline: the model answers without code",
            retrieval="none",
            demonstrations=0,
            max_attempts=1,
            execution_guidance=False,
            direct_answer=True,
        ),
    ]
}
ABLATIONS = (
    "no-guidance",
    "same-retrieval",
    "random-retrieval",
    "no-retrieval",
    "sql",
    "networkx",
    "direct-answer",
)
"""The paper's grid. The pandas representation is `pandora` itself (its
default wherever a database is small enough for BOXes; each result records
the representation used), so the grid does not run it twice; `--config
pandas` forces it."""
BASELINES = ("text-to-sql", "direct-answer")


def applicable(name: str, task: Task) -> bool:
    """Whether a configuration makes sense for a task (SQL needs tables, NetworkX a KG)."""
    representation = CONFIGURATIONS[name].representation
    if representation == "sql":
        return task not in KG_TASKS
    if representation == "networkx":
        return task in KG_TASKS
    return True
