# cython: language_level=3
"""Planted damage for the tests of validate() in the 3D core: each kind breaks
one invariant of an index by writing its memory through the core's declared
interface (spatial_hash/_core3d.pxd), which the release build carries no hook for
(built by tests/damage/build.py)."""
from libc.stdint cimport int32_t, uint64_t
from spatial_hash._core3d cimport (D, HierarchicalGrid3D as HierarchicalGrid, Level, Shape,
                                   SpatialIndex3D as SpatialIndex,
                                   UniformGrid3D as UniformGrid)

include "plant.pxi"
