// name: new_datasets
// purpose: Datasets and benchmarks that papers of one year use and papers of an earlier year do not.
// params: new_year: year (e.g. 2026), old_year: year (e.g. 2025)
// example: kg query new_datasets --param new_year=2026 --param old_year=2025
// engine: Neo4j's collect keeps the order of the ORDER BY before it, which sorts `used_by`; Ladybug's does not,
// so its file sorts it with list_sort, which Neo4j 5 lacks (see the .lbug file).
// The earlier year's datasets are collected first (rather than a NOT EXISTS subquery from each dataset back to
// its papers), so the query also runs on a big embedded store whose relationships are stored forward only.
OPTIONAL MATCH (q:Paper)-[:EVALUATES_ON]->(old:Dataset)
WHERE q.year = $old_year
WITH collect(DISTINCT old.id) AS before
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WHERE p.year = $new_year AND NOT d.id IN before
WITH d, p
ORDER BY p.name SKIP 0
RETURN d.name AS dataset, d.benchmark AS benchmark, count(DISTINCT p) AS papers, collect(DISTINCT p.name) AS used_by
ORDER BY papers DESC, dataset
