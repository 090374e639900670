// name: task_benchmarks
// purpose: The datasets and benchmarks a task's papers (with its subtasks') evaluate on, most used first, with the metrics their results on each are in: a task's benchmark page.
// params: task: task (name, alias or id, e.g. "point cloud understanding"), limit: integer = 20 (rows to return)
// example: kg query task_benchmarks --param "task=point cloud understanding"
// engine: Ladybug sorts a collected list with list_sort; Neo4j sorts the rows before it collects (see the .neo4j file).
// A task's papers include those of its subtasks (SUBTASK_OF, at any depth up to 8); `via` names the subtasks whose
// papers evaluate on the dataset. A variant is a dataset of its own here (papers_on_dataset counts variants as their
// dataset). `results`: the results those papers report on the dataset, `metrics` the metrics of those results. The
// patterns go from the papers, so they also run on a big store whose relationships are stored forward only (a
// result's dataset is matched by id: with the dataset's node bound, the engine stepped back from it).
MATCH (p:Paper)-[:ADDRESSES]->(s:Task)-[:SUBTASK_OF*0..8]->(a:Task)
WHERE (a.id = $task OR toLower(a.name) = toLower($task)
       OR toLower('|' + list_to_string('|', a.aliases) + '|') CONTAINS toLower('|' + $task + '|')) = true
WITH DISTINCT p, CASE WHEN s.id <> a.id THEN s.name END AS sub
MATCH (p)-[:EVALUATES_ON]->(d:Dataset)
OPTIONAL MATCH (p)-[:HAS_RESULT]->(r:Result)-[:ON_DATASET]->(e:Dataset)
WHERE e.id = d.id
OPTIONAL MATCH (r)-[:IN_METRIC]->(x:Metric)
WITH d, count(DISTINCT p) AS papers, count(DISTINCT r) AS results, list_sort(collect(DISTINCT x.name)) AS metrics,
     list_sort(collect(DISTINCT sub)) AS via
RETURN d.name AS dataset, d.benchmark AS benchmark, papers, results, metrics, via
ORDER BY papers DESC, results DESC, dataset, d.id
LIMIT $limit
