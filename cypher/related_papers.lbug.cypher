// name: related_papers
// purpose: Papers related to a paper through every kind of shared concept, each weighted by type and rarity (idf), twice for each of the two papers whose title names it; the concept part of the ranking of `kg related`.
// params: paper: paper (id, title or proposed method, e.g. "SCALE"), w_dataset: number = 3.0, w_task: number = 1.5, w_method: number = 1.0, w_metric: number = 0.25 (type weights, as `kg related` weighs the concepts), top: integer = 10 (papers to return)
// example: kg query related_papers --param paper=SCALE
// engine: Ladybug tests a node's table with `label(c)`; Neo4j with `c:Dataset` (see the .neo4j file).
MATCH (p:Paper)-[r1:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)<-[r2:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]-(q:Paper)
WHERE (p.id = $paper OR p.name = $paper) AND q.id <> p.id
// a concept named in a title (its evidence from the title) counts twice for each title; one share per paper
WITH q, c, max(CASE WHEN r1.evidence CONTAINS '"field":"title"' THEN 2.0 ELSE 1.0 END)
         * max(CASE WHEN r2.evidence CONTAINS '"field":"title"' THEN 2.0 ELSE 1.0 END) AS titled
// 1.0 * each weight: Ladybug types the CASE by its parameters, so "w_method=1" made every weight an integer
WITH q, c, titled * c.idf * CASE label(c) WHEN 'Dataset' THEN 1.0 * $w_dataset WHEN 'Task' THEN 1.0 * $w_task
                        WHEN 'Method' THEN 1.0 * $w_method ELSE 1.0 * $w_metric END AS weight
WHERE weight > 0
WITH q, c, weight
ORDER BY weight DESC, c.name SKIP 0
WITH q, collect(c.name) AS shared, sum(weight) AS score
RETURN q.id AS paper, q.name AS name, score, shared
// ties as in kg related: the same sum added in another order differs in its last bits
ORDER BY round(score, 9) DESC, name, paper
LIMIT $top
