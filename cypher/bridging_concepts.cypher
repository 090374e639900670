// name: bridging_concepts
// purpose: Datasets and methods that bridge two research areas (tasks): proposed or used both by papers on one and on the other.
// params: task_a, task_b (task names, e.g. "domain generalization", "model compression")
// example: kg query bridging_concepts --param "task_a=domain generalization" --param "task_b=model compression"
// Each side's papers are collected per concept first, so the work grows with the papers of the two tasks, not with
// pairs of them (50k papers, two common tasks: 1.6 s instead of 15 s). A concept counts when a paper of one task and
// a different paper of the other use it; `both` (papers of both tasks) settles the case of one shared paper. The
// sides meet on the concept's id, so no step goes from a concept back to its papers (a big embedded store keeps
// relationships forward only).
MATCH (a:Task)<-[:ADDRESSES]-(p:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WHERE toLower(a.name) = toLower($task_a)
WITH c.id AS id, c.name AS concept, c.idf AS rarity, collect(DISTINCT p.id) AS ids_a
MATCH (b:Task)<-[:ADDRESSES]-(q:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WHERE toLower(b.name) = toLower($task_b) AND c.id = id
WITH concept, rarity, ids_a, collect(DISTINCT q.id) AS ids_b, count(DISTINCT CASE WHEN q.id IN ids_a THEN q.id END) AS both
WHERE NOT (size(ids_a) = 1 AND size(ids_b) = 1 AND both = 1)
RETURN concept, rarity,
       size(ids_a) - CASE WHEN size(ids_b) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_a,
       size(ids_b) - CASE WHEN size(ids_a) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_b
ORDER BY rarity DESC, concept
