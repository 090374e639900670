# The record types of candidates.py as extension types, for the compiled modules that cimport them (kg/compiled.py's
# NEEDS): their fields are C struct members there, read without an attribute lookup. The fields stay Python objects,
# as in the .py (a value keeps its type: an int confidence is no float), in the order of the .py's.

cdef class Candidate:
    cdef public object start, end
    cdef public str label, extractor
    cdef public object canonical, proposed, benchmark, confidence, generic


cdef class Abbreviation:
    cdef readonly object long_start, long_end, short_start, short_end
