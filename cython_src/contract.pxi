# The core's contract, stated once for both dimensions: the structs its objects
# hold, the C++ kernels it calls, and what every index keeps in C (IndexState,
# UniformCells, Hierarchy). Each module's .pxd (spatial_hash/_core.pxd,
# spatial_hash/_core3d.pxd) includes it and declares its classes, whose fields
# are these structs; code that cimports a module's .pxd (the tests' damage
# helper) sees the same memory the core uses. D is the module's number of axes.
cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t

cdef extern from "dimension.hpp":
    enum:
        D "SPATIAL_HASH_DIMENSION"      # the number of axes this module is built for


ctypedef struct Box:
    double lo[D]        # the min corner
    double hi[D]        # the max corner


ctypedef struct Circle:
    # A circle (in 3D, a sphere).
    double center[D]
    double r


ctypedef struct Shape:
    # One object's shape, all that the narrow phase reads of it, in 16 * D bytes:
    # a box as its min corner then its max corner; a circle (sphere) as its
    # center, its radius, then NaN up to the last number. A circle's box is
    # built by circle_box_of (narrow_phase.hpp) wherever it is needed, so every
    # test sees the same box for it.
    double p[2 * D]


cdef extern from "rays.hpp" namespace "spatial_hash" nogil:
    ctypedef struct RayHit "spatial_hash::RayHit<SPATIAL_HASH_DIMENSION>":
        double fraction     # of the way from the ray's start to its end
        double point[D]     # the hit point
        double normal[D]    # the surface normal there; zeros if the ray starts inside
        int32_t id


cdef extern from "layout.hpp" namespace "spatial_hash" nogil:
    # The structs the kernels read per object, defined in the header.
    ctypedef struct CellRange "spatial_hash::CellRange<SPATIAL_HASH_DIMENSION>":
        int32_t lo[D]       # the cell of the box's min corner
        int32_t hi[D]       # ... and of its max corner
    ctypedef struct Filter "spatial_hash::Filter":
        uint32_t layer
        uint32_t mask
        uint32_t is_static  # 1 for a static object: two static objects never pair
    # The pair rule of collision layers (layers.pxi).
    bint filters_pass "spatial_hash::filters_pass"(const Filter* a, const Filter* b)


cdef enum InputCheck:
    # What a check of a shape's numbers found; axis a's failure is the code + a.
    INPUT_OK = 0
    BAD_AT = 1          # a coordinate is not finite
    BAD_SIZE = 4        # a size is negative or not finite, or its far side overflows
    BAD_RADIUS = 7
    TOO_FAR = 8         # a coordinate's cell lies beyond the cells an index can name
    OUT_OF_RANGE = 11   # beyond the sizes or distances an index can place
    TOO_LONG = 12       # a path whose length overflows


cdef extern from "cell_pairs.hpp" namespace "spatial_hash" nogil:
    # The uniform grid's pair pass (see the header).
    ctypedef struct TableInput "spatial_hash::TableInput<SPATIAL_HASH_DIMENSION>":
        const double* body
        const CellRange* range
        const Filter* filter
        const int32_t* home
        const int32_t* members
        Py_ssize_t n
        uint64_t membership
        int wbits
        int32_t span[D]
        bint keep_all
        int threads

    cdef cppclass CellPairs "spatial_hash::CellPairs<SPATIAL_HASH_DIMENSION>":
        CellPairs() except +
        int run(const TableInput& table)
        Py_ssize_t n_pairs()
        Py_ssize_t meetings()
        const int32_t* spans()
        void write_pairs(int32_t* out)
        Py_ssize_t packed_n()
        void packed_shape(Py_ssize_t k, double* out)
        void count_candidates(const CellRange* ranges, Py_ssize_t& meetings, Py_ssize_t& shared)


cdef extern from "hierarchy_pairs.hpp" namespace "spatial_hash" nogil:
    # The hierarchical grid's pair pass (see the header).
    ctypedef struct PairLevel "spatial_hash::PairLevel":
        const int32_t* head
        const uint64_t* occupied
        Py_ssize_t n
        int wbits
        double inv
        double reach
    ctypedef struct HierarchyInput "spatial_hash::HierarchyInput<SPATIAL_HASH_DIMENSION>":
        const double* body
        const int32_t* next
        const Filter* filter
        const PairLevel* levels
        int n_levels
        bint keep_all
        int threads

    cdef cppclass HierarchyPairs "spatial_hash::HierarchyPairs<SPATIAL_HASH_DIMENSION>":
        HierarchyPairs() except +
        int run(const HierarchyInput& hierarchy)
        Py_ssize_t n_pairs()
        Py_ssize_t tested()
        Py_ssize_t filtered_out()
        void write_pairs(int32_t* out)


