// name: paper_concepts
// purpose: Everything a paper links to: what it proposes, uses, addresses, evaluates on and reports.
// params: paper: paper (id, title or proposed method, e.g. "DomED")
// example: kg query paper_concepts --param paper=DomED
// engine: Ladybug names a relationship's type with `label(e)`; Neo4j with `type(e)` (see the .neo4j file).
// The links come in a fixed order, the same on both engines: by relation (proposes, uses, addresses, evaluates on,
// reports), then by concept.
MATCH (p:Paper)-[e:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)
WHERE p.id = $paper OR p.name = $paper
RETURN label(e) AS relation, c.name AS concept, e.sentence AS evidence
ORDER BY CASE relation WHEN 'PROPOSES' THEN 0 WHEN 'USES' THEN 1 WHEN 'ADDRESSES' THEN 2 WHEN 'EVALUATES_ON' THEN 3
         ELSE 4 END, concept, evidence
