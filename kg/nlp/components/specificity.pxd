# Typed locals for the compiled module (kg/compiled.py): the scans of a name's characters run as C loops over its
# code points. The functions declared here are cpdef: called as before from Python, directly in C from this module.
cimport cython


@cython.locals(prev=Py_UCS4, ch=Py_UCS4)
cpdef bint name_like(str name) except -1

@cython.locals(ch=Py_UCS4, start=Py_ssize_t, quote=Py_ssize_t, i=Py_ssize_t, joined=bint)
cpdef list _word_list(str text)

cpdef bint _all_in(list words, group) except -1

cpdef bint _all_lower_in(list words, group) except -1

cpdef bint _short_forms_of(list raw, umbrella) except -1

@cython.locals(w=str)
cpdef bint _tools_and_numbers(list raw, tools) except -1

cpdef bint _data_kinds(list words) except -1

@cython.locals(n=Py_ssize_t, start=Py_ssize_t, end=Py_ssize_t)
cpdef _next_word(str text, Py_ssize_t at)

cpdef _reason(spec, name, label, local)

cpdef bint _equations(name) except -1

cpdef _tails(name)

cpdef bint _before_theory_word(text, m) except -1

cpdef _kind(m, measures, plain=*)

cpdef bint _modifies_next(text, m) except -1

cpdef bint _number_format(text, m) except -1

cpdef bint _verb(text, m) except -1

cpdef bint _tolerance(text, m) except -1

cpdef bint _a_kind(spec, text, start, end) except -1
