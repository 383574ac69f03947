# The 3D module's classes: what Python sees of them (their names, docstrings
# and methods). Each method is a function of the module, from the file of its
# operation (named beside each group below), bound here; spatial_index.pxi,
# uniform.pxi and hierarchical.pxi hold what the class bodies call.

include "docstrings.pxi"


cdef class SpatialIndex3D:
    """Base of the compiled 3D grids: objects, queries, pairs and batches.

    `UniformGrid3D` and `HierarchicalGrid3D` are its kinds; it is not made directly, and every method
    here is theirs.

    Coordinates, sizes and radii are in world units (floats); boxes are closed, so
    touching counts. Ids are non-negative ints handed out by the index and reused
    after removal; a handle is any object stored with an id (the id itself by
    default), and is what the queries and `pairs` return. ``len(index)`` is the
    number of objects, and ``object_id in index`` whether an id names one.

    Each method checks all of its input before it changes anything, and raises
    as its Raises section says: TypeError where an argument typed as a number
    (x, y, z, width, ...) is not one; ValueError naming the argument for a bad
    number (NaN or infinite coordinates, negative or non-finite sizes and radii)
    or an object the index cannot place (`UniformGrid3D`: a box reaching past 2**30
    cells from the origin; `HierarchicalGrid3D`: a longest side over
    1e150 / sqrt(hierarchy_factor) or a coordinate over 1e160 in magnitude);
    KeyError for an id that names no live object; MemoryError when memory runs
    out (a single-object call then changes nothing, a batch may be partly
    applied).

    An index is not thread-safe: use one per thread. A call made while another
    thread's call holds the index raises RuntimeError instead of corrupting
    memory.
    """

    def __cinit__(self, *args, **kwargs):
        init_index(self)

    def __dealloc__(self):
        free_index(self)

    def __len__(self):
        return self.state.n_live

    def __contains__(self, object_id):
        return names_live_object(self, object_id)

    safe_magnitude = property(safe_magnitude)
    broad_phase_pairs = property(broad_phase_pairs)
    narrow_phase_checks = property(narrow_phase_checks)
    threads = property(threads_of)

    # objects.pxi, object_filters.pxi and api3d/objects.pxi: one object at a time
    insert_box = insert_box
    insert_sphere = insert_sphere
    update_box = update_box
    update_bounds = update_bounds
    update_sphere = update_sphere
    set_filter = set_filter
    set_static = set_static
    is_static = is_static
    filter_of = filter_of
    remove = remove
    clear = clear
    handle = handle
    bounds = bounds
    sphere_of = sphere_of
    ids = ids
    is_colliding = is_colliding

    # queries.pxi, api3d/queries.pxi and api3d/rays.pxi: queries, nearest objects, ray casts
    query_nearby = query_nearby
    query_nearby_at = query_nearby_at
    query_box = query_box
    query_point = query_point
    query_radius = query_radius
    query_swept = query_swept
    query_nearest = query_nearest
    query_nearest_many = query_nearest_many
    raycast = raycast
    raycast_all = raycast_all
    raycast_many = raycast_many
    query_boxes = query_boxes

    # pair_search.pxi: pairs and pair events
    pairs = pairs
    pair_ids = pair_ids
    pair_event_ids = pair_event_ids
    pair_events = pair_events
    end_pairs_of = end_pairs_of
    candidate_ids = candidate_ids
    last_phase_ms = last_phase_ms
    last_pair_pass = last_pair_pass

    # index.pxi, batch_calls.pxi and api3d/batches.pxi: the whole index, and whole arrays at once
    copy_into = copy_into
    validate = validate
    insert_boxes = insert_boxes
    insert_spheres = insert_spheres
    update_boxes = update_boxes
    update_packed = update_packed
    update_aabbs = update_aabbs
    update_spheres = update_spheres
    set_filters = set_filters
    set_statics = set_statics
    remove_many = remove_many


