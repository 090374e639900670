// name: link_evidence
// purpose: The evidence for every link between a paper and a concept (or its subtasks and variants): relation, sentence, raw offsets, extractor.
// params: paper: paper (id, title or proposed method, e.g. "SCALE"), concept: concept (name, alias or id of a dataset, task, method or metric, e.g. "CUHK-SYSU")
// example: kg query link_evidence --param paper=SCALE --param concept=CUHK-SYSU
// engine: Ladybug names a relationship's type with `label(e)`; Neo4j with `type(e)` (see the .neo4j file).
// A subtask, variant or kind of the concept (SUBTASK_OF, VARIANT_OF, KIND_OF, at any depth up to 8) counts as the
// concept; `via` names the one the paper links to, and is empty for a link to the concept itself.
// Ladybug binds a variable-length SUBTASK_OF|VARIANT_OF pattern only to tasks and datasets (`*0..8` would leave
// out every method and metric), so the linked concept and what lies above it are collected apart.
MATCH (p:Paper)-[e:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(x)
WHERE p.id = $paper OR p.name = $paper
OPTIONAL MATCH (x)-[:SUBTASK_OF|VARIANT_OF|KIND_OF*1..8]->(above)
WITH x, e, [x] + collect(DISTINCT above) AS reached
UNWIND reached AS c
WITH c, x, e, toLower($concept) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(c.name) = wanted OR c.id = $concept OR any(a IN c.aliases WHERE toLower(a) = wanted)
RETURN c.name AS concept, CASE WHEN x.id <> c.id THEN x.name END AS via, label(e) AS relation, e.sentence AS sentence,
       e.start_char AS start_char, e.end_char AS end_char, e.extractor AS extractor, e.count AS mentions
ORDER BY concept, via, relation, start_char
