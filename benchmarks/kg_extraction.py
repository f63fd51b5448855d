"""Knowledge-graph loading, 2-hop extraction and KG-to-BOX against rdflib SPARQL.

Generates a KG of at least 1,000,000 triples with power-law degrees
(entities drawn with Zipf-like weights), then measures, in one run:

- load time and peak memory of each store, each in a fresh process:
  Pandora's integer-encoded store (pyoxigraph parser), rdflib's default
  in-memory store, and rdflib on oxrdflib's Oxigraph store;
- for a hub entity (highest degree) and a median-degree entity: Pandora's
  2-hop extraction and KG-to-BOX time, next to the same subgraph fetched by
  rdflib SPARQL queries (the same hop-by-hop algorithm, every step a SPARQL
  query to the rdflib graph; the triples are checked to be identical), and
  by the same queries on rdflib over oxrdflib's Oxigraph store;

and prints ratios. Targets: extraction + BOX at least 5x faster than the
SPARQL baseline on the hub, and under 1 s for the median entity.

    python benchmarks/kg_extraction.py [--entities 120000] [--edges 800000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import rdflib
from pyoxigraph import NamedNode

from plugins.knowledge_graph.memory_store import InMemoryKnowledgeGraph
from plugins.knowledge_graph.rdf_files import from_rdflib_term, read_rdf_file
from plugins.knowledge_graph.sparql_store import SparqlKnowledgeGraph
from plugins.knowledge_graph.subgraph import extract_subgraph
from plugins.pandas_box.kg_to_box import subgraph_to_boxes

ENTITY = "http://example.org/entity/"
RELATION = "http://example.org/relation/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
TYPES = 12
RELATIONS = 40


def generate(path: Path, entities: int, edges: int, seed: int = 7) -> int:
    """Write an N-Triples KG: per entity a label, a type and an integer
    attribute, plus `edges` relation edges between Zipf-weighted entities."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, entities + 1) ** 1.05
    weights /= weights.sum()
    shuffle = rng.permutation(entities)
    subjects = shuffle[rng.choice(entities, edges, p=weights)]
    objects = shuffle[rng.choice(entities, edges, p=weights)]
    relations = rng.integers(0, RELATIONS, edges)
    lines = []
    for r in range(RELATIONS):
        lines.append(f'<{RELATION}r{r}> <{LABEL}> "relation {r}"@en .\n')
    for t in range(TYPES):
        lines.append(f'<{ENTITY}Type{t}> <{LABEL}> "type {t}"@en .\n')
    for e in range(entities):
        lines.append(f'<{ENTITY}e{e}> <{LABEL}> "entity {e}"@en .\n')
        lines.append(f"<{ENTITY}e{e}> <{RDF_TYPE}> <{ENTITY}Type{e % TYPES}> .\n")
        lines.append(f'<{ENTITY}e{e}> <{RELATION}size> "{e * 7 % 1000}"^^<{INTEGER}> .\n')
    for s, r, o in zip(subjects.tolist(), relations.tolist(), objects.tolist(), strict=True):
        lines.append(f"<{ENTITY}e{s}> <{RELATION}r{r}> <{ENTITY}e{o}> .\n")
    path.write_text("".join(lines))
    return len(lines)


def load_pandora(path: str) -> InMemoryKnowledgeGraph:
    """Pandora's store, as the `rdf` loader builds it."""
    return InMemoryKnowledgeGraph.from_triples(path, read_rdf_file(path), ("en",))


def load_rdflib(path: str, store: str = "default") -> rdflib.Graph:
    """An rdflib graph on `store`, parsed by the matching N-Triples parser."""
    graph = rdflib.Graph(store=store)
    graph.parse(path, format="ox-nt" if store == "Oxigraph" else "nt")
    return graph


def _measure_load(store: str, path: str, queue: multiprocessing.Queue) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    loaded = load_pandora(path) if store == "pandora" else load_rdflib(path, store)
    seconds = time.perf_counter() - started
    peak_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    queue.put((seconds, peak_mb, len(loaded)))


