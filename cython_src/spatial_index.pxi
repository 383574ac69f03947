# What the public index classes do that is not an operation: making and freeing
# an index, its length and membership, and the properties both dimensions share.
# The classes themselves (SpatialIndex and the grids) are declared once per
# dimension (api2d/classes.pxi, api3d/classes.pxi): each binds the operations'
# functions, which live in the operations' own files, as its methods (a
# function of the module bound in a class body is a method like any other, at
# the same cost).


cdef int init_index(SpatialIndexD self) except -1:
    self.handles = []
    self.departed = {}
    self.state.threads = 1
    return 0


cdef void free_index(SpatialIndexD self) noexcept:
    free(self.state.body)
    free(self.state.named)
    free(self.state.live)
    free(self.state.filter)
    free(self.state.free_ids)
    free(self.state.out)
    free(self.state.generation)
    free(self.state.nearby)
    free(self.state.batch_results)
    free(self.state.ray_hits)
    del self.state.nearest_packs
    free(self.state.found.ids)
    free(self.state.touching)
    free(self.state.seen)
    free(self.state.next)
    free(self.state.prev)
    free(self.state.home)
    free(self.state.slot)
    free(self.state.row_state)
    free(self.state.marks)
    free(self.state.changed)


cdef bint names_live_object(SpatialIndexD self, object object_id):
    """`object_id in index`: is it an int naming a live object?"""
    return isinstance(object_id, int) and 0 <= object_id < self.state.obj_hi \
        and self.state.live[<Py_ssize_t>object_id]


def safe_magnitude(SpatialIndexD self):
    """Magnitude within which every number of a shape is placed as it is (float).

    A $box box or a $round (centre, radius) whose numbers are all within
    this in magnitude, sizes not negative, is never refused: an owner that
    checks that much can hold calls back and apply them later as a batch
    that cannot fail. 0.0 if nothing is that safe.
    """
    return _safe_magnitude(self)


def broad_phase_pairs(SpatialIndexD self):
    """Candidate pairs the last pair pass met (int).

    A uniform grid counts the cells its pairs shared when this is first read
    after a pass, from the cell ranges the pass saw: for tests, tuning and
    monitors, not for a frame's inner loop. Reading it raises RuntimeError if
    another thread's call holds the index.
    """
    _counted(self)
    return self.state.broad_phase_count


def narrow_phase_checks(SpatialIndexD self):
    """Distinct pairs the last pair pass tested exactly (int).

    A uniform grid counts them, like `broad_phase_pairs`, when this is first
    read after a pass. Reading it raises RuntimeError if another thread's call
    holds the index.
    """
    _counted(self)
    return self.state.narrow_phase_count


def threads_of(SpatialIndexD self):
    """Threads the pair pass and batch moves may use (int, read-only).

    The grids take it as an argument; the pairs, their order and the counters
    do not depend on it.
    """
    return self.state.threads
