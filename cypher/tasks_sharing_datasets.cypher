// name: tasks_sharing_datasets
// purpose: Pairs of tasks whose papers evaluate on the same datasets (where research areas meet on data).
// params: limit (rows to return, e.g. 20)
// example: kg query tasks_sharing_datasets --param limit=20
// Two MATCH clauses, so that one paper addressing both tasks counts on Neo4j too (within one pattern
// Neo4j never reuses a relationship; Ladybug does).
MATCH (t1:Task)<-[:ADDRESSES]-(:Paper)-[:EVALUATES_ON]->(d:Dataset)
MATCH (d)<-[:EVALUATES_ON]-(:Paper)-[:ADDRESSES]->(t2:Task)
WHERE t1.name < t2.name
WITH t1.name AS task_a, t2.name AS task_b, collect(DISTINCT d.name) AS datasets
RETURN task_a, task_b, datasets, size(datasets) AS shared
ORDER BY shared DESC, task_a, task_b
LIMIT $limit
