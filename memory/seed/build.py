"""Fill in the seed demonstrations by running them: `python -m memory.seed.build`.

The team writes each seed line with its question, reasoning, code, source
(a path relative to examples/) and focus; this script loads the source,
renders the schema, runs the code through the executor and writes back the
schema, fingerprint, kind and the answer the code returned. Answers are never
typed by hand. Seeds have origin `build` and are verified `approved`, so the
program cache does not serve them (it serves a build's `gold` programs
only). A seed whose code fails or returns nothing stops the build.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from memory.models import Demonstration
from memory.seed import SEED_DATASET, examples_dir, seed_files
from memory.verification import build_demonstration

# Fixed, so that rebuilding unchanged seeds changes nothing in the files.
SEED_CREATED_AT = datetime(2026, 11, 1, tzinfo=UTC)


def rebuild_seed_file(lines: list[str]) -> list[Demonstration]:
    """Run every seed of one file and return them with answers filled in."""
    rebuilt = []
    for number, line in enumerate(lines, start=1):
        draft = Demonstration.model_validate_json(line)
        demonstration, outcome = build_demonstration(
            question=draft.question,
            code=draft.code,
            locations=draft.sources,
            representation=draft.representation,
            origin="build",
            reasoning=draft.reasoning,
            focus=draft.focus,
            approved=True,
            dataset=SEED_DATASET,
            base_dir=examples_dir(),
        )
        if not outcome.passed:
            raise SystemExit(f"seed line {number} ({draft.question!r}): {outcome.problem}")
        demonstration.sources = draft.sources
        demonstration.created_at = SEED_CREATED_AT
        print(f"{demonstration.question} -> {demonstration.answer}", file=sys.stderr)
        rebuilt.append(demonstration)
    return rebuilt


def main() -> None:
    """Rebuild every seed file in place."""
    for path in seed_files():
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        demonstrations = rebuild_seed_file(lines)
        text = "".join(d.to_json_line() + "\n" for d in demonstrations)
        path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {len(demonstrations)} demonstrations", file=sys.stderr)


if __name__ == "__main__":
    main()
