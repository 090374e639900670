// name: papers_on_dataset
// purpose: Papers that evaluate on a dataset or benchmark (matched by name, alias or id), with the evidence sentence.
// params: dataset (e.g. "CUHK-SYSU")
// example: kg query papers_on_dataset --param dataset=CUHK-SYSU
MATCH (p:Paper)-[e:EVALUATES_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset) OR d.id = $dataset OR $dataset IN d.aliases
RETURN p.id AS paper, p.name AS name, p.venue AS venue, p.year AS year, d.name AS dataset, e.sentence AS evidence
ORDER BY year DESC, name, paper
