// Generated from kg/schema.py by `python -m kg.schema > cypher/schema.cypher`; a test keeps them in sync.
// Uniqueness constraints (which also index the key) first, then lookup indexes.
CREATE CONSTRAINT paper_id IF NOT EXISTS FOR (n:Paper) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT method_id IF NOT EXISTS FOR (n:Method) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT task_id IF NOT EXISTS FOR (n:Task) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT dataset_id IF NOT EXISTS FOR (n:Dataset) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT metric_id IF NOT EXISTS FOR (n:Metric) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT result_id IF NOT EXISTS FOR (n:Result) REQUIRE n.id IS UNIQUE;
CREATE INDEX paper_name IF NOT EXISTS FOR (n:Paper) ON (n.name);
CREATE INDEX method_name IF NOT EXISTS FOR (n:Method) ON (n.name);
CREATE INDEX task_name IF NOT EXISTS FOR (n:Task) ON (n.name);
CREATE INDEX dataset_name IF NOT EXISTS FOR (n:Dataset) ON (n.name);
CREATE INDEX metric_name IF NOT EXISTS FOR (n:Metric) ON (n.name);
CREATE INDEX result_name IF NOT EXISTS FOR (n:Result) ON (n.name);
CREATE INDEX paper_venue_year IF NOT EXISTS FOR (n:Paper) ON (n.venue, n.year);
