// name: path_between_papers
// purpose: The shortest chain of shared concepts linking two papers (paper - concept - paper - ...).
// params: a, b: paper (ids, titles or proposed methods, e.g. "FML", "ReEx")
// example: kg query path_between_papers --param a=FML --param b=ReEx
// engine: Neo4j spells all shortest paths allShortestPaths(...) and joins a list with reduce; Ladybug uses
// [* ALL SHORTEST ..] and list_to_string (see the .lbug file).
MATCH (a:Paper), (b:Paper)
WHERE (a.id = $a OR a.name = $a) AND (b.id = $b OR b.name = $b) AND a.id <> b.id
MATCH path = allShortestPaths((a)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS*..8]-(b))
RETURN length(path) AS hops, [n IN nodes(path) | n.name] AS chain
// of the shortest paths, the first by its nodes' ids, so every run and both engines give the same one
ORDER BY reduce(s = '', n IN nodes(path) | s + n.id + ' ')
LIMIT 1
