# Typed locals for the compiled module (kg/compiled.py), as in mentions.pxd: candidate loops read Candidate fields as
# C struct members. The functions declared here are cpdef: called as before from Python, directly in C from here.
cimport cython

from kg.nlp.candidates cimport Candidate


@cython.locals(c=Candidate)
cpdef _rules(cands)

@cython.locals(c=Candidate)
cpdef _inside(overlapping, start, end)

@cython.locals(c=Candidate)
cpdef _family_words_only(doc, cands, start, end)

@cython.locals(c=Candidate, first=Candidate)
cpdef _side_by_side(doc, lower, Candidate core, inside, start)

cpdef _family_word(doc, Candidate c, start, end)
