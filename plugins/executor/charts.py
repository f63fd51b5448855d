"""Charts: a program may draw with matplotlib (through pyplot, pandas' `plot`
or networkx's `draw`), on the Agg backend only; the executor returns the
current figure as PNG bytes on the result channel, within the caps.

The template imports matplotlib, draws once (so that a child finds its code
paths warm) and closes the doors matplotlib opens: switching the backend
(a backend is a module imported by name), writing a figure to a file
(`savefig`: the executor returns the figure itself), reading images, style
or rc files, and loading a font from a path. The kernel refuses writes
anyway; these give the program a precise error.
"""

from __future__ import annotations

import base64
import functools
import gc
import io
import re
import sys
from collections.abc import Callable
from typing import Any

from plugins.executor.errors import SandboxViolation
from plugins.executor.models import Limits

BACKEND = "agg"
"""The one backend programs draw on: it renders to memory, never to a screen or file."""

BACKEND_NAMES = frozenset({"agg", "module://matplotlib.backends.backend_agg"})

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


DRAWING_WORDS = re.compile(r"plot|hist|draw")
"""A program that draws names one of these (`plot`, `matplotlib`, `hist`,
`boxplot`, `nx.draw`): the caller then asks for a child with matplotlib."""


def may_draw(code: str) -> bool:
    """True when `code` may draw a chart (a false alarm only costs preparing matplotlib)."""
    return DRAWING_WORDS.search(code) is not None


def drawing_prepared() -> bool:
    """True once this process imported matplotlib through `prepare_charts`."""
    return _render_png is not None


class ChartTooLarge(Exception):
    """The current figure has more pixels, or a larger PNG, than the caps allow."""


_render_png: Callable[..., Any] | None = None
"""matplotlib's own `Figure.savefig`, kept for the executor before it is closed to programs."""


def prepare_charts() -> list[str]:
    """In the template: import matplotlib on the Agg backend, draw once,
    close its doors; return their names. A host without matplotlib draws nothing."""
    global _render_png
    try:
        import matplotlib

        matplotlib.use(BACKEND, force=True)
        import matplotlib.pyplot as pyplot
        import pandas.plotting._matplotlib  # noqa: F401 - pandas' plot, imported once here
        from matplotlib.figure import Figure
    except ImportError:
        return []
    pyplot.switch_backend(BACKEND)
    _render_png = Figure.savefig
    _warm_up(pyplot)
    return _close_doors(matplotlib, pyplot, Figure)


def current_chart(limits: Limits) -> str | None:
    """The figure the program drew last, as a base64 PNG; None when it drew none."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None or _render_png is None or not pyplot.get_fignums():
        return None
    figure = pyplot.gcf()
    width, height = (float(side) for side in figure.get_size_inches() * figure.dpi)
    if width * height > limits.max_chart_pixels:
        raise ChartTooLarge(
            f"the figure is {width:.0f} x {height:.0f} pixels, more than "
            f"{limits.max_chart_pixels:,} in all: use a smaller figsize or dpi"
        )
    buffer = io.BytesIO()
    _render_png(figure, buffer, format="png")
    png = buffer.getvalue()
    if len(png) > limits.max_chart_bytes:
        raise ChartTooLarge(
            f"the figure's PNG is {len(png):,} bytes, more than {limits.max_chart_bytes:,}"
        )
    return base64.b64encode(png).decode("ascii")


def checked_chart(value: Any, limits: Limits) -> str | None:
    """A chart as a child sent it, checked by the caller: base64 of a PNG
    within the byte cap; None when absent. Raises ValueError otherwise."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 4 * (limits.max_chart_bytes // 3 + 1):
        raise ValueError("the chart is not a string within the cap")
    png = base64.b64decode(value.encode("ascii"), validate=True)
    if len(png) > limits.max_chart_bytes or not png.startswith(PNG_SIGNATURE):
        raise ValueError("the chart is not a PNG within the cap")
    return value


