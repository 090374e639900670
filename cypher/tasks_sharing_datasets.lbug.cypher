// name: tasks_sharing_datasets
// purpose: Pairs of unrelated tasks whose papers (or their subtasks' papers) evaluate on the same datasets, a dataset's variants counting as the dataset (where research areas meet on data).
// params: limit: integer = 20 (rows to return)
// example: kg query tasks_sharing_datasets
// engine: Ladybug's collect does not keep the order of an ORDER BY before it (collect(DISTINCT ...) never
// does), so `datasets` and `via` are sorted with list_sort, which Neo4j 5 lacks (see the .neo4j file).
// A task's papers include those of its subtasks, and a dataset's variants count as the dataset (SUBTASK_OF,
// VARIANT_OF, at any depth up to 8): `datasets` names the families at the top of the VARIANT_OF chains, `via`
// the subtasks and variants included where the pair meets. A task never pairs with its own subtasks or parents
// (they share their papers by definition), and two tasks meet on a dataset only through papers of different
// (sub)tasks (`lone`: the one (sub)task whose papers bring a task to the dataset, '' when several do), so two
// parents of one subtask do not pair on its papers alone. Tasks are paired per dataset after reducing papers to
// distinct (task, dataset) links, so the work grows with the tasks that share a dataset, not with pairs of its
// papers (50k papers: 50 s when paired through papers); a (dataset, task) link appears once per dataset, so the
// pairs collect their datasets without DISTINCT, and what was included (null for most links) is flattened for
// the returned pairs only. One paper addressing both tasks counts, on both engines.
MATCH (v:Dataset)-[:VARIANT_OF*0..8]->(d:Dataset)
WHERE NOT EXISTS { MATCH (d)-[:VARIANT_OF]->(:Dataset) }
MATCH (s:Task)<-[:ADDRESSES]-(:Paper)-[:EVALUATES_ON]->(v)
WITH DISTINCT s, v, d
MATCH (s)-[:SUBTASK_OF*0..8]->(t:Task)
WITH DISTINCT d.name AS dataset, t, s.name AS sub, v.name AS variant
WITH dataset, t, CASE WHEN count(DISTINCT sub) = 1 THEN min(sub) ELSE '' END AS lone,
     collect(DISTINCT CASE WHEN sub <> t.name THEN sub END)
     + collect(DISTINCT CASE WHEN variant <> dataset THEN variant END) AS included
MATCH (t)-[:SUBTASK_OF*0..8]->(up:Task)
WITH dataset, t.name AS task, lone, included, collect(up.name) AS line
WITH dataset, collect({task: task, lone: lone, line: line,
                       included: CASE WHEN size(included) > 0 THEN included END}) AS links
UNWIND links AS a
UNWIND links AS b
WITH dataset, a, b
WHERE a.task < b.task AND (a.lone = '' OR a.lone <> b.lone) AND NOT a.task IN b.line AND NOT b.task IN a.line
WITH a.task AS task_a, b.task AS task_b, list_sort(collect(dataset)) AS datasets,
     collect(a.included) + collect(b.included) AS included
ORDER BY size(datasets) DESC, task_a, task_b
LIMIT $limit
UNWIND included + [['']] AS names
UNWIND names AS name
WITH task_a, task_b, datasets, list_sort(collect(DISTINCT CASE WHEN name <> '' THEN name END)) AS via
RETURN task_a, task_b, datasets, size(datasets) AS shared, via
ORDER BY shared DESC, task_a, task_b
