// name: path_between_papers
// purpose: The shortest chain of shared concepts linking two papers (paper - concept - paper - ...).
// params: a, b: paper (ids, titles or proposed methods, e.g. "FML", "ReEx")
// example: kg query path_between_papers --param a=FML --param b=ReEx
// engine: Ladybug spells all shortest paths [* ALL SHORTEST ..], has no list comprehensions and joins a list with
// list_to_string (see the .neo4j file).
MATCH (a:Paper), (b:Paper)
WHERE (a.id = $a OR a.name = $a) AND (b.id = $b OR b.name = $b) AND a.id <> b.id
MATCH path = (a)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS* ALL SHORTEST 1..8]-(b)
WITH length(path) AS hops, properties(nodes(path), 'name') AS chain, properties(nodes(path), 'id') AS ids
RETURN hops, chain
// of the shortest paths, the first by its nodes' ids, so every run and both engines give the same one
ORDER BY list_to_string(' ', ids)
LIMIT 1
