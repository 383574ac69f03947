# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled 2D core of spatial_hash: every hot loop lives here, on C types only.

The 2D and the 3D core are one source, compiled for D axes (the C macro
SPATIAL_HASH_DIMENSION, kernels/dimension.hpp): core.pxi includes one file per
concept (narrow-phase shapes, input checks, collision layers, objects, queries
and ray casts, the pair search, batches, the hooks by which each grid does
things its own way, the cell lists, the uniform and the hierarchical grid, the
batch move compiled for each grid, and the check of every invariant behind
validate()). What differs per dimension is what Python sees: the names and
arguments of the calls that take one number per axis, their docstrings, and
the classes, in api2d/. The structs and the classes' fields are declared in
spatial_hash/_core.pxd (contract.pxi), which other Cython code can cimport to
reach the same memory.
"""
# The words of this dimension in messages.
cdef str VECTOR = "Vector2"         # Godot's vector type
cdef str A_BOUNDS = "a Rect2"      # Godot's box type, with its article
cdef str RECTS = "rects"          # the box rows of the batch calls
cdef str CIRCLES = "circles"

include "core.pxi"
include "api2d/convert.pxi"
include "api2d/objects.pxi"
include "api2d/queries.pxi"
include "api2d/batches.pxi"
include "api2d/classes.pxi"
