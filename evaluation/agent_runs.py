"""Running the agent on benchmark questions: workspaces, answers as plain rows, and
the annotator the memory builder asks."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from evaluation.datasets.example import Example
from memory.building import Annotation, BuildSample
from plugins import Workspace, load_source

if TYPE_CHECKING:
    from agent import AgentContext, Answer


class WorkspaceCache:
    """The workspace of the last sources asked about (benchmarks ask many questions in a
    row over the same database, and loading one costs more than answering)."""

    def __init__(self) -> None:
        self.key: tuple[tuple[str, ...], str | None] | None = None
        self.workspace: Workspace | None = None

    def open(self, sources: Sequence[str], plugin: str | None) -> Workspace:
        """The workspace of `sources`, reusing the previous one when they are the same."""
        key = (tuple(sources), plugin)
        if key != self.key or self.workspace is None:
            self.workspace = Workspace.of(load_source(s, plugin=plugin) for s in sources)
            self.key = key
        return self.workspace


def example_plugin(example: Example) -> str | None:
    """The loader an example's sources need when their extension does not say."""
    plugin = example.metadata.get("plugin")
    return plugin if isinstance(plugin, str) else None


def build_sample(example: Example) -> BuildSample:
    """An example as the memory builder reads it."""
    return BuildSample(
        id=example.id,
        question=example.question,
        sources=example.sources,
        dataset=example.task,
        gold_sql=example.gold_sql,
        gold_answer=example.gold_answer,
        entities=example.entities,
        plugin=example_plugin(example),
    )


def ask_agent(
    question: str,
    workspace: Workspace,
    context: AgentContext,
    entities: Sequence[str] = (),
) -> Answer:
    """The agent's answer (one fresh context per question: contexts carry live objects)."""
    from agent import ask

    return ask(
        question,
        workspace,
        entities=entities,
        context=dataclasses.replace(context),
    )


class AgentAnnotator:
    """The memory builder's LLM: the agent, with the builder's guidance after the question."""

    def __init__(self, context: AgentContext) -> None:
        self.context = context
        self.workspaces = WorkspaceCache()

    def __call__(self, sample: BuildSample, guidance: str) -> Annotation:
        """Answer `sample` with the agent; its code, answer and cost."""
        workspace = self.workspaces.open(sample.sources, sample.plugin)
        answer = ask_agent(sample.question + guidance, workspace, self.context, sample.entities)
        return Annotation(
            code=answer.code,
            reasoning=answer.reasoning,
            representation=answer.representation or "pandas",
            answer=answer.answer,
            llm_calls=answer.llm_calls,
            tokens=answer.prompt_tokens + answer.completion_tokens,
            error=answer.error.message if answer.error else None,
        )
