// name: top_datasets
// purpose: The most used datasets and benchmarks per venue and year.
// params: limit: integer = 20 (rows to return)
// example: kg query top_datasets
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WITH p.venue AS venue, p.year AS year, d.name AS dataset, d.benchmark AS benchmark, count(DISTINCT p) AS papers
RETURN venue, year, dataset, benchmark, papers
ORDER BY papers DESC, venue, year, dataset
LIMIT $limit
