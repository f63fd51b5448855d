"""Run one program inside a child: check, execute, normalise.

Every failure of the program (rejected code, exception, violation) becomes
`ExecutionResult.error`; nothing the program does escapes as an exception.
"""

from __future__ import annotations

import inspect
import time
from contextlib import redirect_stdout
from types import TracebackType
from typing import Any

from plugins.executor.caps import identifier, one_line
from plugins.executor.charts import current_chart
from plugins.executor.code_check import FILENAME, CodeRejected, check_code
from plugins.executor.models import CodeError, ExecutionResult, Limits, RunRequest
from plugins.executor.results import json_cell, normalise, valid_text
from plugins.executor.sandbox_builtins import make_builtins
from plugins.executor.tripwire import Tripwire
from plugins.model import Focus
from plugins.workspace import Workspace

KGQA_FUNCTION = "KGQA"


class NoResult(Exception):
    """The program neither assigned `result` nor defined KGQA."""


class CappedText:
    """A text stream that keeps the first `cap` characters written to it."""

    def __init__(self, cap: int):
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False

    def write(self, text: str) -> int:
        """Keep what fits under the cap; remember that the rest was dropped."""
        text = str(text)
        room = self.cap - self.size
        if len(text) > room:
            self.truncated = True
            text = text[: max(room, 0)]
        if text:
            self.parts.append(text)
            self.size += len(text)
        return len(text)

    def flush(self) -> None:
        """Nothing to flush: text is kept in memory."""

    def getvalue(self) -> str:
        """Everything kept so far, as valid UTF-8."""
        return valid_text("".join(self.parts))


def run_program(
    code: str, namespace: dict[str, Any], limits: Limits, tripwire: Tripwire, max_rows: int
) -> ExecutionResult:
    """Run `code` on `namespace` (this process's own copy) and report what it produced."""
    started = time.perf_counter()
    stdout = CappedText(limits.max_stdout_chars)
    outcome = ExecutionResult()
    try:
        compiled = compile(check_code(code), FILENAME, "exec")
        scope = dict(namespace)
        scope["__builtins__"] = make_builtins()
        scope["__name__"] = "pandora_program"
        tripwire.arm(compiled)
        try:
            with redirect_stdout(stdout):
                exec(compiled, scope)
                table = normalise(_answer(scope), limits, max_rows)
                chart = current_chart(limits)
        finally:
            tripped = tripwire.disarm()
        if tripped:
            outcome.error = _error("SandboxViolation", tripped, None, limits)
        else:
            outcome.result, outcome.columns = table.rows, table.columns
            outcome.total_rows, outcome.truncated = table.total_rows, table.truncated
            outcome.chart = chart
    except CodeRejected as rejected:
        outcome.error = _error("CodeRejected", rejected, rejected.line, limits)
    except SyntaxError as syntax:
        outcome.error = _error("SyntaxError", syntax.msg, syntax.lineno, limits)
    except BaseException as failure:  # the program's failure is data, whatever it is
        outcome.error = _error(
            _type_name(failure), failure, _user_line(failure.__traceback__), limits
        )
    outcome.stdout = stdout.getvalue()
    outcome.truncated = outcome.truncated or stdout.truncated
    outcome.elapsed_ms = (time.perf_counter() - started) * 1000
    return outcome


def run_sql(workspace: Workspace, request: RunRequest, limits: Limits) -> ExecutionResult:
    """Run one read-only query (the sql plugin's `run_query`) and report its
    rows; over a KG, on the tables the template prepared for the request's focus."""
    from plugins.sql_schema import run_query  # only SQL children need the SQL plugin

    started = time.perf_counter()
    try:
        answer = run_query(
            workspace,
            request.code,
            timeout_seconds=request.timeout_seconds,
            max_rows=request.max_rows,
            focus=Focus(**request.focus.model_dump()) if request.focus else None,
        )
    except Exception as error:  # a refused or failing query is data
        return ExecutionResult(
            error=_error(_type_name(error), error, None, limits),
            elapsed_ms=(time.perf_counter() - started) * 1000,
        )
    table = normalise(
        [tuple(json_cell(value) for value in row) for row in answer.rows], limits, request.max_rows
    )
    return ExecutionResult(
        result=table.rows,
        columns=answer.columns,
        total_rows=None if answer.truncated else len(answer.rows),  # unknown past the cap
        truncated=answer.truncated or table.truncated,
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


def _answer(scope: dict[str, Any]) -> Any:
    """`result` if assigned, else KGQA called with namespace variables of its
    parameter names (`KGQA(question, graph)`)."""
    if "result" in scope:
        return scope["result"]
    function = scope.get(KGQA_FUNCTION)
    if not callable(function):
        # only the NetworkX representation offers `graph`; pandas code is told about `result` alone
        hint = " (or define KGQA(question, graph))" if "graph" in scope else ""
        raise NoResult(f"the code must assign `result`{hint}")
    names = list(inspect.signature(function).parameters)
    missing = [name for name in names if name not in scope]
    if missing:
        raise NoResult(f"KGQA's parameters {missing} are not variables of this representation")
    return function(*(scope[name] for name in names))


def _error(kind: str, message: object, line: int | None, limits: Limits) -> CodeError:
    text = one_line(_message_text(message), limits.max_message_chars) or kind
    return CodeError(type=identifier(kind, limits.max_type_chars), message=text, line=line)


def _message_text(message: object) -> str:
    """str(message), bounded even when `__str__` is the program's own (it may fail)."""
    try:
        return str(message)
    except BaseException:
        return ""


def _type_name(error: BaseException) -> str:
    try:
        return str(type(error).__name__)
    except BaseException:
        return "Error"


def _user_line(trace: TracebackType | None) -> int | None:
    """The line of the program's own code nearest to where it failed."""
    line = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == FILENAME:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line
