"""The compiled 3D core of spatial_hash: every hot loop lives here, on C types only.

Built from the same files as the 2D core, for 3 axes (core.pxi says how); this
module adds what Python sees of 3D: its words, calls and classes (api3d/).
Its classes' fields are declared in spatial_hash/_core3d.pxd, which other Cython
code can cimport to reach the same memory.
"""
# The words of this dimension in messages.
cdef str VECTOR = "Vector3"           # Godot's vector type
cdef str A_BOUNDS = "an AABB"         # Godot's box type, with its article
cdef str RECTS = "boxes"              # the box rows of the batch calls
cdef str CIRCLES = "spheres"

include "core.pxi"
include "api3d/convert.pxi"
include "api3d/objects.pxi"
include "api3d/queries.pxi"
include "api3d/rays.pxi"
include "api3d/batches.pxi"
include "api3d/classes.pxi"
