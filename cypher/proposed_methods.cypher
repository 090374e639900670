// name: proposed_methods
// purpose: The methods proposed by the papers of a venue in a year, with the sentence that proposes each.
// params: venue: venue (any case, e.g. "ICML"), year: year (e.g. 2026)
// example: kg query proposed_methods --param venue=ICML --param year=2026
// The venue matches without case ("neurips" finds NeurIPS).
MATCH (p:Paper)-[e:PROPOSES]->(m:Method)
WHERE p.year = $year AND toLower(p.venue) = toLower($venue)
RETURN m.name AS method, p.id AS paper, p.name AS name, e.sentence AS evidence
ORDER BY toLower(method), method, paper
