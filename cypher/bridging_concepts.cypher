// name: bridging_concepts
// purpose: Datasets and methods that bridge two research areas (tasks, with their subtasks): proposed or used both by papers on one and on the other.
// params: task_a, task_b (task names, e.g. "domain generalization", "model compression")
// example: kg query bridging_concepts --param "task_a=domain generalization" --param "task_b=model compression"
// A task's papers include those of its subtasks (SUBTASK_OF, at any depth up to 8); `via_a` and `via_b` name the
// subtasks whose papers use the concept. Each side's papers are collected per concept first, so the work grows
// with the papers of the two tasks, not with pairs of them (50k papers, two common tasks: 1.6 s instead of 15 s).
// A concept counts when a paper of one task and a different paper of the other use it; `both` (papers of both
// tasks) settles the case of one shared paper. The sides meet on the concept's id, so no step goes from a concept
// back to its papers (a big embedded store keeps relationships forward only).
MATCH (s:Task)-[:SUBTASK_OF*0..8]->(a:Task)
WHERE toLower(a.name) = toLower($task_a)
MATCH (s)<-[:ADDRESSES]-(p:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WITH a, s, p, c
ORDER BY s.name SKIP 0
WITH c.id AS id, c.name AS concept, c.idf AS rarity, collect(DISTINCT p.id) AS ids_a,
     collect(DISTINCT CASE WHEN s.id <> a.id THEN s.name END) AS via_a
MATCH (t:Task)-[:SUBTASK_OF*0..8]->(b:Task)
WHERE toLower(b.name) = toLower($task_b)
MATCH (t)<-[:ADDRESSES]-(q:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WHERE c.id = id
WITH concept, rarity, ids_a, via_a, b, t, q
ORDER BY t.name SKIP 0
WITH concept, rarity, ids_a, via_a, collect(DISTINCT q.id) AS ids_b,
     collect(DISTINCT CASE WHEN t.id <> b.id THEN t.name END) AS via_b,
     count(DISTINCT CASE WHEN q.id IN ids_a THEN q.id END) AS both
WHERE NOT (size(ids_a) = 1 AND size(ids_b) = 1 AND both = 1)
RETURN concept, rarity,
       size(ids_a) - CASE WHEN size(ids_b) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_a,
       size(ids_b) - CASE WHEN size(ids_a) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_b,
       via_a, via_b
ORDER BY rarity DESC, concept
