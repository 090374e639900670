"""The extraction pipeline's spaCy components, in the order ``kg/nlp/config.cfg`` runs them: sentences, the
gazetteer, abbreviations, context cues, proposed names, title names, the trained tagger or NER (``model``, which the
combiner merges with the rules), mentions, specificity and results. Importing a module registers its factory."""
