# The core's declared interface: the structs its objects hold and the C-level
# layout of its classes (their fields and C methods). Code that cimports it
# (the tests' damage helper) sees the same memory the core uses.
cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t

ctypedef struct Box:
    double minx
    double miny
    double maxx
    double maxy


ctypedef struct Circle:
    double x
    double y
    double r


ctypedef struct Shape:
    # One object's shape, all that the narrow phase reads of it, in 32 bytes: a
    # box as (minx, miny, maxx, maxy), a circle as (x, y, r, NaN). A circle's box
    # is built by circle_bounds wherever it is needed, so every test sees the
    # same box for it.
    double p0
    double p1
    double p2
    double p3


ctypedef struct RayHit:
    double fraction     # of the way from the ray's start to its end
    double x            # the hit point
    double y
    double nx           # the surface normal there; (0, 0) if the ray starts inside
    double ny
    int32_t id


ctypedef struct CellRange:
    int32_t x0
    int32_t y0
    int32_t x1
    int32_t y1


cdef enum InputCheck:
    INPUT_OK = 0
    BAD_X
    BAD_Y
    BAD_WIDTH
    BAD_HEIGHT
    BAD_RADIUS
    FAR_X
    FAR_Y
    OUT_OF_RANGE        # beyond the sizes or distances an index can place
    TOO_LONG            # a path whose length overflows


ctypedef struct Filter:
    uint32_t layer
    uint32_t mask


ctypedef struct PairList:
    int32_t* ids        # two per pair
    Py_ssize_t n        # pairs kept
    Py_ssize_t cap      # int32s allocated


cdef enum QueryKind:
    Q_CELLS = 0         # everything sharing a cell with the query (the GDScript original's answer)
    Q_BOX = 1           # exact overlap with a closed box
    Q_CIRCLE = 2        # exact overlap with a disc
    Q_SWEPT = 3         # exact overlap with a box swept along (dx, dy)


ctypedef struct Query:
    int kind
    Box box             # the query box (for Q_CIRCLE its bounds; Q_SWEPT: at t = 0)
    Circle circle
    double dx
    double dy
    uint32_t layers     # the query's mask: only objects on one of these layers count
    bint check_layers   # False where every object counts (the mask has all bits and
                        # every object is on a layer)
    CellRange cells     # filled by the index's _prepare_query


ctypedef struct Nearby:
    double distance
    int32_t id


ctypedef struct Touch:
    # A pair pair_events reported: its ids a < b as a << 32 | b, and their
    # generations then (a removed object's id may come back as another object).
    int64_t key
    uint32_t gen_a
    uint32_t gen_b


# The phases of a frame that last_phase_ms() reports.
cdef enum:
    PHASE_MOVES = 0     # a batch update: new bodies of the objects that stay put
    PHASE_RELINKS = 1   # a batch update: moving the others between cells
    PHASE_PAIRS = 2     # the pair pass
    PHASES = 3


ctypedef struct Rows:
    # A batch's rows as plain pointers (cheap to hand to a loop on many threads):
    # rect rows (x, y, w, h), or circle centers (x, y) with one radius each, or
    # boxes as 32-bit (x, y) corners and (w, h) sizes (Godot's Vector2 arrays).
    const double* values
    Py_ssize_t width
    const double* radii     # NULL for rects
    const float* corners    # NULL unless boxes come as 32-bit corners and sizes
    const float* sizes


