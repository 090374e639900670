// name: path_between_papers
// purpose: The shortest chain of shared concepts linking two papers (paper - concept - paper - ...).
// params: a, b (paper ids, titles or proposed methods, e.g. "FML", "ReEx")
// example: kg query path_between_papers --param a=FML --param b=ReEx
// papers: a, b
// engine: Neo4j spells shortest paths shortestPath(...); Ladybug uses [* SHORTEST ..] (see the .lbug file).
MATCH (a:Paper), (b:Paper)
WHERE (a.id = $a OR a.name = $a) AND (b.id = $b OR b.name = $b) AND a.id <> b.id
MATCH path = shortestPath((a)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS*..8]-(b))
RETURN length(path) AS hops, [n IN nodes(path) | n.name] AS chain
