"""Graph stores: Neo4j (``kg load``) and the embedded Ladybug database (``DIR/graph.lbug``), fed from the same rows."""
