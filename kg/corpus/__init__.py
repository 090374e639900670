"""The input stage: read abstracts into Paper records and clean their text for NLP, keeping offsets into the raw."""
from kg.corpus.clean import CleanText, clean
from kg.corpus.readers import SUFFIXES, Corpus, iter_records, read_corpus
from kg.corpus.records import content_id

__all__ = ["SUFFIXES", "CleanText", "Corpus", "clean", "content_id", "iter_records", "read_corpus"]
