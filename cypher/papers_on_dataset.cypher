// name: papers_on_dataset
// purpose: Papers that evaluate on a dataset or benchmark (matched by name, alias or id), with the evidence sentence.
// params: dataset (e.g. "CUHK-SYSU")
// example: kg query papers_on_dataset --param dataset=CUHK-SYSU
MATCH (p:Paper)-[e:EVALUATES_ON]->(d:Dataset)
WITH p, e, d, toLower($dataset) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(d.name) = wanted OR d.id = $dataset OR any(a IN d.aliases WHERE toLower(a) = wanted)
RETURN p.id AS paper, p.name AS name, p.venue AS venue, p.year AS year, d.name AS dataset, e.sentence AS evidence
ORDER BY year DESC, name, paper
