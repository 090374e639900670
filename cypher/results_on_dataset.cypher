// name: results_on_dataset
// purpose: Methods and the results they report on a dataset: value, metric, paper and sentence.
// params: dataset (e.g. "ModelNet40")
// example: kg query results_on_dataset --param dataset=ModelNet40
MATCH (p:Paper)-[:HAS_RESULT]->(r:Result)-[:ON_DATASET]->(d:Dataset)
WITH p, r, d, toLower($dataset) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(d.name) = wanted OR d.id = $dataset OR any(a IN d.aliases WHERE toLower(a) = wanted)
OPTIONAL MATCH (r)-[:FOR_METHOD]->(m:Method)
OPTIONAL MATCH (r)-[:IN_METRIC]->(x:Metric)
RETURN m.name AS method, x.name AS metric, r.value AS value, p.name AS paper, r.sentence AS evidence
ORDER BY method, metric, value