cdef extern from "nearest.hpp" namespace "spatial_hash" nogil:
    # Nearest-object searches (see the header), over the grids' levels.
    ctypedef struct Nearby "spatial_hash::Nearby":
        double distance
        int32_t id
    ctypedef struct NearestLevel "spatial_hash::NearestLevel<SPATIAL_HASH_DIMENSION>":
        const int32_t* head
        const int32_t* members
        Py_ssize_t n
        double origin[D]
        double cell
        double inv
        bint divide
        int32_t span[D]
        int wbits
    ctypedef struct PackedLevel "spatial_hash::PackedLevel<SPATIAL_HASH_DIMENSION>":
        pass
    ctypedef struct NearestInput "spatial_hash::NearestInput<SPATIAL_HASH_DIMENSION>":
        const double* body
        const int32_t* next
        const Filter* filter
        uint32_t layers
        const NearestLevel* levels
        int n_levels
        const int32_t* loose
        Py_ssize_t n_loose
        const PackedLevel* packed
    Py_ssize_t nearest_objects "spatial_hash::nearest_objects<SPATIAL_HASH_DIMENSION>"(
        const NearestInput& search, const double* point, Py_ssize_t k, double limit, Nearby* best)
    # The levels laid out for batches of searches (nearest_layout.hpp).
    cdef cppclass NearestPacks "spatial_hash::NearestPacks<SPATIAL_HASH_DIMENSION>":
        NearestPacks() except +
        void prepare(NearestInput& search, Py_ssize_t m, uint64_t changes)


cdef extern from "claim.hpp" namespace "spatial_hash" nogil:
    # An index's busy flag held for a whole call (see the header).
    cdef cppclass Claim:
        Claim()
        void hold(bint* busy)


ctypedef struct PairList:
    int32_t* ids        # two per pair
    Py_ssize_t n        # pairs kept
    Py_ssize_t cap      # int32s allocated


cdef enum QueryKind:
    Q_CELLS = 0         # everything sharing a cell with the query (the GDScript original's answer)
    Q_BOX = 1           # exact overlap with a closed box
    Q_CIRCLE = 2        # exact overlap with a disc (in 3D, a sphere)
    Q_SWEPT = 3         # exact overlap with a box swept along `along`


ctypedef struct Query:
    int kind
    Box box             # the query box (for Q_CIRCLE its bounds; Q_SWEPT: at t = 0)
    Circle circle
    double along[D]     # Q_SWEPT: the move from t = 0 to t = 1
    uint32_t layers     # the query's mask: only objects on one of these layers count
    bint check_layers   # False where every object counts (every object has the
                        # default filter and the mask has the default layer)
    CellRange cells     # filled by the index's _prepare_query


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
    # box rows (corner, then sizes), or circle (sphere) centers with one radius
    # each, or boxes as 32-bit corners and sizes (Godot's packed vector arrays).
    const double* values
    Py_ssize_t width
    const double* radii     # NULL for rects
    const float* corners    # NULL unless boxes come as 32-bit corners and sizes
    const float* sizes


ctypedef struct Level:
    double cell
    double inv              # 1 / cell: every cell coordinate is floor(x * inv)
    int32_t exponent        # cell == base * factor ** exponent (via exp and log)
    int32_t wbits           # the table is W cells a side, W = 1 << wbits
    int64_t mask            # W - 1
    int32_t* head           # per cell: first object of its list, -1 if empty
    int32_t* members        # the level's objects in no order (swap-remove)
    Py_ssize_t n
    Py_ssize_t cap
    double reach            # hierarchical: no object of the level has been longer than this
    uint64_t* occupied      # one bit per cell: does its list hold anything?


cdef enum IndexKind:
    # Which index an object is, for the hooks (hooks.pxi).
    BRUTE_FORCE = 0     # SpatialIndex itself, which keeps no cells
    UNIFORM_GRID = 1
    HIERARCHICAL_GRID = 2


