// name: tasks_sharing_datasets
// purpose: Pairs of tasks whose papers (or their subtasks' papers) evaluate on the same datasets or their variants (where research areas meet on data).
// params: limit (rows to return, e.g. 20)
// example: kg query tasks_sharing_datasets --param limit=20
// A task's papers include those of its subtasks, and a dataset's variants count as the dataset (SUBTASK_OF,
// VARIANT_OF, at any depth up to 8); `via` names the subtasks and variants included where the pair meets. Two tasks
// meet on a dataset only through papers of different (sub)tasks (`lone`: the one (sub)task whose papers bring a
// task to the dataset, '' when several do), so a task does not pair with its own subtask on the subtask's papers
// alone. Tasks are paired per dataset after reducing papers to distinct (task, dataset) links, so the work grows
// with the tasks that share a dataset, not with pairs of its papers (50k papers: 50 s when paired through papers);
// a (dataset, task) link appears once per dataset, so the pairs collect their datasets without DISTINCT, and what
// was included (null for most links) is flattened for the returned pairs only. One paper addressing both tasks
// counts, on both engines.
MATCH (s:Task)<-[:ADDRESSES]-(:Paper)-[:EVALUATES_ON]->(v:Dataset)
WITH DISTINCT s, v
MATCH (s)-[:SUBTASK_OF*0..8]->(t:Task)
MATCH (v)-[:VARIANT_OF*0..8]->(d:Dataset)
WITH DISTINCT d.name AS dataset, t.name AS task, s.name AS sub, v.name AS variant
WITH dataset, task, CASE WHEN count(DISTINCT sub) = 1 THEN min(sub) ELSE '' END AS lone,
     collect(DISTINCT CASE WHEN sub <> task THEN sub END)
     + collect(DISTINCT CASE WHEN variant <> dataset THEN variant END) AS included
WITH dataset, collect({task: task, lone: lone, included: CASE WHEN size(included) > 0 THEN included END}) AS links
UNWIND links AS a
UNWIND links AS b
WITH dataset, a, b
WHERE a.task < b.task AND (a.lone = '' OR a.lone <> b.lone)
WITH a.task AS task_a, b.task AS task_b, collect(dataset) AS datasets,
     collect(a.included) + collect(b.included) AS included
ORDER BY size(datasets) DESC, task_a, task_b
LIMIT $limit
UNWIND included + [['']] AS names
UNWIND names AS name
WITH task_a, task_b, datasets, collect(DISTINCT CASE WHEN name <> '' THEN name END) AS via
RETURN task_a, task_b, datasets, size(datasets) AS shared, via
ORDER BY shared DESC, task_a, task_b
