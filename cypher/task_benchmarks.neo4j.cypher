// name: task_benchmarks
// purpose: The datasets and benchmarks a task's papers (with its subtasks') evaluate on, most used first, with the metrics their results on each are in: a task's benchmark page.
// params: task: task (name, alias or id, e.g. "point cloud understanding"), limit: integer = 20 (rows to return)
// example: kg query task_benchmarks --param "task=point cloud understanding"
// engine: Neo4j sorts a collected list in a COLLECT subquery; Ladybug with list_sort (see the .lbug file).
// A task's papers include those of its subtasks (SUBTASK_OF, at any depth up to 8); `via` names the subtasks whose
// papers evaluate on the dataset. A variant is a dataset of its own here (papers_on_dataset counts variants as their
// dataset). `results`: the results those papers report on the dataset, `metrics` the metrics of those results.
MATCH (p:Paper)-[:ADDRESSES]->(s:Task)-[:SUBTASK_OF*0..8]->(a:Task)
WHERE a.id = $task OR toLower(a.name) = toLower($task) OR any(x IN a.aliases WHERE toLower(x) = toLower($task))
WITH DISTINCT p, CASE WHEN s.id <> a.id THEN s.name END AS sub
MATCH (p)-[:EVALUATES_ON]->(d:Dataset)
OPTIONAL MATCH (p)-[:HAS_RESULT]->(r:Result)-[:ON_DATASET]->(d)
OPTIONAL MATCH (r)-[:IN_METRIC]->(x:Metric)
WITH d, count(DISTINCT p) AS papers, count(DISTINCT r) AS results, collect(DISTINCT x.name) AS names,
     collect(DISTINCT sub) AS subs
RETURN d.name AS dataset, d.benchmark AS benchmark, papers, results,
       COLLECT { UNWIND names AS v RETURN v ORDER BY v } AS metrics,
       COLLECT { UNWIND subs AS v RETURN v ORDER BY v } AS via
ORDER BY papers DESC, results DESC, dataset, d.id
LIMIT $limit
