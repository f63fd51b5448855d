"""The evaluation runner: every (configuration, question) answered by the agent,
scored, and appended to `results.jsonl` as soon as it is done.

A rerun with the same output folder skips the pairs already in the file, so
an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, JsonValue

from agent.answer import Answer, AnswerError, TraceEvent
from evaluation.agent_runs import WorkspaceCache, ask_agent, example_plugin
from evaluation.code_version import code_version
from evaluation.configurations import Configuration
from evaluation.datasets.example import Example
from evaluation.scoring import error_category, score_answer
from plugins.errors import PandoraError
from plugins.executor import execute

if TYPE_CHECKING:
    from agent import AgentContext

RESULTS_FILE = "results.jsonl"
KEPT_ROWS = 20
GOLD_TIMEOUT_SECONDS = 120.0
"""Gold queries are trusted and run once per question: a busy machine must not fail them."""


class AttemptStep(BaseModel):
    """One program the LLM wrote for a question, and the feedback it got
    (none when it was accepted or was the last one): how execution guidance
    went, for error analysis."""

    code: str = ""
    problem: str | None = None
    """Why the reply could not be read as code, if it could not."""
    feedback: str | None = None


def attempt_steps(trace: Sequence[TraceEvent]) -> list[AttemptStep]:
    """The attempts of one agent run, read from its trace."""
    steps: list[AttemptStep] = []
    for event in trace:
        if (event.node, event.event) == ("generate_code", "code"):
            steps.append(
                AttemptStep(
                    code=event.detail.get("code") or "", problem=event.detail.get("problem")
                )
            )
        elif (event.node, event.event) == ("reflect", "feedback") and steps:
            steps[-1].feedback = event.detail.get("feedback")
    return steps


class CandidateOutcome(BaseModel):
    """What one candidate of an answer gave, as results.jsonl keeps it: enough
    to tally the vote again offline (with or without some origins)."""

    origin: str
    representation: str
    result: list[list[JsonValue]] | None = None
    error: str | None = None


class ItemResult(BaseModel):
    """One question answered under one configuration: one line of results.jsonl."""

    configuration: str
    id: str
    task: str
    database: str
    variant: str | None = None
    question: str
    correct: bool
    score: float
    category: str | None = None
    """The error category of a wrong answer (see `evaluation.scoring`)."""
    representation: str = ""
    predicted: list[list[JsonValue]]
    gold: list[list[JsonValue]]
    code: str = ""
    error: str | None = None
    attempts: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    """Of `prompt_tokens`, those the server took from its prompt cache (0 in
    results recorded before they were kept, and from servers that do not say)."""
    completion_tokens: int = 0
    seconds: float = 0.0
    steps: list[AttemptStep] = Field(default_factory=list)
    soft: bool = False
    """The answer is soft: read from a comment or the data, no program computed it."""
    candidates: list[CandidateOutcome] = Field(default_factory=list)
    """Every candidate and what it gave (empty in results recorded before they were kept)."""
    code_version: str | None = None
    """The commit that answered (`evaluation.code_version`); None in results
    recorded before it was kept."""


def read_results(folder: Path) -> list[ItemResult]:
    """The results recorded so far in `folder` (none when it is new)."""
    path = folder / RESULTS_FILE
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [ItemResult.model_validate_json(line) for line in lines if line.strip()]


def gold_rows(example: Example, cache: WorkspaceCache) -> list[list[Any]]:
    """The gold answer as rows; a gold SQL query is executed (in the sandbox) for it."""
    if example.gold_answer is not None:
        return example.gold_answer
    workspace = cache.open(example.sources, example_plugin(example))
    run = execute(example.gold_sql or "", workspace, "sql", timeout_seconds=GOLD_TIMEOUT_SECONDS)
    if run.error is not None or run.result is None:
        message = run.error.message if run.error else "no result"
        raise PandoraError(f"{example.id}: the gold SQL failed: {message}")
    return run.result


def run_evaluation(
    examples: Sequence[Example],
    configurations: Sequence[Configuration],
    folder: Path,
    base_context: AgentContext,
    on_item: Callable[[ItemResult | None], None] | None = None,
    max_seconds: float | None = None,
) -> list[ItemResult]:
    """Answer every example under every configuration not already in `folder`'s
    results; returns all results, earlier ones included. With `max_seconds`, no
    example is started once that long has passed (one started is finished under
    every configuration, so they stay comparable); a rerun resumes from there."""
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    version = code_version()  # the code imported now, whatever is committed during the run
    folder.mkdir(parents=True, exist_ok=True)
    results = read_results(folder)
    done = {(result.configuration, result.id) for result in results}
    cache = WorkspaceCache()
    golds: dict[str, list[list[Any]]] = {}
    with open(folder / RESULTS_FILE, "a", encoding="utf-8") as output:
        for example in examples:
            unanswered = any((c.name, example.id) not in done for c in configurations)
            if unanswered and deadline is not None and time.monotonic() >= deadline:
                break
            for configuration in configurations:
                if (configuration.name, example.id) in done:
                    if on_item:
                        on_item(None)
                    continue
                if example.id not in golds:
                    golds[example.id] = gold_rows(example, cache)
                result = answer_one(
                    example, configuration, golds[example.id], cache, base_context, version
                )
                output.write(result.model_dump_json() + "\n")
                output.flush()
                results.append(result)
                if on_item:
                    on_item(result)
    return results


def configured_context(base: AgentContext, configuration: Configuration) -> AgentContext:
    """The agent context of a configuration, on top of the run's K and L."""
    return dataclasses.replace(
        base,
        representation=configuration.representation or base.representation,
        demonstrations=(
            configuration.demonstrations
            if configuration.demonstrations is not None
            else base.demonstrations
        ),
        max_attempts=configuration.max_attempts or base.max_attempts,
        retrieval=configuration.retrieval,  # type: ignore[arg-type]
        execution_guidance=configuration.execution_guidance,
        direct_answer=configuration.direct_answer,
        candidates=configuration.candidates or base.candidates,
        reply_format=configuration.reply_format or base.reply_format,  # type: ignore[arg-type]
        example_values=(
            configuration.example_values
            if configuration.example_values is not None
            else base.example_values
        ),
        joined_views=(
            configuration.joined_views
            if configuration.joined_views is not None
            else base.joined_views
        ),
        views_alone=configuration.views_alone or base.views_alone,
        readings=configuration.readings if configuration.readings is not None else base.readings,
        repair=configuration.repair,
        stop_when_sure=configuration.stop_when_sure,
        routes=configuration.routes or base.routes,
    )


