// name: related_by_dataset
// purpose: Papers related to a paper through the datasets they share, ranked by the rarity (idf) of what they share.
// params: paper (a paper id, e.g. "paper:5f0c...", or its name, e.g. "SCALE")
// example: kg query related_by_dataset --param paper=SCALE
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)<-[:EVALUATES_ON]-(q:Paper)
WHERE (p.id = $paper OR p.name = $paper) AND q.id <> p.id
WITH q, collect(d.name) AS shared, sum(d.idf) AS score
RETURN q.id AS paper, q.name AS name, q.year AS year, shared, score
ORDER BY score DESC, name, paper
