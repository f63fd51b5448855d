"""The prompts: one template per representation, ordered for prompt caches.

A local model on a CPU pays for every prompt token but reuses the longest
opening shared with its previous prompt (DESIGN.md, "Prompts"). So every
prompt runs from the most to the least stable part: the instruction (the same
for every question in a representation), the schema (the same for every
question on these sources), the demonstrations (the same across attempts at
one question), the question, and last the feedback of earlier attempts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from plugins.networkx_kg import KG2CODE_GUIDANCE

if TYPE_CHECKING:
    from agent.state import ShownDemonstration
    from memory import Demonstration, ScoredDemonstration
    from plugins import Focus, Workspace

Message = dict[str, str]

REPLY_FORMAT = (
    'Reply with one JSON object: {"reasoning": "<one sentence: the steps>", '
    '"code": ["<first line of code>", "<second line>", ...]}, one string per line of code.'
)

PANDAS_INSTRUCTION = f"""\
You answer questions about data by writing pandas code.
The data is given below as BOXes: each BOX is a pandas DataFrame that already
exists as a variable of its name; `pd` and `np` are imported. Values are left
out of the schema: the dtypes say what each field holds.
Use only the BOXes and fields shown, with their exact names. Join BOXes on
their foreign keys. Compare text case-insensitively when the question's
wording may differ from the data. Assign the answer to `result` (a DataFrame,
a Series, a list or a single value); keep only the columns the question asks
for. Do not import anything, read files or print.
{REPLY_FORMAT}"""

SQL_INSTRUCTION = """\
You answer questions about a relational database by writing one read-only SQL
query in the {dialect} dialect. The schema below gives the tables, columns,
types and keys, without values. Use only the tables and columns shown, join on
the foreign keys, and select only the columns the question asks for.
"""

NETWORKX_INSTRUCTION = f"""\
You answer questions about a knowledge graph by writing Python code with NetworkX.
{KG2CODE_GUIDANCE}
{REPLY_FORMAT} The code defines `KGQA(question, graph)`."""

DIRECT_INSTRUCTION = """\
You answer questions about the data whose schema is given below. Give the
answer itself, without code.
Reply with one JSON object: {"reasoning": "<one sentence>", "answer": "<the answer>"}."""

SCHEMA_HEADINGS = {
    "pandas": "## BOXes",
    "sql": "## Database schema",
    "networkx": "## Knowledge graph (NetworkX code)",
}
CODE_FENCE_LANGUAGE = {"pandas": "python", "networkx": "python", "sql": "sql"}


def instruction(representation: str, dialect: str = "sqlite") -> str:
    """The system instruction of `representation` (pandas, sql or networkx)."""
    if representation == "sql":
        return SQL_INSTRUCTION.format(dialect=dialect) + REPLY_FORMAT
    if representation == "networkx":
        return NETWORKX_INSTRUCTION
    return PANDAS_INSTRUCTION


def code_messages(
    *,
    representation: str,
    schema_text: str,
    demonstrations: Sequence[ShownDemonstration],
    question: str,
    feedback: Sequence[str] = (),
    dialect: str = "sqlite",
) -> list[Message]:
    """The messages asking for the program that answers `question`:
    instruction, schema, demonstrations, question, then feedback."""
    parts = [f"{SCHEMA_HEADINGS.get(representation, '## Schema')}\n{schema_text.strip()}"]
    if demonstrations:
        shown = "\n\n".join(_demonstration(d) for d in demonstrations)
        parts.append(f"## Examples of questions answered with code\n{shown}")
    parts.append(f"## Question\n{question.strip()}")
    for number, text in enumerate(feedback, start=1):
        parts.append(f"## Attempt {number} failed\n{text.strip()}\nWrite corrected code.")
    return [
        {"role": "system", "content": instruction(representation, dialect)},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def direct_answer_messages(*, schema_text: str, question: str) -> list[Message]:
    """The messages of the no-code baseline: schema and question, answer asked directly."""
    return [
        {"role": "system", "content": DIRECT_INSTRUCTION},
        {"role": "user", "content": f"## Schema\n{schema_text.strip()}\n\n## Question\n{question}"},
    ]


def reasoning_messages(
    question: str,
    workspace: Workspace,
    representation: str,
    demonstrations: Sequence[Demonstration | ScoredDemonstration],
    focus: Focus | None = None,
) -> list[Message]:
    """The code-driven reasoning prompt for `question` over `workspace`, as
    role/content messages: what the MCP server's `pandora_reasoning` prompt
    returns to an assistant that brings its own LLM."""
    from agent.planning import dialect_of
    from agent.state import ShownDemonstration
    from plugins import get_registry

    schema_text = get_registry().representation(representation).render_schema(workspace, focus)
    shown = [ShownDemonstration.of(item) for item in demonstrations]
    return code_messages(
        representation=representation,
        schema_text=schema_text,
        demonstrations=shown,
        question=question,
        dialect=dialect_of(workspace) if representation == "sql" else "sqlite",
    )


def _demonstration(demonstration: ShownDemonstration) -> str:
    language = CODE_FENCE_LANGUAGE.get(demonstration.representation, "python")
    reasoning = " ".join(demonstration.reasoning.split())
    lines = [f"Question: {demonstration.question.strip()}"]
    if reasoning:
        lines.append(f"Reasoning: {reasoning}")
    lines.append(f"```{language}\n{_shown_code(demonstration)}\n```")
    return "\n".join(lines)


def _shown_code(demonstration: ShownDemonstration) -> str:
    """The demonstration's code as the prompt shows it. A pandas program's
    comment lines are left out: its reasoning line already says the steps, and
    comments translated from gold SQL (`# FROM singer AS T1`) were copied by
    small models as code lines. KG2Code keeps its comments: they are its
    reasoning and its soft answer."""
    code = demonstration.code.strip()
    if demonstration.representation != "pandas":
        return code
    return "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))
