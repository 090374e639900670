// name: top_datasets
// purpose: The most used datasets and benchmarks per venue and year.
// params: limit: integer (rows to return, e.g. 20)
// example: kg query top_datasets --param limit=20
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WITH p.venue AS venue, p.year AS year, d.name AS dataset, d.benchmark AS benchmark, count(DISTINCT p) AS papers
RETURN venue, year, dataset, benchmark, papers
ORDER BY papers DESC, venue, year, dataset
LIMIT $limit
