// name: link_evidence
// purpose: The evidence for every link between a paper and a concept (or its subtasks and variants): relation, sentence, raw offsets, extractor.
// params: paper: paper (id, title or proposed method, e.g. "SCALE"), concept: concept (name, alias or id of a dataset, task, method or metric, e.g. "CUHK-SYSU")
// example: kg query link_evidence --param paper=SCALE --param concept=CUHK-SYSU
// engine: Neo4j names a relationship's type with `type(e)`; Ladybug with `label(e)` (see the .lbug file).
// A subtask, variant or kind of the concept (SUBTASK_OF, VARIANT_OF, KIND_OF, at any depth up to 8) counts as the
// concept; `via` names the one the paper links to, and is empty for a link to the concept itself.
MATCH (p:Paper)-[e:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(x)-[:SUBTASK_OF|VARIANT_OF|KIND_OF*0..8]->(c)
WHERE p.id = $paper OR p.name = $paper
WITH DISTINCT c, x, e, toLower($concept) AS wanted  // (one row per link and concept, however many paths lead up)
WHERE toLower(c.name) = wanted OR c.id = $concept OR any(a IN c.aliases WHERE toLower(a) = wanted)
RETURN c.name AS concept, CASE WHEN x.id <> c.id THEN x.name END AS via, type(e) AS relation, e.sentence AS sentence,
       e.start_char AS start_char, e.end_char AS end_char, e.extractor AS extractor, e.count AS mentions
ORDER BY concept, via, relation, start_char
