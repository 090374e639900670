# Typed locals for the compiled module (kg/compiled.py), as in mentions.pxd: candidate loops read Candidate fields as
# C struct members. The functions declared here are cpdef: called as before from Python, directly in C from here.
cimport cython

from kg.nlp.candidates cimport Abbreviation, Candidate


@cython.locals(c=Candidate)
cpdef _rules(cands)

@cython.locals(c=Candidate)
cpdef _inside(overlapping, start, end)

@cython.locals(c=Candidate)
cpdef _family_words_only(doc, cands, start, end)

@cython.locals(c=Candidate, first=Candidate)
cpdef _side_by_side(doc, lower, Candidate core, inside, start)

cpdef _family_word(doc, Candidate c, start, end)

@cython.locals(a=Abbreviation)
cpdef list _pairs_within(tuple pairs, start, end)

@cython.locals(c=Candidate)
cpdef bint _other_label_before(list inside, label, end)

@cython.locals(c=Candidate)
cpdef bint _any_label(list cands, label)

@cython.locals(c=Candidate)
cpdef bint _all_label(list cands, label)

@cython.locals(k=Py_ssize_t)
cpdef bint _any_in(values, Py_ssize_t start, Py_ssize_t end, ids)

@cython.locals(k=Py_ssize_t)
cpdef bint _all_in(values, Py_ssize_t start, Py_ssize_t end, ids)

@cython.locals(k=Py_ssize_t)
cpdef Py_ssize_t _first_at(values, Py_ssize_t start, Py_ssize_t end, value)

@cython.locals(k=Py_ssize_t)
cpdef bint _generic_after(lower, Py_ssize_t start, Py_ssize_t end, bint settings)

@cython.locals(k=Py_ssize_t)
cpdef bint _generic_tail(lower, orth, Py_ssize_t start, Py_ssize_t end)

@cython.locals(c=Candidate)
cpdef _dataset_cut(list overlapping, start, end)

@cython.locals(c=Candidate)
cpdef _dataset_opening(list inside, start)

@cython.locals(c=Candidate)
cpdef bint _has_span(list cands, start, end, label)

@cython.locals(c=Candidate)
cpdef bint _any_proposed(list cands)

@cython.locals(c=Candidate)
cpdef bint _rule_and_head(lower, list inside, start, end, label)

@cython.locals(c=Candidate, best=Candidate)
cpdef Candidate _core(list inside)

cpdef tuple trim(doc, Py_ssize_t start, Py_ssize_t end)

@cython.locals(c=Candidate, a=Abbreviation, own=list, proposed=set, tasks=set, task_spans=set, longs=dict)
cpdef short_forms(doc, list rules)

@cython.locals(c=Candidate)
cpdef bint _holds_short(list cands, Abbreviation pair)

@cython.locals(out=list)
cpdef list _split_joined(doc, list ents, lower)

@cython.locals(k=Py_ssize_t)
cpdef Py_ssize_t _after_quotes(list opening, list closing, Py_ssize_t start, Py_ssize_t end)