def _warm_up(pyplot: Any) -> None:
    """Draw and render one small chart (with mathtext, whose parser takes
    seconds to build), then let go of the fonts it opened: a child must not
    inherit font files whose descriptors it closes."""
    from matplotlib import font_manager

    figure = pyplot.figure()
    pyplot.bar(["a", "b"], [1, 2], label="$x^2$")
    pyplot.legend()
    pyplot.title(r"warm-up $\sqrt{x}$")
    _render_png(figure, io.BytesIO(), format="png")
    pyplot.close("all")
    _let_go_of_fonts(font_manager)


def _let_go_of_fonts(font_manager: Any) -> None:
    """Empty the caches that keep font files open (the mathtext parser itself stays)."""
    from matplotlib import _mathtext
    from matplotlib.mathtext import MathTextParser

    font_manager._get_font.cache_clear()
    MathTextParser._parse_cached.cache_clear()
    for value in vars(_mathtext).values():
        alternatives = getattr(value, "get_sized_alternatives_for_symbol", None)
        if hasattr(alternatives, "cache_clear"):
            alternatives.cache_clear()
    gc.collect()


def _close_doors(matplotlib: Any, pyplot: Any, figure_class: type) -> list[str]:
    from matplotlib.backends.registry import BackendRegistry
    from matplotlib.font_manager import FontProperties

    matplotlib.use = _backend_checked(matplotlib.use, "matplotlib.use")
    pyplot.switch_backend = _backend_checked(pyplot.switch_backend, "pyplot.switch_backend")
    BackendRegistry.load_backend_module = _backend_checked(
        BackendRegistry.load_backend_module, "load_backend_module", method=True
    )
    closed = ["matplotlib.use(agg only)", "pyplot.switch_backend(agg only)"]
    closed.append("BackendRegistry.load_backend_module(agg only)")
    for owner, name, label in (
        (figure_class, "savefig", "Figure.savefig"),
        (pyplot, "savefig", "pyplot.savefig"),
        (pyplot, "imread", "pyplot.imread"),
        (pyplot, "imsave", "pyplot.imsave"),
        (matplotlib, "rc_file", "matplotlib.rc_file"),
        (matplotlib, "rc_params_from_file", "matplotlib.rc_params_from_file"),
    ):
        setattr(owner, name, _refuser(label))
        closed.append(label)
    for owner in (matplotlib, pyplot):
        owner.rc_context = _without_file(owner.rc_context)
    closed.append("rc_context(fname)")
    FontProperties.set_file = _without_font_file(FontProperties.set_file)
    closed.append("FontProperties.set_file(path)")
    return closed


def _agg_only(backend: Any, label: str) -> None:
    if not isinstance(backend, str) or backend.lower() not in BACKEND_NAMES:
        raise SandboxViolation(f"{label}: the backend {backend!r} is closed: charts draw on Agg")


def _backend_checked(
    switch: Callable[..., Any], label: str, method: bool = False
) -> Callable[..., Any]:
    """`switch` (a function, or a method when `method`) refusing any backend but Agg."""

    @functools.wraps(switch)
    def checked(*args: Any, **kwargs: Any) -> Any:
        backend = args[1] if method else (args[0] if args else kwargs.get("backend"))
        _agg_only(backend, label)
        return switch(*args, **kwargs)

    return checked


def _refuser(label: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise SandboxViolation(
            f"{label} is closed in the executor: it returns the current figure "
            "itself, and programs read and write no files"
        )

    return refuse


def _without_file(rc_context: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(rc_context)
    def checked(rc: Any = None, fname: Any = None) -> Any:
        if fname is not None:
            raise SandboxViolation("rc_context may not read a file (fname)")
        return rc_context(rc)

    return checked


def _without_font_file(set_file: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(set_file)
    def checked(self: Any, file: Any) -> Any:
        if file is not None:
            raise SandboxViolation("fonts may not be loaded from a path in the executor")
        return set_file(self, file)

    return checked
