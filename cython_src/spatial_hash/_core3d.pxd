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


# The classes under the names both dimensions' code uses, so that what is
# written once (the include files) can type its arguments.
ctypedef SpatialIndex3D SpatialIndexD


cdef class UniformGrid3D(SpatialIndex3D):
    cdef UniformCells cells
    cdef readonly double cell_size
    cdef readonly int large_threshold


cdef class HierarchicalGrid3D(SpatialIndex3D):
    cdef Hierarchy hierarchy
    cdef readonly double hierarchy_factor
    cdef readonly double density


ctypedef UniformGrid3D UniformGridD
ctypedef HierarchicalGrid3D HierarchicalGridD