# What every index keeps in C (spatial_index.pxi): every object's id, shape,
# filter and links in its cell's list, the queries' and the pair pass's buffers.
# SpatialIndex itself keeps no cells; the grids fill in the links.
ctypedef struct IndexState:
    Shape* body            # per id: its shape
    uint8_t* live          # per id: 1 while it names an object
    Filter* filter         # per id: its collision layer and mask; NULL until an
                           # object is given other than the default (own_filters)
    Py_ssize_t n_filtered  # live objects whose filter is not the default: while
                           # there are none, the pair pass skips the filter test
    int32_t* free_ids
    Py_ssize_t obj_cap, obj_hi, n_live, n_free
    uint64_t* named        # one bit per id, all clear between calls: the ids a batch
    Py_ssize_t named_cap   # has named so far, while it looks for a repeated one
    int32_t* out
    Py_ssize_t out_n, out_cap
    uint32_t* generation   # per id: bumped when its object is removed
    bint busy
    uint64_t changes       # bumped by every change to the objects' shapes or storage
    IndexKind kind

    RayHit* ray_hits       # a ray cast's hits, sorted
    Py_ssize_t ray_hits_cap
    Nearby* nearby         # a nearest-object search's answers
    NearestPacks* nearest_packs    # the levels laid out for batches of nearest searches
    Py_ssize_t nearby_cap
    char* batch_results    # a batch query's results so far (nearest, rays, boxes)
    Py_ssize_t batch_results_cap

    PairList found          # the last pair pass's pairs (or candidates)
    Touch* touching        # the pairs the last pair_events reported, by key
    Touch* seen            # and this call's (the two swap after each call)
    Py_ssize_t n_touching, touching_cap, seen_cap
    bint keep_candidates   # the pair pass keeps every pair it tests
    double phase_ms[PHASES]
    Py_ssize_t broad_phase_count   # broad_phase_pairs, once _resolve_broad_phase ran
    bint broad_phase_pending       # ... which it has not since the last pair pass
    Py_ssize_t narrow_phase_count  # narrow_phase_checks, once _resolve_broad_phase ran

    int32_t* next          # the next object on the same cell's list, -1 at its end
    int32_t* prev          # the one before, -1 at its head
    int32_t* home          # the table index of its home cell
    int32_t* slot          # its index in its level's members
    int threads
    Py_ssize_t growths     # tables grown so far: a batch move's noted homes go stale
    int32_t* row_state     # per row of a batch move: its new home, or -1
    Py_ssize_t row_state_cap
    # What changed since the last pair pass (changed_pairs.pxi): per id, a
    # byte of PassMark bits; the ids marked CHANGED in the order they were
    # marked; the pairs of `found` that are kept pairs (its first n_kept).
    uint8_t* marks
    int32_t* changed
    Py_ssize_t n_changed
    bint too_many_changed  # past changed_limit: the next pass is a full one
    Py_ssize_t n_kept
    bint pairs_fresh       # `found` holds the last pair pass's pairs (not candidates)
    bint counts_stale      # the counters are not yet those of a full pass
    PairPass last_pass


cdef enum PassMark:
    CHANGED = 1            # inserted, moved, removed or refiltered since the last pair pass
    KEPT = 2               # may be in one of the kept pairs (never clear while it is)


cdef enum PairPass:
    # Which way the last pair pass went (last_pair_pass()).
    PASS_NONE = 0          # no pass yet
    PASS_FULL = 1          # every object tested
    PASS_CHANGED = 2       # what changed tested against everything near it
    PASS_UNCHANGED = 3     # nothing changed: the last pairs stand


# What a uniform grid keeps besides (uniform.pxi).
ctypedef struct UniformCells:
    double origin[D]       # the world point where cell (0, ...) begins
    # 1 / cell_size, and whether multiplying by it is dividing by cell_size (a
    # power of two): then cells of placed boxes cost a product, not a quotient.
    double inv_cell
    bint exact_inverse
    Level table            # the small objects, each at home in one cell
    int32_t min_wbits      # the table is wider than any window of home cells
    CellRange* range       # per object: the cells its box covers
    int32_t* large         # the large objects in no order; slot[i] is i's index
    Py_ssize_t n_large
    # No object in the table covers more cells on an axis than this past its
    # home: widened as objects arrive or grow, made exact again by each pair pass.
    int32_t span[D]
    CellRange* packed_range    # the ranges of the objects the pair pass packed, in its
    Py_ssize_t packed_range_cap    # order, placed again when its counters are asked for
    CellPairs* cell_pairs      # the table's pair pass
    uint64_t membership        # bumped whenever an object enters the table: with its
                               # count, it tells whether the table holds other objects
    bint meetings_pending      # ... which counts its candidates' meetings only when asked
    NearestLevel nearest_table   # the table as a nearest-object search reads it


# What a hierarchical grid keeps besides (hierarchical.pxi).
ctypedef struct Hierarchy:
    double sqrt_factor
    double log_factor
    double log_base
    bint has_base
    Level* levels
    int32_t* order         # level indices by ascending cell size
    Py_ssize_t n_levels, levels_cap, order_cap
    int32_t* level_of
    HierarchyPairs* pairs      # the pair pass
    PairLevel* pair_levels     # the levels as the pair pass reads them
    Py_ssize_t pair_levels_cap
    int32_t point_exponent     # the level of points (objects of no extent), once
    bint has_point_level       # chosen for their spacing
    bint spacing_due           # a table grew since the points' level was judged
    NearestLevel* nearest_levels   # the levels as a nearest-object search reads them
    Py_ssize_t nearest_levels_cap
