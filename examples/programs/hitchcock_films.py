# Which films did Alfred Hitchcock direct? (KG2Code: NetworkX over the subgraph of films.ttl)
def KGQA(question, graph):
    # the films are the heads of `directed_by` edges that point at Hitchcock
    films = {h for h, t, r in graph.edges(data="relation") if r == "directed_by" and t == "Alfred Hitchcock"}
    # answer: the film titles, sorted
    return sorted(films)
