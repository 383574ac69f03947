"""The compiled 2D core of spatial_hash: every hot loop lives here, on C types only.

Built from the same files as the 3D core, for 2 axes (core.pxi says how); this
module adds what Python sees of 2D: its words, calls and classes (api2d/).
Its classes' fields are declared in spatial_hash/_core.pxd, which other Cython
code can cimport to reach the same memory.
"""
# The words of this dimension in messages.
cdef str VECTOR = "Vector2"           # Godot's vector type
cdef str A_BOUNDS = "a Rect2"         # Godot's box type, with its article
cdef str RECTS = "rects"              # the box rows of the batch calls
cdef str CIRCLES = "circles"

include "core.pxi"
include "api2d/convert.pxi"
include "api2d/objects.pxi"
include "api2d/queries.pxi"
include "api2d/rays.pxi"
include "api2d/batches.pxi"
include "api2d/classes.pxi"
