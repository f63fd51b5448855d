"""Prompt guidance for KG2Code: how to write `KGQA(question, graph)`."""

KG2CODE_GUIDANCE = """\
The knowledge graph around the question is given above as NetworkX code:
`graph` is an `nx.MultiDiGraph`; entities are nodes named by their label (with
a `types` list attribute when typed), literal values are nodes holding Python
values (int, float, bool, str, date, datetime), and every edge has a
`relation` attribute. Walk it with `graph.out_edges(node, data=True)` and
`graph.in_edges(node, data=True)`.

Write a function `KGQA(question, graph)` that returns the answer. Mix short
`#` comments that state each reasoning step with the code that performs it.
End the function with a comment line giving the answer you expect, e.g.
`# answer: Federico Fellini` or `# length: 2`: if the code cannot run, that
line is read as a soft answer.

Handle the question type explicitly:
- count ("how many"): collect the distinct matching nodes in a set and return
  `len(...)`.
- boolean ("is", "did", "does"): return True or False from a membership or
  comparison test, never a string.
- numeric comparison ("more than", "before 1960", "longer than"): compare the
  literal values as numbers or dates, not as strings.
- sorting / superlative ("the longest", "earliest", "top 3"): `sorted(...,
  key=...)` over (node, value) pairs, then take the first items; keep ties.
- set operations ("both", "either", "but not"): build one set per condition
  and combine them with `&`, `|` and `-`.
- string conditions ("starts with", "contains", "named"): test the node name
  with `str.startswith`, `in` or `str.lower()`, after `str(node)`.

Follow relations in the direction the edges are stored (head -> tail); a
question's inverse relation ("films directed by X") is an in-edge of X.
Return a list for several answers, a single value for one.
"""

NETWORKX_INSTRUCTION = (
    "You answer questions about a knowledge graph by writing Python code with NetworkX.\n"
    + KG2CODE_GUIDANCE
)
"""The system instruction of the code prompt (the agent adds its reply format)."""

KG2CODE_REQUIREMENT = "The code defines `KGQA(question, graph)`."
"""Said after the agent's reply format: what the code must define."""

KG2CODE_TEMPLATE = """\
{schema}
{guidance}
Question: {question}

def KGQA(question, graph):
"""
