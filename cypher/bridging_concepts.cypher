// name: bridging_concepts
// purpose: Datasets and methods that bridge two research areas (tasks): used both by papers on one and on the other.
// params: task_a, task_b (task names, e.g. "domain generalization", "person search")
// example: kg query bridging_concepts --param "task_a=domain adaptation" --param "task_b=domain generalization"
MATCH (a:Task)<-[:ADDRESSES]-(p:Paper)-[:USES|EVALUATES_ON]->(c)<-[:USES|EVALUATES_ON]-(q:Paper)-[:ADDRESSES]->(b:Task)
WHERE toLower(a.name) = toLower($task_a) AND toLower(b.name) = toLower($task_b) AND p.id <> q.id
RETURN c.name AS concept, c.idf AS rarity, count(DISTINCT p) AS papers_a, count(DISTINCT q) AS papers_b
ORDER BY rarity DESC, concept