# The index both grids share, in layers, each a class of its own file:
# objects.pxi, queries.pxi, pair_search.pxi, index.pxi.
cdef class _ObjectTable:
    cdef Shape* body            # per id: its shape
    cdef uint32_t* stamp
    cdef uint8_t* live          # per id: 1 while it names an object
    cdef Filter* filter         # per id: its collision layer and mask
    cdef Py_ssize_t n_filtered  # live objects whose filter is not the default: while
                                # there are none, the pair pass skips the filter test
    cdef int32_t* free_ids
    cdef Py_ssize_t obj_cap, obj_hi, n_live, n_free
    cdef list handles
    cdef uint32_t cur_stamp
    cdef int32_t* out
    cdef Py_ssize_t out_n, out_cap
    cdef uint32_t* generation   # per id: bumped when its object is removed
    cdef bint busy
    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil
    cdef int _check_placement(self, const Box* b) noexcept nogil
    cdef double _safe_magnitude(self) noexcept nogil
    cdef int _attach(self, int32_t i) noexcept nogil
    cdef int _move(self, int32_t i, const Shape* b) noexcept nogil
    cdef void _detach(self, int32_t i) noexcept nogil
    cdef void _reset(self) noexcept nogil
    cdef void _changed(self) noexcept nogil
    cdef int _prepare_query(self, Query* q) noexcept nogil
    cdef void _collect(self, Query* q) noexcept nogil
    cdef double _search_start(self) noexcept nogil
    cdef int _idle(self) except -1
    cdef int _claim(self) except -1
    cdef int _reserve_objects(self, Py_ssize_t need) noexcept nogil
    cdef inline uint32_t _next_stamp(self) noexcept nogil
    cdef inline void _aim(self, Query* q, int kind, uint32_t layers) noexcept nogil
    cdef inline bint _accept(self, const Query* q, int32_t i) noexcept nogil
    cdef inline void _take(self, const Query* q, int32_t i) noexcept nogil
    cdef inline void _offer(self, const Query* q, int32_t i, uint32_t stamp) noexcept nogil
    cdef int _check_body(self, int code, const Shape* b, str where, double x, double y, double a, double c) except -1
    cdef double _cell_hint(self)
    cdef int32_t _add(self, object handle, const Shape* b, const Filter* f) except -2
    cdef inline void _set_filter(self, int32_t i, const Filter* f) noexcept nogil
    cdef int32_t _check_id(self, object object_id) except -1
    cdef int _update_box(self, object_id, double x, double y, double width, double height) except -1
    cdef void _release(self, int32_t i) noexcept nogil
    cdef void _empty(self) noexcept nogil
    cdef int _depart(self, Py_ssize_t i) except -1
    cdef int _broken(self, str what) except -1


cdef class _Queries(_ObjectTable):
    cdef RayHit* ray_hits       # a ray cast's hits, sorted
    cdef Py_ssize_t ray_hits_cap
    cdef Nearby* nearby         # a nearest-object search's candidates, sorted
    cdef Py_ssize_t nearby_cap
    cdef char* batch_results    # a batch query's results so far (nearest, rays, boxes)
    cdef Py_ssize_t batch_results_cap
    cdef double nearby_reach    # where the next search starts: a little past the last
                                # one's farthest answer, as nearby points tend to want
    cdef list _run_query(self, Query* q, str where, double x, double y, double a, double c)
    cdef list _out_handles(self)
    cdef list _box_query(self, int kind, double x, double y, double w, double h, object mask)
    cdef Py_ssize_t _nearest(self, double x, double y, Py_ssize_t k, double limit, uint32_t layers) noexcept nogil
    cdef Py_ssize_t _nearest_in_order(self, const double[:, ::1] rows, Py_ssize_t want, double max_distance, uint32_t layers, int64_t[::1] off) noexcept nogil
    cdef Py_ssize_t _nearest_in_visiting_order(self, const double[:, ::1] rows, Py_ssize_t want, double max_distance, uint32_t layers, int64_t[::1] off) noexcept nogil
    cdef int _ray_query(self, double x0, double y0, double x1, double y1, uint32_t layers, Query* q) noexcept nogil
    cdef int _ray_error(self, int code, str where, double x0, double y0, double x1, double y1) except -1
    cdef Py_ssize_t _ray_hits(self, Query* q) noexcept nogil
    cdef Py_ssize_t _cast(self, double x0, double y0, double x1, double y1, object mask) except -1
    cdef tuple _hit_tuple(self, Py_ssize_t j)
    cdef void* _batch_room(self, Py_ssize_t size) noexcept nogil


