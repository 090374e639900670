// name: tasks_sharing_datasets
// purpose: Pairs of tasks whose papers evaluate on the same datasets (where research areas meet on data).
// params: limit (rows to return, e.g. 20)
// example: kg query tasks_sharing_datasets --param limit=20
// Tasks are paired per dataset after reducing papers to distinct (task, dataset) links, so the work grows with
// the tasks that share a dataset, not with pairs of its papers (50k papers: 50 s when paired through papers).
// One paper addressing both tasks counts, on both engines.
MATCH (t:Task)<-[:ADDRESSES]-(:Paper)-[:EVALUATES_ON]->(d:Dataset)
WITH DISTINCT t.name AS task, d.name AS dataset
WITH dataset, collect(task) AS tasks
UNWIND tasks AS task_a
UNWIND tasks AS task_b
WITH task_a, task_b, dataset
WHERE task_a < task_b
WITH task_a, task_b, collect(DISTINCT dataset) AS datasets
RETURN task_a, task_b, datasets, size(datasets) AS shared
ORDER BY shared DESC, task_a, task_b
LIMIT $limit
