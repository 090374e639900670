// name: bridging_concepts
// purpose: Datasets and methods that bridge two research areas (tasks, with their subtasks): proposed or used both by papers on one and on the other.
// params: task_a, task_b: task (names, aliases or ids, e.g. "domain generalization", "model compression")
// example: kg query bridging_concepts --param "task_a=domain generalization" --param "task_b=model compression"
// engine: Neo4j collects task B and its subtasks first, then goes from each concept of task A's papers to the papers
// that use it and keeps those that address one of them. The .lbug file's join on the concept's id made Neo4j scan
// every paper once per concept of task A (NeurIPS 2022 corpus, reinforcement learning and image classification:
// 3.4 s; this way 0.02 s).
// A task is matched by name or alias (without case) or id. A task's papers include those of its subtasks
// (SUBTASK_OF, at any depth up to 8); `via_a` and `via_b` name the subtasks whose papers use the concept. A concept
// counts when a paper of one task and a different paper of the other use it; `both` (papers of both tasks) settles
// the case of one shared paper.
MATCH (t:Task)-[:SUBTASK_OF*0..8]->(b:Task)
WHERE b.id = $task_b OR toLower(b.name) = toLower($task_b) OR any(x IN b.aliases WHERE toLower(x) = toLower($task_b))
WITH collect(DISTINCT t) AS tasks_b, collect(DISTINCT CASE WHEN t <> b THEN t END) AS below_b
MATCH (s:Task)-[:SUBTASK_OF*0..8]->(a:Task)
WHERE a.id = $task_a OR toLower(a.name) = toLower($task_a) OR any(x IN a.aliases WHERE toLower(x) = toLower($task_a))
MATCH (s)<-[:ADDRESSES]-(p:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WITH tasks_b, below_b, a, s, p, c
ORDER BY s.name SKIP 0
WITH tasks_b, below_b, c, collect(DISTINCT p.id) AS ids_a,
     collect(DISTINCT CASE WHEN s.id <> a.id THEN s.name END) AS via_a
MATCH (c)<-[:PROPOSES|USES|EVALUATES_ON]-(q:Paper)-[:ADDRESSES]->(t:Task)
WHERE t IN tasks_b
WITH c, ids_a, via_a, below_b, t, q
ORDER BY t.name SKIP 0
WITH c, ids_a, via_a, collect(DISTINCT q.id) AS ids_b,
     collect(DISTINCT CASE WHEN t IN below_b THEN t.name END) AS via_b,
     count(DISTINCT CASE WHEN q.id IN ids_a THEN q.id END) AS both
WHERE NOT (size(ids_a) = 1 AND size(ids_b) = 1 AND both = 1)
RETURN c.name AS concept, CASE WHEN c.id STARTS WITH 'dataset:' THEN 'dataset' ELSE 'method' END AS type,
       c.idf AS rarity,
       size(ids_a) - CASE WHEN size(ids_b) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_a,
       size(ids_b) - CASE WHEN size(ids_a) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_b,
       via_a, via_b
// (a method and a dataset may share a name and rarity: then by id)
ORDER BY rarity DESC, concept, c.id
