// name: bridging_concepts
// purpose: Datasets and methods that bridge two research areas (tasks, with their subtasks): proposed or used both by papers on one and on the other.
// params: task_a, task_b: task (names, aliases or ids, e.g. "domain generalization", "model compression")
// example: kg query bridging_concepts --param "task_a=domain generalization" --param "task_b=model compression"
// engine: the sides meet on the concept's id, so no step goes from a concept back to its papers (a big embedded
// store keeps relationships forward only); Neo4j goes from side A's concepts to their papers (see the .neo4j file).
// A task is matched by name or alias (without case) or id, in one test Ladybug applies to the tasks before the two
// sides meet: an alias is found in the aliases joined by '|' (the array delimiter of the import CSVs, which no
// alias holds), as any(...) after a WITH or list_transform made the query 5-10 times slower, and the test is
// written as an equality ("(...) = true"), as the engine plans an OR of tests twice as slow (10,000 synthetic
// papers: 0.19 s against 0.09 s).
// A task's papers include those of its subtasks (SUBTASK_OF, at any depth up to 8); `via_a` and `via_b` name the
// subtasks whose papers use the concept. Each side's papers are collected per concept first, so the work grows
// with the papers of the two tasks, not with pairs of them (50k papers, two common tasks: 1.6 s instead of 15 s).
// A concept counts when a paper of one task and a different paper of the other use it; `both` (papers of both
// tasks) settles the case of one shared paper. The `via` lists are sorted with list_sort: Ladybug's collect does not
// keep the order of an ORDER BY before it (5 of 1,184 rows of a 10,000-paper synthetic graph).
MATCH (s:Task)-[:SUBTASK_OF*0..8]->(a:Task)
WHERE (a.id = $task_a OR toLower(a.name) = toLower($task_a)
       OR toLower('|' + list_to_string('|', a.aliases) + '|') CONTAINS toLower('|' + $task_a + '|')) = true
MATCH (s)<-[:ADDRESSES]-(p:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WITH c.id AS id, c.name AS concept, c.idf AS rarity, collect(DISTINCT p.id) AS ids_a,
     list_sort(collect(DISTINCT CASE WHEN s.id <> a.id THEN s.name END)) AS via_a
MATCH (t:Task)-[:SUBTASK_OF*0..8]->(b:Task)
WHERE (b.id = $task_b OR toLower(b.name) = toLower($task_b)
       OR toLower('|' + list_to_string('|', b.aliases) + '|') CONTAINS toLower('|' + $task_b + '|')) = true
MATCH (t)<-[:ADDRESSES]-(q:Paper)-[:PROPOSES|USES|EVALUATES_ON]->(c)
WHERE c.id = id
WITH id, concept, rarity, ids_a, via_a, collect(DISTINCT q.id) AS ids_b,
     list_sort(collect(DISTINCT CASE WHEN t.id <> b.id THEN t.name END)) AS via_b,
     count(DISTINCT CASE WHEN q.id IN ids_a THEN q.id END) AS both
WHERE NOT (size(ids_a) = 1 AND size(ids_b) = 1 AND both = 1)
RETURN concept, CASE WHEN id STARTS WITH 'dataset:' THEN 'dataset' ELSE 'method' END AS type, rarity,
       size(ids_a) - CASE WHEN size(ids_b) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_a,
       size(ids_b) - CASE WHEN size(ids_a) = 1 AND both = 1 THEN 1 ELSE 0 END AS papers_b,
       via_a, via_b
// (a method and a dataset may share a name and rarity: then by id)
ORDER BY rarity DESC, concept, id
