// name: link_evidence
// purpose: The evidence for every link between a paper and a concept: relation, sentence, raw offsets, extractor.
// params: paper (id or name, e.g. "SCALE"), concept (name, alias or id, e.g. "CUHK-SYSU")
// example: kg query link_evidence --param paper=SCALE --param concept=CUHK-SYSU
// engine: Ladybug names a relationship's type with `label(e)`; Neo4j with `type(e)` (see the .neo4j file).
MATCH (p:Paper)-[e:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)
WHERE p.id = $paper OR p.name = $paper
WITH c, e, toLower($concept) AS wanted  // (Ladybug takes no parameter inside any(...))
WHERE toLower(c.name) = wanted OR c.id = $concept OR any(a IN c.aliases WHERE toLower(a) = wanted)
RETURN c.name AS concept, label(e) AS relation, e.sentence AS sentence, e.start_char AS start_char, e.end_char AS end_char,
       e.extractor AS extractor, e.count AS mentions
ORDER BY concept, relation, start_char