@cython.final
cdef class UniformGrid3D(SpatialIndex3D):
    """UniformGrid3D(cell_size=64.0, origin=(0.0, 0.0, 0.0), large_threshold=4, threads=1)
--

    Uniform spatial hash over integer ids, with a Python handle stored per id.

    Cell (cx, cy, cz) is the cube of side `cell_size` whose corner is
    origin + (cx, cy, cz) * cell_size: a coordinate v lies in cell
    floor((v - origin) / cell_size). Cell coordinates are ints within +-2**30.
    Each object covers every cell its box touches (its cell range); objects
    covering more than `large_threshold` cells on a side live on a large-object
    list instead.

    Parameters
    ----------
    cell_size : float, optional
        Side of a cell in world units, positive and finite (default 64).
    origin : sequence of 3 float or Vector3, optional
        Where cell (0, 0, 0) starts, (x, y, z) in world units (default (0, 0, 0)).
    large_threshold : int, optional
        Cells per side, from 1 to 64 (default 4), beyond which an object goes to
        the large-object list.
    threads : int, optional
        From 1 to 256 (default 1): threads for the pair pass and batch moves.
        The pairs, their order and the counters do not depend on how many.

    Raises
    ------
    ValueError
        Naming a bad argument.
    TypeError
        If `origin` is neither an (x, y, z) triple nor a Vector3.
    MemoryError
        If memory runs out.

    See Also
    --------
    HierarchicalGrid3D : No cell size to tune, for scenes that mix sizes.
    spatial_hash.tuning.suggest : A cell size for the objects' sizes.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=32.0)
    >>> player = grid.insert_box(0, 0, 0, 16, 16, 16, handle="player")
    >>> coin = grid.insert_sphere(20, 8, 8, 4, handle="coin")
    >>> grid.pairs()
    [('player', 'coin')]
    >>> grid.cells_of(player)
    (0, 0, 0, 0, 0, 0)
    """

    def __cinit__(self, cell_size=64.0, origin=(0.0, 0.0, 0.0), large_threshold=4, threads=1):
        init_uniform(self, cell_size, origin, large_threshold, threads)

    def __dealloc__(self):
        free_uniform(self)

    def __repr__(self):
        return uniform_repr(self)

    @property
    def origin_x(self):
        """The x of `origin`, where cell (0, 0, 0) starts, in world units (float, read-only)."""
        return self.cells.origin[0]

    @property
    def origin_y(self):
        """The y of `origin`, where cell (0, 0, 0) starts, in world units (float, read-only)."""
        return self.cells.origin[1]

    @property
    def origin_z(self):
        """The z of `origin`, where cell (0, 0, 0) starts, in world units (float, read-only)."""
        return self.cells.origin[2]

    def cells_of(self, object_id):
        """The range of cells an object's box covers.

        Parameters
        ----------
        object_id : int
            The object's id.

        Returns
        -------
        tuple of int
            (cx0, cy0, cz0, cx1, cy1, cz1): its first and last cells, both
            included.

        Raises
        ------
        KeyError
            For an unknown id.
        RuntimeError
            If another thread's call holds the index.
        """
        return cells_tuple(self, object_id)

    def cell_of(self, x, y, z):
        """The cell containing a point.

        Parameters
        ----------
        x, y, z : float
            The point, in world units.

        Returns
        -------
        tuple of int
            (cx, cy, cz).

        Raises
        ------
        ValueError
            Naming x, y or z if it is not a finite number or lies past 2**30
            cells from the origin.
        """
        return cell_of_point(self, (x, y, z))

    def cell_counts(self):
        """How many objects cover each cell; large objects are not counted.

        Returns
        -------
        dict of tuple to int
            {(cx, cy, cz): number of objects} for every cell covered by at
            least one.

        Raises
        ------
        RuntimeError
            If another thread's call holds the index.
        """
        return cell_counts_of(self)

    is_large = is_large
    stats = uniform_stats


@cython.final
cdef class HierarchicalGrid3D(SpatialIndex3D):
    """HierarchicalGrid3D(hierarchy_factor=2.0, density=0.125, threads=1)
--

    Hierarchical spatial hash grid over integer ids: no cell size to tune.

    A new level gets cells of (longest side x sqrt(hierarchy_factor)); the next
    ones are `hierarchy_factor` times larger or smaller. Each object lives in one
    cell of the smallest level whose cells are at least sqrt(hierarchy_factor)
    times its longest side. Points (no extent) fit any level: they share one,
    chosen for their spacing (most of them alone in its cells) once there are
    a few hundred of them. Pairs are found by looking back over half of each
    cell's neighbourhood within a level and checking upward across levels only,
    on `threads` threads (the result does not depend on how many). Sizes up to
    1e150 and coordinates up to 1e160 (world units) are accepted.

    Parameters
    ----------
    hierarchy_factor : float, optional
        Ratio of the cell sizes of neighbouring levels, from 1.1 to 1e6 (default 2).
    density : float, optional
        Objects per table cell, in (0, 64] (default 0.125), past which a level's
        table doubles its side.
    threads : int, optional
        From 1 to 256 (default 1): threads for batch moves and the pair pass.

    Raises
    ------
    ValueError
        Naming a bad argument.

    See Also
    --------
    UniformGrid3D : One cell size, for objects of about one size.

    Examples
    --------
    >>> from spatial_hash import HierarchicalGrid3D
    >>> grid = HierarchicalGrid3D()
    >>> castle = grid.insert_box(0, 0, 0, 400, 300, 200, handle="castle")
    >>> arrow = grid.insert_box(390, 290, 190, 2, 2, 2, handle="arrow")
    >>> grid.pairs()
    [('castle', 'arrow')]
    >>> grid.level_of_id(arrow)[0] < grid.level_of_id(castle)[0]     # a finer level
    True
    """

    def __cinit__(self, hierarchy_factor=2.0, density=0.125, threads=1):
        init_hierarchical(self, hierarchy_factor, density, threads)

    def __dealloc__(self):
        free_hierarchical(self)

    def __repr__(self):
        return hierarchical_repr(self)

    level_of_id = level_of_id
    stats = hierarchical_stats


# The functions are the classes' methods now, not the module's.
del (safe_magnitude, broad_phase_pairs, narrow_phase_checks, threads_of)
del (insert_box, insert_sphere, update_box, update_bounds, update_sphere, set_filter, set_static, is_static, filter_of,
     remove, clear, handle, bounds, sphere_of, ids, is_colliding)
del (query_nearby, query_nearby_at, query_box, query_point, query_radius, query_swept,
     query_nearest, query_nearest_many, raycast, raycast_all, raycast_many, query_boxes)
del (pairs, pair_ids, pair_event_ids, pair_events, end_pairs_of, candidate_ids, last_phase_ms,
     last_pair_pass)
del (copy_into, validate, insert_boxes, insert_spheres, update_boxes, update_packed, update_aabbs, update_spheres,
     set_filters, set_statics, remove_many)
del (is_large, uniform_stats, level_of_id, hierarchical_stats)