cdef class _PairSearch(_Queries):
    cdef PairList found          # the last pair pass's pairs (or candidates)
    cdef Touch* touching        # the pairs the last pair_events reported, by key
    cdef Touch* seen            # and this call's (the two swap after each call)
    cdef Py_ssize_t n_touching, touching_cap, seen_cap
    cdef dict departed          # (id, generation) -> handle, of objects removed since
    cdef bint keep_candidates   # the pair pass keeps every pair it tests
    cdef double phase_ms[PHASES]
    cdef Py_ssize_t broad_phase_count   # broad_phase_pairs, once _resolve_broad_phase ran
    cdef bint broad_phase_pending       # ... which it has not since the last pair pass
    cdef readonly Py_ssize_t narrow_phase_checks
    cdef readonly Py_ssize_t hits
    cdef int _find_pairs(self) noexcept nogil
    cdef int _resolve_broad_phase(self) except -1
    cdef int _pairs_now(self, bint candidates=*) except -1
    cdef object _found_array(self, object out)
    cdef object _pair_changes(self)
    cdef object _handle_then(self, int32_t i, uint32_t generation)
    cdef int _depart(self, Py_ssize_t i) except -1


cdef class SpatialIndex(_PairSearch):
    cdef int _validate_ids(self) except -1
    cdef int _validate_placement(self) except -1
    cdef int _check_ids(self, const int64_t[::1] ids) except -1
    cdef int _validate_rects(self, const double[:, ::1] rows) except -1
    cdef int _validate_circles(self, const double[:, ::1] centers, const double[::1] radii) except -1
    cdef object _new_ids(self, Py_ssize_t n, object handles)
    cdef int _commit_new(self, const int64_t[::1] ids, Py_ssize_t placed, object handles, const uint32_t[::1] layers, const uint32_t[::1] masks) except -1
    cdef Py_ssize_t _attach_rows(self, const int64_t[::1] ids, const double[:, ::1] rows, const double[::1] radii) noexcept nogil
    cdef int _move_rows(self, const int64_t[::1] ids, const Rows* batch) noexcept nogil
    cdef inline void _phase_times(self, double started, double settled) noexcept nogil
    cdef object _insert_rows(self, const double[:, ::1] rows, const double[::1] radii, handles, layers, masks)
    cdef int _update_rows(self, ids, Py_ssize_t n, const Rows* batch) except -1


ctypedef struct Level:
    double cell
    double inv              # 1 / cell: every cell coordinate is floor(x * inv)
    int32_t exponent        # cell == base * factor ** exponent (via exp and log)
    int32_t wbits           # the table is W x W cells, W = 1 << wbits
    int64_t mask            # W - 1
    int32_t* head           # per cell: first object of its list, -1 if empty
    int32_t* members        # the level's objects in no order (swap-remove)
    Py_ssize_t n
    Py_ssize_t cap
    double reach            # hierarchical: no object of the level has been longer than this
    uint64_t* occupied      # one bit per cell: does its list hold anything?
    # Filled by the pair pass: the level's shapes and ids packed in cell order, so
    # neighbour tests read contiguous memory. The objects of cells c0 .. c1 are
    # packed[run_begin(c0) : run_begin(c1 + 1)], run_begin(c) being cell_start at
    # the number of occupied cells before c; word_rank[w] counts the occupied
    # cells before occupancy word w, so that number is a popcount away and the
    # lookups stay as compact as the objects, however sparse the table. A row's
    # neighbouring cells are thus one run, found without testing each cell.
    Shape* packed
    int32_t* packed_id
    Filter* packed_filter   # packed only while some object has a filter of its own
    int32_t* cell_start
    uint32_t* word_rank
    Py_ssize_t packed_cap
    Py_ssize_t circles      # how many of the packed shapes are circles
    Py_ssize_t packed_filter_cap
    Py_ssize_t cell_start_cap
    Py_ssize_t word_rank_cap
    # Also filled by the pair pass, for levels with more objects in finer levels
    # than their own (cover_bits is 0 for the others): one bit per sub-cell
    # (COVER_SPLIT per cell side, wrapped into a square table of 1 << cover_bits
    # per side) set where some object's box reaches. A finer object whose
    # sub-cells are all clear can meet none of the level's objects, so its
    # upward search skips the level.
    uint64_t* cover
    Py_ssize_t cover_cap
    int32_t cover_bits
    double cover_inv


