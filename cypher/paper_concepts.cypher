// name: paper_concepts
// purpose: Everything a paper links to: what it proposes, uses, addresses, evaluates on and reports.
// params: paper (id, title or proposed method, e.g. "DomED")
// example: kg query paper_concepts --param paper=DomED
// papers: paper
MATCH (p:Paper)-[e:PROPOSES]->(c:Method) WHERE p.id = $paper OR p.name = $paper
RETURN 'PROPOSES' AS relation, c.name AS concept, e.sentence AS evidence
UNION ALL
MATCH (p:Paper)-[e:USES]->(c:Method) WHERE p.id = $paper OR p.name = $paper
RETURN 'USES' AS relation, c.name AS concept, e.sentence AS evidence
UNION ALL
MATCH (p:Paper)-[e:ADDRESSES]->(c:Task) WHERE p.id = $paper OR p.name = $paper
RETURN 'ADDRESSES' AS relation, c.name AS concept, e.sentence AS evidence
UNION ALL
MATCH (p:Paper)-[e:EVALUATES_ON]->(c:Dataset) WHERE p.id = $paper OR p.name = $paper
RETURN 'EVALUATES_ON' AS relation, c.name AS concept, e.sentence AS evidence
UNION ALL
MATCH (p:Paper)-[e:REPORTS]->(c:Metric) WHERE p.id = $paper OR p.name = $paper
RETURN 'REPORTS' AS relation, c.name AS concept, e.sentence AS evidence
