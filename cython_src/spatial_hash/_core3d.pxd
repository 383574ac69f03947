# The 3D core's declared interface: its classes and their fields (the structs
# of contract.pxi, which declares everything else the core's code shares).
include "contract.pxi"


cdef class SpatialIndex3D:
    cdef IndexState state
    cdef list handles           # per id up to the last given a handle of its own: its handle,
                                # None where the handle is the id (which then costs no int
                                # object of its own); ids past its end have none
    cdef dict departed          # (id, generation) -> handle, of objects removed since
    cdef readonly Py_ssize_t hits
    """Overlapping pairs the last pair pass found (int)."""


# The classes under the names both dimensions' code uses, so that what is
# written once (the include files) can type its arguments.
ctypedef SpatialIndex3D SpatialIndexD


cdef class UniformGrid3D(SpatialIndex3D):
    cdef UniformCells cells
    cdef readonly double cell_size
    """Side of a cell, in world units (float, read-only)."""
    cdef readonly int large_threshold
    """Cells per side beyond which an object goes to the large-object list (int, read-only)."""


cdef class HierarchicalGrid3D(SpatialIndex3D):
    cdef Hierarchy hierarchy
    cdef readonly double hierarchy_factor
    """Ratio of the cell sizes of neighbouring levels (float, read-only)."""
    cdef readonly double density
    """Objects per table cell past which a level's table doubles its side (float, read-only)."""


ctypedef UniformGrid3D UniformGridD
ctypedef HierarchicalGrid3D HierarchicalGridD