def measure_load_in_fresh_process(store: str, path: str) -> tuple[float, float, int]:
    """(seconds, peak MB added by the load, triples) of one store, alone in a process."""
    queue: multiprocessing.Queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=_measure_load, args=(store, path, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


class RdflibSparqlClient:
    """The baseline: SPARQL queries answered by an rdflib graph in this process."""

    def __init__(self, graph: rdflib.Graph):
        self.graph = graph

    def select(self, query: str) -> list[dict]:
        """Rows of a SELECT query, terms as pyoxigraph terms (like the real client)."""
        rows = []
        for row in self.graph.query(query):
            rows.append({str(k): from_rdflib_term(v) for k, v in row.asdict().items()})
        return rows

    def ask(self, query: str) -> bool:
        """The answer of an ASK query."""
        return bool(self.graph.query(query).askAnswer)


def degree_ranked_entities(kg: InMemoryKnowledgeGraph) -> tuple[NamedNode, NamedNode]:
    """The hub (highest relation degree) and a median-degree entity."""
    relation_rows = np.array(
        [kg.terms[p].value.startswith(RELATION + "r") for p in range(len(kg.terms))]
    )[kg.p]
    degree = np.bincount(kg.s[relation_rows], minlength=len(kg.terms)) + np.bincount(
        kg.o[relation_rows], minlength=len(kg.terms)
    )
    entities = np.flatnonzero(degree)
    ordered = entities[np.argsort(degree[entities], kind="stable")]
    return kg.terms[int(ordered[-1])], kg.terms[int(ordered[len(ordered) // 2])]


def best_of(runs: int, action) -> tuple[float, object]:
    """The fastest of `runs` timings of `action()` (its last result)."""
    timings, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = action()
        timings.append(time.perf_counter() - started)
    return min(timings), result


def main() -> None:
    """Generate the KG, measure each step against the rdflib baseline, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entities", type=int, default=120_000)
    parser.add_argument("--edges", type=int, default=850_000)
    parser.add_argument("--hops", type=int, default=2)
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory() as directory:
        path = str(Path(directory) / "kg.nt")
        started = time.perf_counter()
        total = generate(Path(path), arguments.entities, arguments.edges)
        print(f"generated {total:,} triples in {time.perf_counter() - started:.1f} s: {path}")

        print("\nload (each store alone in a fresh process)")
        loads = {}
        for store, label in (
            ("pandora", "pandora (pyoxigraph parse + int32 arrays)"),
            ("Oxigraph", "rdflib + oxrdflib Oxigraph store"),
            ("default", "rdflib default Memory store"),
        ):
            seconds, peak_mb, triples = measure_load_in_fresh_process(store, path)
            loads[store] = seconds
            print(f"  {label:44s} {seconds:7.2f} s  peak +{peak_mb:7.0f} MB  {triples:,} triples")
        print(
            f"  ratio: rdflib default / pandora = {loads['default'] / loads['pandora']:.1f}x, "
            f"oxrdflib / pandora = {loads['Oxigraph'] / loads['pandora']:.1f}x"
        )

        kg = load_pandora(path)
        baseline = SparqlKnowledgeGraph("rdflib", RdflibSparqlClient(load_rdflib(path)), ("en",))
        oxigraph = SparqlKnowledgeGraph(
            "oxrdflib", RdflibSparqlClient(load_rdflib(path, "Oxigraph")), ("en",)
        )
        hub, median = degree_ranked_entities(kg)
        print(
            f"\n{arguments.hops}-hop extraction (no question: no pruning; cap 400 triples per hop)"
        )
        verdicts = []
        for role, entity in (("hub", hub), ("median", median)):
            degree = sum(kg.relation_counts([entity]).values())
            extract_s, subgraph = best_of(
                3, lambda e=entity: extract_subgraph(kg, (e,), arguments.hops, None)
            )
            boxes_s, boxes = best_of(3, lambda s=subgraph: subgraph_to_boxes(s, "bench"))
            sparql_s, fetched = best_of(
                1, lambda e=entity: extract_subgraph(baseline, (e,), arguments.hops, None)
            )
            oxigraph_s, via_oxigraph = best_of(
                1, lambda e=entity: extract_subgraph(oxigraph, (e,), arguments.hops, None)
            )
            same = fetched.triples == subgraph.triples == via_oxigraph.triples
            ours = extract_s + boxes_s
            print(
                f"  {role:6s} {entity.value.rsplit('/', 1)[1]:>8s} (degree {degree:,}): "
                f"{len(subgraph.triples):,} triples, {len(boxes)} BOXes, "
                f"{sum(len(b.frame) for b in boxes):,} rows"
            )
            print(
                f"         pandora extract {extract_s * 1000:8.1f} ms + KG-to-BOX "
                f"{boxes_s * 1000:7.1f} ms = {ours * 1000:8.1f} ms | rdflib SPARQL "
                f"{sparql_s * 1000:9.1f} ms | ratio {sparql_s / ours:6.1f}x"
            )
            print(
                f"         (same queries on rdflib + oxrdflib: {oxigraph_s * 1000:8.1f} ms, "
                f"ratio {oxigraph_s / ours:5.1f}x) | identical triples in all three: {same}"
            )
            verdicts.append((role, ours, sparql_s / ours, same))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\npeak memory of this process (both stores loaded): {peak:,.0f} MB")
        hub_ratio = verdicts[0][2]
        median_time = verdicts[1][1]
        print(
            f"targets: hub ratio >= 5x: {hub_ratio:.1f}x {'PASS' if hub_ratio >= 5 else 'FAIL'}; "
            f"median < 1 s: {median_time * 1000:.0f} ms {'PASS' if median_time < 1 else 'FAIL'}; "
            f"identical subgraphs: {all(v[3] for v in verdicts)}"
        )
        if not all(v[3] for v in verdicts):
            sys.exit(1)


if __name__ == "__main__":
    main()
