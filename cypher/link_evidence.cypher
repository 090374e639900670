// name: link_evidence
// purpose: The evidence for every link between a paper and a concept: relation, sentence, raw offsets, extractor.
// params: paper (id or name, e.g. "SCALE"), concept (name, alias or id, e.g. "CUHK-SYSU")
// example: kg query link_evidence --param paper=SCALE --param concept=CUHK-SYSU
MATCH (p:Paper)-[e:PROPOSES|USES|ADDRESSES|EVALUATES_ON|REPORTS]->(c)
WHERE (p.id = $paper OR p.name = $paper)
  AND (toLower(c.name) = toLower($concept) OR c.id = $concept OR $concept IN c.aliases)
RETURN c.name AS concept, e.sentence AS sentence, e.start_char AS start_char, e.end_char AS end_char,
       e.extractor AS extractor, e.count AS mentions
ORDER BY concept, start_char
