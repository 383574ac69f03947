"""Query results as text, the form in which a Godot plugin hands them to
GDScript in one piece (where String.to_utf32_buffer() reads them back natively):
a list or a packed array costs 1 to 5 us more per call there (py4godot,
pythonscript). Compiled, because a Godot game makes thousands of queries a
frame, and a Python loop over the ids would take about ten times as long."""
from cpython.unicode cimport PyUnicode_4BYTE_KIND, PyUnicode_FromKindAndData
from libc.stdlib cimport free, malloc

cdef enum:
    # The first character of every query result's text, so that GDScript can
    # tell it from an error message.
    MARK = 1
    # The largest id that has a character: chr(id + 2) is then never a
    # surrogate, which no plugin's conversion to a Godot String takes.
    TEXT_ID_LIMIT = 0xD7FD
    TEXT_ON_STACK = 64

IDS_MARK = chr(MARK)


def ids_text(list ids):
    """`ids` (ints from 0 to 0xD7FD) as a str: IDS_MARK, then chr(id + 2) for
    each id; None if an id is out of that range (the caller then sends them
    another way)."""
    cdef Py_ssize_t n = len(ids), k
    cdef Py_UCS4 on_stack[TEXT_ON_STACK]
    cdef Py_UCS4* text = on_stack
    cdef long v
    if n + 1 > TEXT_ON_STACK:
        text = <Py_UCS4*>malloc((n + 1) * sizeof(Py_UCS4))
        if text == NULL:
            raise MemoryError()
    try:
        text[0] = MARK
        for k in range(n):
            v = ids[k]
            if v < 0 or v > TEXT_ID_LIMIT:
                return None
            text[k + 1] = <Py_UCS4>(v + 2)
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text, n + 1)
    finally:
        if text != on_stack:
            free(text)