def answer_one(
    example: Example,
    configuration: Configuration,
    gold: list[list[Any]],
    cache: WorkspaceCache,
    base_context: AgentContext,
    version: str,
) -> ItemResult:
    """Ask the agent one question under one configuration and score the answer;
    `version` is the code that answers (see `code_version`)."""
    workspace = cache.open(example.sources, example_plugin(example))
    started = time.monotonic()
    try:
        answer = ask_agent(
            example.question,
            workspace,
            configured_context(base_context, configuration),
            example.entities,
        )
    except Exception as error:  # one broken question must not end a run of hundreds
        answer = Answer(
            error=AnswerError(type=f"agent crashed: {type(error).__name__}", message=str(error))
        )
    seconds = time.monotonic() - started
    failed = answer.error is not None and not answer.answer
    score = score_answer(example, answer.answer, gold)
    category = (
        None if score.correct else error_category(example, answer.answer, gold, answer.code, failed)
    )
    return ItemResult(
        configuration=configuration.name,
        id=example.id,
        task=example.task,
        database=example.database,
        variant=example.variant,
        question=example.question,
        correct=score.correct,
        score=score.value,
        category=category,
        representation=answer.representation,
        predicted=answer.answer[:KEPT_ROWS],
        gold=gold[:KEPT_ROWS],
        code=answer.code,
        error=f"{answer.error.type}: {answer.error.message}" if answer.error else None,
        attempts=answer.attempts,
        llm_calls=answer.llm_calls,
        prompt_tokens=answer.prompt_tokens,
        cached_prompt_tokens=answer.cached_prompt_tokens,
        completion_tokens=answer.completion_tokens,
        seconds=round(seconds, 3),
        steps=attempt_steps(answer.trace),
        soft=answer.soft,
        candidates=[
            CandidateOutcome(
                origin=candidate.origin,
                representation=candidate.representation,
                result=None if candidate.result is None else candidate.result[:KEPT_ROWS],
                error=candidate.error.type if candidate.error else None,
            )
            for candidate in answer.candidates
        ],
        code_version=version,
    )
