# Typed locals for the compiled module (kg/compiled.py): the searches over a sentence's mentions compare offsets as C
# integers. The functions declared here are cpdef: called as before from Python, directly in C from this module.
cimport cython


@cython.locals(gap=Py_ssize_t, least=Py_ssize_t)
cpdef _nearest(list mentions, Py_ssize_t pos, str label, bint after, Py_ssize_t limit)
