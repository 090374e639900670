// name: papers_on_dataset
// purpose: Papers that evaluate on a dataset or benchmark (name, alias or id) or its variants, with evidence.
// params: dataset: dataset (name, alias or id, e.g. "CUHK-SYSU")
// example: kg query papers_on_dataset --param dataset=CUHK-SYSU
// engine: Ladybug's collect does not keep the order of an ORDER BY before it, so `via` is sorted with list_sort,
// which Neo4j 5 lacks (see the .neo4j file).
// A variant (VARIANT_OF, at any depth up to 8: "COCO-C" under "COCO") counts as the dataset: a paper is one row,
// `via` lists the variants it evaluates on (empty when only the dataset itself), and `evidence` is the sentence of
// its link to the dataset itself, or to the first of its variants by name. The pattern goes from the papers up to
// the dataset asked for, so it also runs on a big store whose relationships are stored forward only.
MATCH (p:Paper)-[:EVALUATES_ON]->(v:Dataset)-[:VARIANT_OF*0..8]->(d:Dataset)
WITH p, v, d, toLower($dataset) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(d.name) = wanted OR d.id = $dataset OR any(a IN d.aliases WHERE toLower(a) = wanted)
WITH DISTINCT p, v, d
WITH p, d, list_sort(collect(CASE WHEN v.id <> d.id THEN v.name END)) AS via,
     min(CASE WHEN v.id = d.id THEN '' ELSE v.name END) AS first
MATCH (p)-[e:EVALUATES_ON]->(f:Dataset)
WHERE CASE WHEN first = '' THEN f.id = d.id ELSE f.name = first END
RETURN p.id AS paper, p.name AS name, p.venue AS venue, p.year AS year, d.name AS dataset, via,
       e.sentence AS evidence
ORDER BY year DESC, name, paper, dataset
