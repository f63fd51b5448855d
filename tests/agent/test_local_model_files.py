"""Preparing the local model's file: missing and corrupt parts give one-line
errors and leave nothing behind; a verified file is not joined again. Uses
small stand-in chunk files (no model is loaded here)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from agent.local_model import files
from agent.local_model.files import LocalModelError, ensure_model_file, model_path, model_ready


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "models"
    monkeypatch.setenv("PANDORA_MODEL_DIR", str(folder))
    return folder


def stand_in_parts(folder: Path, contents: list[bytes]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, content in enumerate(contents, start=1):
        path = folder / f"part{number:02d}.bin"
        path.write_bytes(content)
        paths.append(path)
    return paths


def test_the_model_lives_in_pandora_home_unless_a_shared_folder_is_set(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("PANDORA_MODEL_DIR", raising=False)
    assert model_path().parent == memory_home / "models"


def test_a_missing_part_package_is_one_clear_line(model_dir, monkeypatch):
    monkeypatch.setattr(files, "PART_PACKAGE", "no_such_model_part{number}")
    with pytest.raises(LocalModelError) as raised:
        ensure_model_file()
    message = str(raised.value)
    assert "\n" not in message
    assert "no-such-model-part1 is not installed" in message and "pandora-skr[local]" in message
    assert not model_dir.exists() or not any(model_dir.glob("*.gguf*"))


def test_corrupt_parts_are_refused_and_leave_nothing_behind(model_dir, tmp_path, monkeypatch):
    parts = stand_in_parts(tmp_path / "parts", [b"not a", b" model"])
    monkeypatch.setattr(files, "part_paths", lambda: parts)
    with pytest.raises(LocalModelError, match="parts are corrupt"):
        ensure_model_file()
    assert sorted(p.name for p in model_dir.iterdir()) == [".join.lock"]
    assert not model_ready()


def test_parts_that_hash_right_are_joined_once_in_order(model_dir, tmp_path, monkeypatch):
    contents = [b"first-", b"second-", b"third"]
    parts = stand_in_parts(tmp_path / "parts", contents)
    monkeypatch.setattr(files, "part_paths", lambda: parts)
    monkeypatch.setattr(files, "MODEL_SHA256", hashlib.sha256(b"".join(contents)).hexdigest())
    seen: list[tuple[int, int]] = []
    path = ensure_model_file(lambda done, total: seen.append((done, total)))
    assert path.read_bytes() == b"first-second-third"
    assert seen[-1] == (18, 18)
    assert model_ready()
    parts[0].unlink()  # a second call must not read the parts again
    assert ensure_model_file() == path


def test_a_changed_model_file_is_no_longer_trusted(model_dir, tmp_path, monkeypatch):
    contents = [b"abc"]
    parts = stand_in_parts(tmp_path / "parts", contents)
    monkeypatch.setattr(files, "part_paths", lambda: parts)
    monkeypatch.setattr(files, "MODEL_SHA256", hashlib.sha256(b"abc").hexdigest())
    path = ensure_model_file()
    path.write_bytes(b"tampered")
    assert not model_ready()
    assert ensure_model_file().read_bytes() == b"abc"
