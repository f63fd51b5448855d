"""Spider4SPARQL (Kosten et al., 2023): Spider's questions over RDF knowledge graphs.

Get it from https://github.com/ckosten/Spider4SPARQL (Apache-2.0): the
materialised graphs (`kg/<name>_triples.ttl`) and the dev questions with
gold SPARQL. The gold answers are the SPARQL results, computed once and kept
in `dev_nl_sparql_with_results.json` (fields `idx`, `kg_name`, `question`,
`sparql`, `status`, `sparql_result`, `agrees_with_spider_sql`). Only
questions whose query ran (`status` ok) are read; `reliable_only` keeps those
whose result also equals the Spider SQL result and is not empty.
"""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.datasets.example import Example
from plugins.errors import BadInputError

RESULTS_FILE = "dev_nl_sparql_with_results.json"


def read_spider4sparql(directory: Path, reliable_only: bool = True) -> list[Example]:
    """The questions whose graph is present and whose gold query ran."""
    results_file = directory / RESULTS_FILE
    if not results_file.is_file():
        raise BadInputError(f"{results_file}: no such file (is {directory} Spider4SPARQL?)")
    try:
        items = json.loads(results_file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise BadInputError(f"{results_file}: not valid JSON ({error})") from None
    graphs = graph_files(directory / "kg")
    examples = []
    for item in items:
        graph = graphs.get(item["kg_name"].lower())
        if item.get("status") != "ok" or graph is None:
            continue
        rows = item.get("sparql_result") or []
        if reliable_only and (item.get("agrees_with_spider_sql") != "same_multiset" or not rows):
            continue
        examples.append(
            Example(
                id=f"dev-{item['idx']}",
                task="spider4sparql",
                question=item["question"],
                sources=[str(graph)],
                database=item["kg_name"],
                gold_query=item["sparql"],
                gold_answer=rows,
                metadata={"agreement": item.get("agrees_with_spider_sql")},
            )
        )
    return examples


def graph_files(folder: Path) -> dict[str, Path]:
    """Graph name (lower case) -> its Turtle file, named `<name>_triples.ttl` or
    `<name>.ttl` in any case (the published folder mixes both)."""
    if not folder.is_dir():
        return {}
    return {
        path.stem.lower().removesuffix("_triples"): path for path in sorted(folder.glob("*.ttl"))
    }
