"""Benchmarks outside the default test run (``kg bench``): extraction and build throughput and memory, Neo4j and
embedded-store loading, and the related-work ranking's precision (:mod:`kg.bench.benchmarks`), on synthetic inputs
made from packaged data (:mod:`kg.bench.synthetic`)."""
