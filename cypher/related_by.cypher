// name: related_by
// purpose: Papers related to a paper through the concepts of one kind they share (datasets, tasks, methods or metrics), ranked by the rarity (idf) of what they share.
// params: paper (id or name, e.g. "SCALE"), by (dataset, task, method or metric; as in `kg related --by`)
// example: kg query related_by --param paper=SCALE --param by=task
// A concept's kind is the prefix of its id (kg.schema.node_id: "dataset:...", "task:..."), which both engines read
// the same way. A concept linked twice to a paper (used and proposed) counts once.
MATCH (p:Paper)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)<-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]-(q:Paper)
WHERE (p.id = $paper OR p.name = $paper) AND q.id <> p.id AND c.id STARTS WITH (toLower($by) + ':')
WITH DISTINCT q, c
WITH q, collect(c.name) AS shared, sum(c.idf) AS score
RETURN q.id AS paper, q.name AS name, q.year AS year, shared, score
ORDER BY score DESC, name, paper
