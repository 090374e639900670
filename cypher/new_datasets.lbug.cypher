// name: new_datasets
// purpose: Datasets and benchmarks that papers of one year use and papers of an earlier year do not.
// params: new_year: year (e.g. 2026), old_year: year (e.g. 2025)
// example: kg query new_datasets --param new_year=2026 --param old_year=2025
// engine: Ladybug's collect(DISTINCT ...) does not keep the order of an ORDER BY before it, so `used_by` is
// sorted with list_sort, which Neo4j 5 lacks (see the .neo4j file).
// The earlier year's datasets are collected first (rather than a NOT EXISTS subquery from each dataset back to
// its papers), so the query also runs on a big embedded store whose relationships are stored forward only.
OPTIONAL MATCH (q:Paper)-[:EVALUATES_ON]->(old:Dataset)
WHERE q.year = $old_year
WITH collect(DISTINCT old.id) AS before
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WHERE p.year = $new_year AND NOT d.id IN before
RETURN d.name AS dataset, d.benchmark AS benchmark, count(DISTINCT p) AS papers,
       list_sort(collect(DISTINCT p.name)) AS used_by
ORDER BY papers DESC, dataset
