// name: related_by
// purpose: Papers related to a paper through the concepts of one kind they share (datasets, tasks, methods or metrics), or their subtasks and variants, ranked by the rarity (idf) of what they share.
// params: paper: paper (id, title or proposed method, e.g. "SCALE"), by: type (as in `kg related --by`)
// example: kg query related_by --param paper=SCALE --param by=task
// engine: Ladybug binds a variable-length hierarchy step only to tasks and datasets, so what lies below a
// concept is collected by id; its collect(DISTINCT ...) does not keep the order of an ORDER BY before it, so `via`
// is sorted with list_sort (see the .neo4j file).
// A concept's kind is the prefix of its id (kg.schema.node_id: "dataset:...", "task:..."), which both engines read
// the same way. A paper linked to a subtask, variant or kind of the paper's concept (SUBTASK_OF, VARIANT_OF,
// KIND_OF, at any depth up to 8) shares that concept; `via` names those subtasks, variants and kinds. A concept
// counts once however many ways a paper reaches it (used and proposed, itself and a subtask).
// What lies below the paper's concept is collected by id first: Ladybug binds a variable-length
// SUBTASK_OF|VARIANT_OF pattern only to tasks and datasets, so `(x)-[...*0..8]->(c)` would leave out every method
// and metric, and a big graph's store keeps its relationships forward only, so the papers are matched forward.
MATCH (p:Paper)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)
WHERE (p.id = $paper OR p.name = $paper) AND c.id STARTS WITH (toLower($by) + ':')
OPTIONAL MATCH (below)-[:SUBTASK_OF|VARIANT_OF|KIND_OF*1..8]->(above)
WHERE above.id = c.id
WITH p, c, collect(DISTINCT below.id) AS below
UNWIND [c.id] + below AS reached
MATCH (q:Paper)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(x)
WHERE x.id = reached AND q.id <> p.id
WITH q, collect(DISTINCT c) AS concepts, list_sort(collect(DISTINCT CASE WHEN x.id <> c.id THEN x.name END)) AS via
UNWIND concepts AS c
WITH q, via, c
ORDER BY c.idf DESC, c.name SKIP 0
WITH q, via, collect(c.name) AS shared, sum(c.idf) AS score
RETURN q.id AS paper, q.name AS name, q.year AS year, shared, score, via
// ties as in kg related: the same sum added in another order differs in its last bits
ORDER BY round(score, 9) DESC, name, paper
