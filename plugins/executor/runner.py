"""Run one program on a namespace, inside a worker: check, execute, normalise.

Every failure of the program (rejected code, exception, violation) becomes
`ExecutionResult.error`; nothing the program does escapes as an exception.
"""

from __future__ import annotations

import inspect
import time
from contextlib import redirect_stdout
from types import TracebackType
from typing import Any

from plugins.executor.code_check import FILENAME, CodeRejected, check_code
from plugins.executor.fresh import fresh_namespace
from plugins.executor.models import CodeError, ExecutionResult, Limits
from plugins.executor.results import normalise
from plugins.executor.sandbox_builtins import make_builtins
from plugins.executor.tripwire import Tripwire

MAX_MESSAGE_CHARS = 1000
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
        """Everything kept so far."""
        return "".join(self.parts)


def run_program(
    code: str, namespace: dict[str, Any], limits: Limits, tripwire: Tripwire
) -> ExecutionResult:
    """Run `code` on a fresh copy of `namespace` and report what it produced."""
    started = time.perf_counter()
    stdout = CappedText(limits.max_stdout_chars)
    rows, error, truncated = None, None, False
    try:
        compiled = compile(check_code(code), FILENAME, "exec")
        scope = fresh_namespace(namespace)
        scope["__builtins__"] = make_builtins()
        scope["__name__"] = "pandora_program"
        tripwire.arm()
        try:
            with redirect_stdout(stdout):
                exec(compiled, scope)
                normalised = normalise(_answer(scope), limits)
        finally:
            tripped = tripwire.disarm()
        if tripped:
            error = CodeError(type="SandboxViolation", message=tripped)
        else:
            rows, truncated = normalised.rows, normalised.truncated
    except CodeRejected as rejected:
        error = CodeError(type="CodeRejected", message=_one_line(rejected), line=rejected.line)
    except SyntaxError as syntax:
        error = CodeError(type="SyntaxError", message=_one_line(syntax), line=syntax.lineno)
    except BaseException as failure:  # the program's failure is data, whatever it is
        error = CodeError(
            type=type(failure).__name__,
            message=_one_line(failure),
            line=_user_line(failure.__traceback__),
        )
    return ExecutionResult(
        result=rows,
        error=error,
        stdout=stdout.getvalue(),
        elapsed_ms=(time.perf_counter() - started) * 1000,
        truncated=truncated or stdout.truncated,
    )


def _answer(scope: dict[str, Any]) -> Any:
    """`result` if assigned, else KGQA called with namespace variables of its
    parameter names (`KGQA(question, graph)`)."""
    if "result" in scope:
        return scope["result"]
    function = scope.get(KGQA_FUNCTION)
    if not callable(function):
        raise NoResult("the code must assign `result` (or define KGQA(question, graph))")
    names = list(inspect.signature(function).parameters)
    missing = [name for name in names if name not in scope]
    if missing:
        raise NoResult(f"KGQA's parameters {missing} are not variables of this representation")
    return function(*(scope[name] for name in names))


def _user_line(trace: TracebackType | None) -> int | None:
    """The line of the program's own code nearest to where it failed."""
    line = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == FILENAME:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


def _one_line(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        text = error.msg
    else:
        text = " ".join(str(error).split()) or type(error).__name__
    return text[:MAX_MESSAGE_CHARS]
