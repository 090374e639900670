// name: related_by
// purpose: Papers related to a paper through the concepts of one kind they share (datasets, tasks, methods or metrics), or their subtasks and variants, ranked by the rarity (idf) of what they share.
// params: paper: paper (id, title or proposed method, e.g. "SCALE"), by: type (as in `kg related --by`)
// example: kg query related_by --param paper=SCALE --param by=task
// engine: Neo4j expands the hierarchy from the paper's concept itself, which keeps the query on the concept's
// neighbourhood on a big graph; its collect keeps the order of the ORDER BY before it, which sorts `via` (Ladybug
// sorts it with list_sort, which Neo4j 5 lacks; see the .lbug file).
// A concept's kind is the prefix of its id (kg.schema.node_id: "dataset:...", "task:..."), which both engines read
// the same way. A paper linked to a subtask, variant or kind of the paper's concept (SUBTASK_OF, VARIANT_OF,
// KIND_OF, at any depth up to 8) shares that concept; `via` names those subtasks, variants and kinds. A concept
// counts once however many ways a paper reaches it (used and proposed, itself and a subtask).
MATCH (p:Paper)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)
WHERE (p.id = $paper OR p.name = $paper) AND c.id STARTS WITH (toLower($by) + ':')
MATCH (x)-[:SUBTASK_OF|VARIANT_OF|KIND_OF*0..8]->(c)
MATCH (q:Paper)-[:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(x)
WHERE q.id <> p.id
WITH q, c, x
ORDER BY x.name SKIP 0
WITH q, collect(DISTINCT c) AS concepts, collect(DISTINCT CASE WHEN x.id <> c.id THEN x.name END) AS via
UNWIND concepts AS c
WITH q, via, c
ORDER BY c.idf DESC, c.name SKIP 0
WITH q, via, collect(c.name) AS shared, sum(c.idf) AS score
RETURN q.id AS paper, q.name AS name, q.year AS year, shared, score, via
// ties as in kg related: the same sum added in another order differs in its last bits
ORDER BY round(score, 9) DESC, name, paper
