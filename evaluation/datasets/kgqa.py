"""WebQSP and GrailQA in the subgraph form used by retrieval-based KGQA work.

The original data come from Freebase (WebQSP: Yih et al., 2016,
https://www.microsoft.com/en-us/download/details.aspx?id=52763; GrailQA:
Gu et al., 2021, https://dki-lab.github.io/GrailQA/). Methods that reason
over a retrieved subgraph (GraftNet, NSM, KG2Code) publish them as JSON
lines, one question a line:

    {"id": ..., "question": ...,
     "entities": [topic entity ids or names],
     "answers": [{"kb_id": ..., "text": ...} or plain strings],
     "subgraph": {"tuples": [[head, relation, tail], ...]}}

`triples` may replace `subgraph.tuples`. An optional `entity_names` map
(id -> name) names Freebase ids; answers are compared by name. Each
question's subgraph is written once as a triples TSV under `cache`, read
with the `triples` loader.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.datasets.example import Example, Task
from evaluation.datasets.wikisql import read_jsonl

TRIPLES_LOADER = "triples"


def read_kgqa(path: Path, task: Task, cache: Path) -> list[Example]:
    """The questions of a WebQSP/GrailQA-style JSON-lines file."""
    cache.mkdir(parents=True, exist_ok=True)
    examples = []
    for position, item in enumerate(read_jsonl(path)):
        names: dict[str, str] = item.get("entity_names") or {}
        question_id = str(item.get("id", position))
        triples = item.get("triples") or (item.get("subgraph") or {}).get("tuples") or []
        graph = write_triples(
            [[_name(part, names) for part in triple] for triple in triples],
            cache / f"{_file_name(question_id)}.tsv",
        )
        examples.append(
            Example(
                id=question_id,
                task=task,
                question=item["question"],
                sources=[str(graph)],
                database=question_id,
                gold_answer=[[_answer_text(answer, names)] for answer in item.get("answers", [])],
                entities=[_name(entity, names) for entity in item.get("entities", [])],
                metadata={"plugin": TRIPLES_LOADER},
            )
        )
    return examples


def write_triples(triples: list[list[str]], path: Path) -> Path:
    """The triples as a three-column TSV file (written once; whitespace inside a name,
    tabs included, becomes one space)."""
    if not path.exists():
        temporary = path.with_suffix(".partial")
        lines = ["subject\tpredicate\tobject"]
        lines.extend("\t".join(" ".join(part.split()) for part in triple) for triple in triples)
        temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
        temporary.replace(path)
    return path


def _name(value: Any, names: dict[str, str]) -> str:
    if isinstance(value, dict):
        value = value.get("text") or value.get("kb_id") or ""
    return names.get(str(value), str(value))


def _answer_text(answer: Any, names: dict[str, str]) -> str:
    if isinstance(answer, dict):
        return answer.get("text") or names.get(answer.get("kb_id", ""), answer.get("kb_id", ""))
    return _name(answer, names)


def _file_name(question_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in question_id)
