// name: results_on_dataset
// purpose: A leaderboard of the results on a dataset or its variants, per metric best first, with paper and sentence.
// params: dataset: dataset (name, alias or id, e.g. "ModelNet40")
// example: kg query results_on_dataset --param dataset=ModelNet40
// A variant (VARIANT_OF, at any depth up to 8) counts as the dataset; `via` names the variant a result is on, and
// is empty for a result on the dataset itself. The pattern goes from the papers up to the dataset asked for, so it
// also runs on a big store whose relationships are stored forward only.
MATCH (p:Paper)-[:HAS_RESULT]->(r:Result)-[:ON_DATASET]->(v:Dataset)-[:VARIANT_OF*0..8]->(d:Dataset)
WITH p, r, v, d, toLower($dataset) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(d.name) = wanted OR d.id = $dataset OR any(a IN d.aliases WHERE toLower(a) = wanted)
OPTIONAL MATCH (r)-[:FOR_METHOD]->(m:Method)
OPTIONAL MATCH (r)-[:IN_METRIC]->(x:Metric)
RETURN m.name AS method, x.name AS metric, r.value AS value, CASE WHEN v.id <> d.id THEN v.name END AS via,
       p.id AS paper, p.name AS name, r.sentence AS evidence
// a leaderboard: per metric, values by number, best first (lowest first where the metric's node says lower is
// better: error rates, FID, WER, times; highest first otherwise; `value` is text as the paper writes it, "10.17"
// sorted before "2.35"; a value that is no number, "~5.2", after the numbers), results without a metric last;
// ties in a fixed order, the same on both engines: by method, value, variant, paper name, paper id and result
ORDER BY metric, r.score IS NULL,
         CASE WHEN x.lower_is_better THEN coalesce(r.score, 0.0) ELSE -coalesce(r.score, 0.0) END,
         method, value, via, name, paper, r.id
