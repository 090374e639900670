// name: papers_on_dataset
// purpose: Papers that evaluate on a dataset or benchmark (matched by name, alias or id) or on one of its variants, with the evidence sentence.
// params: dataset: dataset (name, alias or id, e.g. "CUHK-SYSU")
// example: kg query papers_on_dataset --param dataset=CUHK-SYSU
// A variant (VARIANT_OF, at any depth up to 8: "COCO-C" under "COCO") counts as the dataset; `via` names the
// variant a paper evaluates on, and is empty when it evaluates on the dataset itself. The pattern goes from the
// papers up to the dataset asked for, so it also runs on a big store whose relationships are stored forward only.
MATCH (p:Paper)-[e:EVALUATES_ON]->(v:Dataset)-[:VARIANT_OF*0..8]->(d:Dataset)
WITH p, e, v, d, toLower($dataset) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(d.name) = wanted OR d.id = $dataset OR any(a IN d.aliases WHERE toLower(a) = wanted)
RETURN p.id AS paper, p.name AS name, p.venue AS venue, p.year AS year, d.name AS dataset,
       CASE WHEN v.id <> d.id THEN v.name END AS via, e.sentence AS evidence
ORDER BY year DESC, name, paper, dataset, via