cdef class _CellLists(SpatialIndex):
    cdef int32_t* next          # the next object on the same cell's list, -1 at its end
    cdef int32_t* prev          # the one before, -1 at its head
    cdef int32_t* home          # the table index of its home cell
    cdef int32_t* slot          # its index in its level's members
    cdef int threads            # the hierarchical grid's option; 0 (one thread) in the uniform grid
    cdef Py_ssize_t growths     # tables grown so far: a batch move's noted homes go stale
    cdef int32_t* row_state     # per row of a batch move: its new home, or -1
    cdef Py_ssize_t row_state_cap
    cdef int _grow_lists(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil
    cdef int32_t _home(self, const Level* L, int32_t i) noexcept nogil
    cdef inline void _push_cell(self, Level* L, int32_t i, int32_t cell) noexcept nogil
    cdef inline void _pop_cell(self, Level* L, int32_t i) noexcept nogil
    cdef inline void _move_cell(self, Level* L, int32_t i, int32_t cell) noexcept nogil
    cdef int _reserve_member(self, Level* L) noexcept nogil
    cdef inline void _add_member(self, Level* L, int32_t i) noexcept nogil
    cdef inline void _drop_member(self, Level* L, int32_t i) noexcept nogil
    cdef int _resize(self, Level* L, int32_t bits) noexcept nogil
    cdef inline bint _serial(self, Py_ssize_t work) noexcept nogil
    cdef Level* _level_of(self, int32_t i) noexcept nogil
    cdef int32_t _settle(self, int32_t i, const Shape* b) noexcept nogil
    cdef int _pack(self, Level* L, int threads) noexcept nogil
    cdef inline const Filter* _own_filter(self, const Level* L, Py_ssize_t u) noexcept nogil
    cdef int _check_lists(self, const Level* L, str name) except -1


cdef class UniformGrid(_CellLists):
    cdef readonly double cell_size
    cdef readonly double origin_x
    cdef readonly double origin_y
    cdef readonly int large_threshold
    cdef double inv_cell
    cdef bint exact_inverse
    cdef Level table            # the small objects, each at home in one cell
    cdef int32_t min_wbits      # the table is wider than any window of home cells
    cdef CellRange* range       # per object: the cells its box covers
    cdef int32_t* large         # the large objects in no order; slot[i] is i's index
    cdef Py_ssize_t n_large
    cdef int32_t span_x
    cdef int32_t span_y
    cdef CellRange* packed_range    # the pair pass's: the table's ranges in packed order
    cdef Py_ssize_t packed_range_cap
    cdef Py_ssize_t packed_n        # how many it packed
    cdef bint exact_homes           # its windows of the wrapped table hold only homes in
                                    # the world cells they name (set by pack_ranges)
    cdef int32_t* meeting           # the pair pass's meeting pairs of packed objects
    cdef Py_ssize_t meeting_cap
    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil
    cdef int32_t _home(self, const Level* L, int32_t i) noexcept nogil
    cdef double _cell_hint(self)
    cdef double _search_start(self) noexcept nogil
    cdef int _check_placement(self, const Box* b) noexcept nogil
    cdef double _safe_magnitude(self) noexcept nogil
    cdef inline int32_t _placed_cell(self, double v, double origin) noexcept nogil
    cdef inline void _placed_range(self, const Shape* s, CellRange* r) noexcept nogil
    cdef inline bint _is_large_range(self, const CellRange* cells) noexcept nogil
    cdef inline void _widen_spans(self, const CellRange* cells) noexcept nogil
    cdef int _link(self, int32_t i) noexcept nogil
    cdef void _unlink(self, int32_t i) noexcept nogil
    cdef int _attach(self, int32_t i) noexcept nogil
    cdef void _detach(self, int32_t i) noexcept nogil
    cdef int _move_rows(self, const int64_t[::1] ids, const Rows* batch) noexcept nogil
    cdef Level* _level_of(self, int32_t i) noexcept nogil
    cdef int32_t _settle(self, int32_t i, const Shape* b) noexcept nogil
    cdef int _move(self, int32_t i, const Shape* b) noexcept nogil
    cdef void _reset(self) noexcept nogil
    cdef int _prepare_query(self, Query* q) noexcept nogil
    cdef inline void _prefetch_list(self, int32_t i) noexcept nogil
    cdef inline void _visit_list(self, const Query* q, int32_t i) noexcept nogil
    cdef inline void _visit_lists(self, const Query* q, const int32_t* first, Py_ssize_t n) noexcept nogil
    cdef void _collect(self, Query* q) noexcept nogil
    cdef int _find_pairs(self) noexcept nogil
    cdef int _resolve_broad_phase(self) except -1
    cdef int _validate_placement(self) except -1


ctypedef struct PairChunk:
    # A stretch of one level's occupancy words (w0 .. w1-1) and what its pair
    # search found; the buffer is kept from frame to frame.
    Py_ssize_t rank          # the level's place in `order`
    Py_ssize_t w0
    Py_ssize_t w1
    PairList found
    bint keep_all            # keep every pair tested: the index's keep_candidates
    Py_ssize_t tested
    Py_ssize_t filtered_out  # candidates whose filters do not pass: never tested
    int failed
    int64_t* passed          # scratch of the upward search: per coarser level, the
                             # objects its cover let through
    Py_ssize_t passed_cap


cdef class HierarchicalGrid(_CellLists):
    cdef readonly double hierarchy_factor
    cdef readonly double density
    cdef double sqrt_factor
    cdef double log_factor
    cdef double log_base
    cdef bint has_base
    cdef Level* levels
    cdef int32_t* order         # level indices by ascending cell size
    cdef Py_ssize_t n_levels, levels_cap, order_cap
    cdef int32_t* level_of
    cdef PairChunk* chunks
    cdef Py_ssize_t chunks_cap, chunks_ready
    cdef int32_t point_exponent     # the level of points (objects of no extent), once
    cdef bint has_point_level       # chosen for their spacing
    cdef bint spacing_due           # a table grew since the points' level was judged
    cdef inline double _cell_of_exponent(self, int32_t exponent) noexcept nogil
    cdef inline double _need(self, const Box* b) noexcept nogil
    cdef int32_t _exponent_for(self, const Box* b) noexcept nogil
    cdef int32_t _level_index(self, int32_t exponent) noexcept nogil
    cdef inline int32_t _cell_index(self, const Level* L, const Box* b) noexcept nogil
    cdef int32_t _home(self, const Level* L, int32_t i) noexcept nogil
    cdef void _enter_level(self, int32_t level, int32_t i) noexcept nogil
    cdef void _leave_level(self, int32_t i) noexcept nogil
    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil
    cdef double _search_start(self) noexcept nogil
    cdef int _check_placement(self, const Box* b) noexcept nogil
    cdef double _safe_magnitude(self) noexcept nogil
    cdef int _attach(self, int32_t i) noexcept nogil
    cdef inline bint _fits(self, const Level* L, const Box* box) noexcept nogil
    cdef int _move(self, int32_t i, const Shape* b) noexcept nogil
    cdef int32_t _settle(self, int32_t i, const Shape* b) noexcept nogil
    cdef int _move_rows(self, const int64_t[::1] ids, const Rows* batch) noexcept nogil
    cdef int32_t _natural_exponent(self, double need) noexcept nogil
    cdef void _changed(self) noexcept nogil
    cdef Level* _level_of(self, int32_t i) noexcept nogil
    cdef void _detach(self, int32_t i) noexcept nogil
    cdef void _reset(self) noexcept nogil
    cdef inline void _prefetch_list(self, int32_t i) noexcept nogil
    cdef inline void _visit_list(self, const Query* q, int32_t i) noexcept nogil
    cdef inline void _visit_lists(self, const Query* q, const int32_t* first, Py_ssize_t n) noexcept nogil
    cdef void _collect(self, Query* q) noexcept nogil
    cdef int _find_pairs(self) noexcept nogil
    cdef int _validate_placement(self) except -1
