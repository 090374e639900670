// name: results_on_dataset
// purpose: Methods and the results they report on a dataset: value, metric, paper and sentence.
// params: dataset (e.g. "ModelNet40")
// example: kg query results_on_dataset --param dataset=ModelNet40
MATCH (p:Paper)-[:HAS_RESULT]->(r:Result)-[:ON_DATASET]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset) OR d.id = $dataset OR $dataset IN d.aliases
OPTIONAL MATCH (r)-[:FOR_METHOD]->(m:Method)
OPTIONAL MATCH (r)-[:IN_METRIC]->(x:Metric)
RETURN m.name AS method, x.name AS metric, r.value AS value, p.name AS paper, r.sentence AS evidence
ORDER BY method, metric, value
