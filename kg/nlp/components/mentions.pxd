# Typed locals for the compiled module (kg/compiled.py): its candidate loops read Candidate fields as C struct
# members. The functions declared here are cpdef: called as before from Python, directly in C from this module.
cimport cython

from kg.nlp.candidates cimport Abbreviation, Candidate


@cython.locals(c=Candidate, best=Candidate)
cpdef _covering(cands, start, end, extractor=*)

@cython.locals(c=Candidate)
cpdef _exact(cands, start, end)

@cython.locals(c=Candidate, best=Candidate)
cpdef _strongest_on(cands, start, end)

@cython.locals(o=Candidate)
cpdef bint _overlaps_beyond(cands, start, end) except -1

@cython.locals(c=Candidate)
cpdef _propagate(doc, cands, pairs)

@cython.locals(c=Candidate)
cpdef _longer_names_everywhere(doc, cands)

@cython.locals(c=Candidate, own=Candidate)
cpdef _proposed_long_forms(doc, cands)

@cython.locals(own=Candidate)
cpdef _long_form_of(Candidate c, forms, lower, orth, strings, title_end)

@cython.locals(c=Candidate, a=Abbreviation)
cpdef _named_datasets_win(doc, cands, pairs)

@cython.locals(o=Candidate)
cpdef _strictly_inside(Candidate c, outer)

cpdef _dataset_release(doc, Candidate c, taken, known)

cpdef _metric_symbol(doc, Candidate c, taken)

cpdef _named_data(doc, Candidate c)

cpdef _completed(doc, Candidate c, taken, known)

cpdef _with_version(doc, Candidate c, taken, known)

cpdef _over(Candidate c, start, end, canonical)

@cython.locals(c=Candidate)
cpdef select_mentions(doc, generic, known, ents=*)

@cython.locals(c=Candidate, priorities=dict, width="long long", start="long long", end="long long",
                priority="long long")
cpdef list _in_selection_order(list cands, long long n)

@cython.locals(c=Candidate)
cpdef _without_generic(doc, cands, generic)

cpdef bint model_sees(ents, start, end) except -1

cpdef _known_name(known, text, label)

cpdef _clean_name(text)

cpdef without_asides(name)

cpdef _take(taken, start, end)

cpdef _words(doc, start, end)

cpdef bint _crosses(whole, i, j) except -1

cpdef _as_written(doc, Candidate c)

cpdef bint _other_number(a, b) except -1

cpdef bint _before_data_head(doc, end) except -1

cpdef _one_label_per_known_concept(mentions, known)

cpdef _spelled_out_elsewhere(doc, mentions, pairs)

cpdef set_entities(doc, ents, label_ids)
