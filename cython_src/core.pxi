# What both dimensions' modules (_core.pyx, _core3d.pyx) are made of, in the
# order they are read. The 2D and the 3D core are one source, compiled for D
# axes (the C macro SPATIAL_HASH_DIMENSION, kernels/dimension.hpp): C
# declarations, then one file per concept (narrow-phase shapes, input checks,
# collision layers, objects, queries and ray casts, the pair search, batches,
# the hooks by which each grid does things its own way, the cell lists, the
# uniform and the hierarchical grid, the batch move compiled for each grid,
# and the check of every invariant behind validate()). What differs per
# dimension is what Python sees: the names and arguments of the calls that
# take one number per axis, their docstrings, and the classes, which each
# module adds from api2d/ or api3d/. The structs and the classes' fields are
# declared once, in contract.pxi.
from libc.stdlib cimport calloc, malloc, qsort, realloc, free
from libc.string cimport memcmp, memcpy, memset

cimport cython
from cpython.list cimport PyList_GET_SIZE, PyList_New
from cpython.object cimport PyObject

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

cdef extern from "threads.hpp" namespace "spatial_hash" nogil:
    # Loops over items on up to `threads` threads, the C++ standard library's
    # (see the header): work(context, first, end) for chunks of `chunk` items.
    ctypedef Py_ssize_t (*ChunkWork)(void* context, Py_ssize_t first, Py_ssize_t end) noexcept nogil
    const Py_ssize_t PARALLEL_WORK      # fewer items than this: one thread
    Py_ssize_t for_each_chunk(int threads, Py_ssize_t n, Py_ssize_t chunk, ChunkWork work, void* context)

cdef extern from "Python.h":
    PyObject** PySequence_Fast_ITEMS(object)
    void incref "Py_INCREF" (PyObject*)
    void list_put "PyList_SET_ITEM" (object, Py_ssize_t, PyObject*)

include "shapes.pxi"
include "inputs.pxi"
include "batch_rows.pxi"
include "convert.pxi"
include "arrays.pxi"
include "layers.pxi"
include "pairs.pxi"
include "nearest.pxi"
include "memory.pxi"
include "objects.pxi"
include "object_filters.pxi"
include "queries.pxi"
include "ray_casts.pxi"
include "changed_pairs.pxi"
include "pair_search.pxi"
include "index.pxi"
include "batch_calls.pxi"
include "spatial_index.pxi"
include "hooks.pxi"
include "occupancy.pxi"
include "cell_lists.pxi"
include "windows.pxi"
include "uniform.pxi"
include "uniform_hooks.pxi"
include "uniform_pairs.pxi"
include "hierarchical.pxi"
include "hierarchical_hooks.pxi"
include "hierarchical_pairs.pxi"
include "points_level.pxi"
include "batch_moves.pxi"
include "validation.pxi"

# The mask with every layer: the default mask of objects and queries.
ALL_LAYERS = EVERY_LAYER

# Bytes per struct whose size the layout is designed around, so that a test can
# hold them to it: a change that makes a Shape or a CellRange grow fails there
# instead of only slowing the hot loops.
STRUCT_SIZES = {"Shape": sizeof(Shape), "CellRange": sizeof(CellRange)}

# A loop over fewer objects than this runs on one thread whatever `threads` says.
THREADED_FROM = PARALLEL_WORK
