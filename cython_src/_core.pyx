# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of spatial_hash: every hot loop lives here, on C types only.

One module built from one include file per concept: narrow-phase shapes, input
checks, collision layers, the pair output, nearest searches; the index both
grids share, in layers (objects, queries, the pair search, then batches and
validation); cells as lists in a wrapped table, the window walks of a query;
the uniform grid and its pair pass; the hierarchical grid, its pair pass and
its points' level; and the batch move compiled for each grid.
The structs the objects hold and the C layout of the classes (fields and C
methods) are declared in spatial_hash/_core.pxd, which other Cython code can
cimport to reach the same memory.
"""
from libc.stdlib cimport calloc, malloc, qsort, realloc, free
from libc.string cimport memcmp, memcpy, memset

cimport cython
from cython.parallel cimport prange
from cpython.list cimport PyList_New
from cpython.object cimport PyObject
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_4BYTE_KIND

import numpy as np
from libc.math cimport INFINITY, NAN, ceil, exp, fabs, floor, fmax, fmin, frexp, isfinite, isnan, log, sqrt
from libc.stdint cimport INT32_MIN, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

cdef extern from *:
    """
    #define prefetch(p) __builtin_prefetch((p))
    #define count_trailing_zeros(x) __builtin_ctzll((x))
    #define count_ones(x) __builtin_popcountll((x))
    """
    void prefetch(const void* p) noexcept nogil
    int count_trailing_zeros(unsigned long long x) noexcept nogil
    int count_ones(unsigned long long x) noexcept nogil

cdef extern from *:
    """
    #ifdef _WIN32
    #include <windows.h>
    static double now_ms(void) {
        LARGE_INTEGER frequency, count;
        QueryPerformanceFrequency(&frequency);
        QueryPerformanceCounter(&count);
        return 1e3 * (double)count.QuadPart / (double)frequency.QuadPart;
    }
    #else
    #include <time.h>
    static double now_ms(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
    }
    #endif
    """
    double now_ms() noexcept nogil     # a monotonic clock, in milliseconds

cdef extern from "Python.h":
    PyObject** PySequence_Fast_ITEMS(object)
    void incref "Py_INCREF" (PyObject*)
    void list_put "PyList_SET_ITEM" (object, Py_ssize_t, PyObject*)

include "shapes.pxi"
include "inputs.pxi"
include "convert.pxi"
include "arrays.pxi"
include "layers.pxi"
include "pairs.pxi"
include "nearest.pxi"
include "objects.pxi"
include "queries.pxi"
include "pair_search.pxi"
include "index.pxi"
include "cell_lists.pxi"
include "windows.pxi"
include "uniform.pxi"
include "uniform_pairs.pxi"
include "hierarchical.pxi"
include "hierarchical_pairs.pxi"
include "points_level.pxi"
include "batch_moves.pxi"

# The mask with every layer: the default mask of objects and queries.
ALL_LAYERS = EVERY_LAYER

# Bytes per struct whose size the layout is designed around, so that a test can
# hold them to it: a change that makes a Shape or a CellRange grow fails there
# instead of only slowing the hot loops.
STRUCT_SIZES = {"Shape": sizeof(Shape), "CellRange": sizeof(CellRange)}
