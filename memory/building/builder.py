"""Building the memory from labelled data (Pandora's two stages).

Stage 1, SQL-labelled samples: the gold SQL is translated to pandas by the
translator (no LLM); when it cannot be, or its result differs, the LLM is
asked with the gold SQL in its prompt and corrects itself against the gold
answer for a few rounds. Stage 2, table and KG samples with gold answers:
the LLM answers using the demonstrations stage 1 stored (the annotator's
retrieval), and its program is kept only when its executed answer matches
the gold answer. Every kept demonstration is re-run here and stored
`verified: gold` with origin `build` (the program cache may serve it); one
over the memory's size caps (`memory.limits`) is not kept.

The LLM is reached through an `Annotator` the caller provides (the CLI wires
the agent in), so the memory does not depend on the agent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from memory.building.budget import Budget
from memory.building.journal import Journal
from memory.building.models import Annotation, BuildReport, BuildSample, JournalEntry
from memory.fingerprints import schema_fingerprint
from memory.limits import size_problem
from memory.models import Demonstration, FocusSpec
from memory.store import DemonstrationStore
from memory.verification import answers_match, structure_schema, to_focus, workspace_kind
from plugins import Workspace, load_source
from plugins.errors import PandoraError
from plugins.executor import execute
from plugins.pandas_box import workspace_boxes
from plugins.pandas_box.sql_to_pandas import UntranslatableSql, translate_sql

Annotator = Callable[[BuildSample, str], Annotation]
"""Asks the LLM to answer a sample with code; the text is extra guidance for the prompt
(the gold SQL and feedback in stage 1, empty in stage 2)."""
AnswerMatcher = Callable[[BuildSample, list[list[Any]], list[list[Any]]], bool]
"""Whether a program's rows answer a sample as its gold rows do (the task's metric)."""
SHOWN_ROWS = 5


def same_rows(sample: BuildSample, rows: list[list[Any]], gold: list[list[Any]]) -> bool:
    """The default matcher: the same rows in any order (`memory.verification.answers_match`)."""
    return answers_match(rows, gold)


@dataclass
class MemoryBuilder:
    """Turns labelled samples into gold demonstrations in `store`, within `budget`,
    recording each finished sample in `journal`."""

    store: DemonstrationStore
    budget: Budget
    journal: Journal
    annotator: Annotator | None = None
    matcher: AnswerMatcher = same_rows
    corrections: int = 2
    """Stage 1: extra LLM rounds after a wrong answer, each told the gold answer."""
    on_progress: Callable[[BuildReport], None] | None = None

    def build(self, samples: Sequence[BuildSample]) -> BuildReport:
        """Process every sample not in the journal, stopping when the budget runs out."""
        report = BuildReport(total=len(samples))
        for sample in samples:
            if self.journal.done(sample.id):
                report.skipped += 1
                if self.on_progress:
                    self.on_progress(report)
                continue
            report.stopped_by = self.budget.exhausted()
            if report.stopped_by:
                break
            entry = self._stage_one(sample) if sample.gold_sql else self._stage_two(sample)
            if entry is None:  # the budget ran out in the middle: not finished, not recorded
                report.stopped_by = self.budget.exhausted()
                break
            self.journal.record(entry)
            setattr(report, entry.outcome, getattr(report, entry.outcome) + 1)
            report.llm_calls, report.tokens = self.budget.llm_calls, self.budget.tokens
            report.seconds = self.budget.elapsed
            if self.on_progress:
                self.on_progress(report)
        report.seconds = self.budget.elapsed
        return report

    def _stage_one(self, sample: BuildSample) -> JournalEntry | None:
        workspace = open_sample(sample)
        gold_run = execute(sample.gold_sql or "", workspace, "sql")
        if gold_run.error is not None or gold_run.result is None:
            detail = gold_run.error.message if gold_run.error else "no result"
            return JournalEntry(
                id=sample.id, stage=1, outcome="failed", detail=f"gold SQL: {detail}"
            )
        gold = gold_run.result
        self._add_gold_sql(sample, workspace, gold)
        try:
            translation = translate_sql(sample.gold_sql or "", workspace_boxes(workspace))
        except UntranslatableSql as error:
            detail = f"untranslatable: {error.construct}"
        else:
            demonstration = self._demonstration(
                sample, workspace, translation.code, translation.reasoning, "pandas", gold
            )
            if demonstration is not None:
                self.store.add(demonstration)
                return JournalEntry(
                    id=sample.id, stage=1, outcome="translated", demonstration_id=demonstration.id
                )
            detail = "translation differs from SQLite"
        if self.annotator is None:
            return JournalEntry(id=sample.id, stage=1, outcome="untranslatable", detail=detail)
        return self._annotate(sample, workspace, gold, stage=1, detail=detail)

    def _add_gold_sql(
        self, sample: BuildSample, workspace: Workspace, gold: list[list[Any]]
    ) -> None:
        """The gold query itself as a demonstration of the SQL route (the
        translation below is the pandas route's)."""
        demonstration = self._demonstration(
            sample, workspace, sample.gold_sql or "", "", "sql", gold
        )
        if demonstration is not None:
            self.store.add(demonstration)

    def _stage_two(self, sample: BuildSample) -> JournalEntry | None:
        if self.annotator is None:
            raise PandoraError("samples without gold SQL need an LLM (stage 2)")
        return self._annotate(sample, open_sample(sample), sample.gold_answer or [], 2, "")

    def _annotate(
        self,
        sample: BuildSample,
        workspace: Workspace,
        gold: list[list[Any]],
        stage: int,
        detail: str,
    ) -> JournalEntry | None:
        """Ask the LLM (stage 1: shown the gold SQL, corrected against the gold answer)."""
        assert self.annotator is not None
        guidance = gold_sql_guidance(sample.gold_sql) if stage == 1 else ""
        rounds = 1 + (self.corrections if stage == 1 else 0)
        calls = tokens = 0
        for _ in range(rounds):
            if self.budget.exhausted():
                return None
            annotation = self.annotator(sample, guidance)
            self.budget.charge(annotation.llm_calls, annotation.tokens)
            calls, tokens = calls + annotation.llm_calls, tokens + annotation.tokens
            if annotation.error is None and self.matcher(sample, annotation.answer, gold):
                demonstration = self._demonstration(
                    sample,
                    workspace,
                    annotation.code,
                    annotation.reasoning,
                    annotation.representation,
                    gold,
                )
                if demonstration is not None:
                    self.store.add(demonstration)
                    return JournalEntry(
                        id=sample.id,
                        stage=stage,
                        outcome="annotated",
                        demonstration_id=demonstration.id,
                        llm_calls=calls,
                        tokens=tokens,
                        detail=detail,
                    )
            guidance += correction_feedback(annotation, gold)
        return JournalEntry(
            id=sample.id,
            stage=stage,
            outcome="rejected",
            llm_calls=calls,
            tokens=tokens,
            detail=detail or "the LLM's answer did not match the gold answer",
        )

    def _demonstration(
        self,
        sample: BuildSample,
        workspace: Workspace,
        code: str,
        reasoning: str,
        representation: str,
        gold: list[list[Any]],
    ) -> Demonstration | None:
        """The program run again in the sandbox: a gold demonstration if it reproduces
        the gold answer, else None."""
        focus_spec = FocusSpec(entities=sample.entities) if sample.entities else None
        focus = to_focus(focus_spec, sample.question)
        run = execute(code, workspace, representation, focus)
        if run.error is not None or run.result is None:
            return None
        if not self.matcher(sample, run.result, gold):
            return None
        if size_problem(sample.question, reasoning, code, run.result) is not None:
            return None
        schema = structure_schema(workspace, representation, focus)
        return Demonstration(
            question=sample.question,
            kind=workspace_kind(workspace),
            representation=representation,
            schema=schema,
            schema_fingerprint=schema_fingerprint(schema),
            reasoning=reasoning,
            code=code,
            answer=run.result,
            dataset=sample.dataset,
            verified="gold",
            origin="build",
            sources=sample.sources,
            focus=focus_spec,
        )


def open_sample(sample: BuildSample) -> Workspace:
    """The sources of a sample, opened read-only."""
    return Workspace.of(load_source(location, plugin=sample.plugin) for location in sample.sources)


def gold_sql_guidance(sql: str | None) -> str:
    """Stage 1's prompt addition: the gold SQL, to be carried over into the representation."""
    return (
        f"\n\nA correct SQL query for this question is:\n{sql}\n"
        "Write a program with the same logic and the same result."
    )


def correction_feedback(annotation: Annotation, gold: list[list[Any]]) -> str:
    """What the next round is told about a wrong attempt: its program, then
    its error or its answer next to the gold one."""
    program = (
        f"\nYour previous program:\n{annotation.code.strip()}" if annotation.code.strip() else ""
    )
    if annotation.error is not None:
        return f"{program}\nYour previous program failed: {annotation.error}"
    shown = json.dumps(annotation.answer[:SHOWN_ROWS], default=str)
    expected = json.dumps(gold[:SHOWN_ROWS], default=str)
    return (
        f"{program}\nYour previous program returned {shown} but the correct answer is "
        f"{expected}; fix its logic."
    )
