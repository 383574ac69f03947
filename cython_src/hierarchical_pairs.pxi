# The hierarchical grid's pair pass, as functions over the grid (typed as
# HierarchicalGridD, so what they call on it is a direct call): each
# level's objects are packed in cell order, the pairs within a level are found
# by looking back over half of each cell's neighbourhood, and each object meets
# the coarser levels only (never downward), on the grid's threads, chunk by
# chunk, so that the pairs come out in the same order for any thread count.


cdef inline Py_ssize_t test_run(const Shape* shape, const Box* box, int32_t a, const Filter* own,
                                const Level* M, Py_ssize_t v, Py_ssize_t end,
                                PairChunk* out) noexcept nogil:
    """Test object a (its shape, box and filter: NULL if every object has the
    default) against M's packed objects v .. end-1 whose filters pass with its
    own, keeping the pairs that touch (all of them, if out.keep_all); returns
    how many candidates there were, -1 if out of memory."""
    cdef Py_ssize_t candidates = end - v, kept = out.found.n
    cdef int32_t* pairs
    cdef bint keep_all = out.keep_all
    if candidates <= 0:
        return 0
    if pair_room(&out.found, candidates) < 0:
        out.failed = 1
        return -1
    pairs = out.found.ids
    if own == NULL:
        while v < end:
            put_pair(pairs + 2 * kept, a, M.packed_id[v])
            kept += shapes_touch(shape, box, &M.packed[v]) | keep_all
            v += 1
    else:
        while v < end:
            if filters_pass(own, &M.packed_filter[v]):
                put_pair(pairs + 2 * kept, a, M.packed_id[v])
                kept += shapes_touch(shape, box, &M.packed[v]) | keep_all
            else:
                out.filtered_out += 1
            v += 1
    out.found.n = kept
    return candidates


cdef int cover_level(HierarchicalGridD g, Level* M) noexcept nogil:
    """Set M's cover bits: every sub-cell each of its objects' boxes overlaps."""
    cdef int32_t bits = 6 // D
    cdef int64_t mask, sx, sy, sz, b
    cdef int64_t s0[3]      # the sub-cells of a box, from s0 to s1 (2D: one layer, z = 0)
    cdef int64_t s1[3]
    cdef Py_ssize_t k, words
    cdef int a
    cdef Box box
    while (<Py_ssize_t>1) << (D * bits) < COVER_BITS_PER_OBJECT * M.n and bits < COVER_MAX_BITS:
        bits += 1
    words = occupancy_words(bits)
    if grow_array(<void**>&M.cover, &M.cover_cap, words, sizeof(uint64_t)) < 0:
        return -1
    memset(M.cover, 0, words * sizeof(uint64_t))
    M.cover_bits = bits
    mask = ((<int64_t>1) << bits) - 1
    s0[2] = s1[2] = 0
    for k in range(M.n):
        shape_box(&M.packed[k], &box)
        for a in range(D):
            s0[a] = floor_int(box.lo[a] * M.cover_inv)
            s1[a] = floor_int(box.hi[a] * M.cover_inv)
            # A box wider than the table sets every column: clip, not wrap twice.
            if s1[a] - s0[a] > mask:
                s1[a] = s0[a] + mask
        for sz in range(s0[2], s1[2] + 1):
            for sy in range(s0[1], s1[1] + 1):
                for sx in range(s0[0], s1[0] + 1):
                    b = ((((sz & mask) << bits) | (sy & mask)) << bits) | (sx & mask)
                    M.cover[b >> 6] |= (<uint64_t>1) << (b & 63)
    return 0


cdef int hierarchical_pair_pass(HierarchicalGridD g) noexcept nogil:
    """Pack every level, cut the levels' occupied cells into chunks, find each
    chunk's pairs (on up to `threads` threads: chunks only read the packed
    levels and write their own buffers), then join the buffers in chunk order,
    so the result does not depend on the thread count or scheduling."""
    cdef Py_ssize_t r, k, n_chunks = 0, pieces, words, total = 0, tested = 0, filtered_out = 0
    cdef PairChunk* chunk
    cdef int failed = 0
    cdef Py_ssize_t finer = 0
    cdef Level* M
    for r in range(g.hierarchy.n_levels):
        if g.hierarchy.levels[r].n and _pack(g, &g.hierarchy.levels[r], g.state.threads) < 0:
            return -1
    for r in range(g.hierarchy.n_levels):
        M = &g.hierarchy.levels[g.hierarchy.order[r]]
        # A cover costs a few bits per object of its level and saves a window
        # search per finer object it turns away: built only where those are many.
        M.cover_inv = M.inv * COVER_SPLIT
        M.cover_bits = 0
        if M.n and finer >= M.n and cover_level(g, M) < 0:
            return -1
        finer += M.n
    for r in range(g.hierarchy.n_levels):
        if g.hierarchy.levels[g.hierarchy.order[r]].n == 0:
            continue
        words = occupancy_words(g.hierarchy.levels[g.hierarchy.order[r]].wbits)
        pieces = min(words, LEVEL_CHUNKS)
        if grow_array(<void**>&g.hierarchy.chunks, &g.hierarchy.chunks_cap, n_chunks + pieces,
                      sizeof(PairChunk)) < 0:
            return -1
        for k in range(pieces):
            chunk = &g.hierarchy.chunks[n_chunks]
            if n_chunks >= g.hierarchy.chunks_ready:
                chunk.found.ids = NULL
                chunk.found.cap = 0
                chunk.passed = NULL
                chunk.passed_cap = 0
                g.hierarchy.chunks_ready += 1
            chunk.rank = r
            chunk.keep_all = g.state.keep_candidates
            chunk.w0 = words * k // pieces
            chunk.w1 = words * (k + 1) // pieces
            n_chunks += 1
    for_each_chunk(1 if _serial(g, g.state.n_live) else g.state.threads, n_chunks, 1, chunks_pairs, <PyObject*>g)
    for k in range(n_chunks):
        failed = failed | g.hierarchy.chunks[k].failed
        total += g.hierarchy.chunks[k].found.n
        tested += g.hierarchy.chunks[k].tested
        filtered_out += g.hierarchy.chunks[k].filtered_out
    g.state.found.n = 0
    if failed or pair_room(&g.state.found, total) < 0:
        return -1
    for k in range(n_chunks):
        copy_bytes(g.state.found.ids + 2 * g.state.found.n, g.hierarchy.chunks[k].found.ids,
                   2 * g.hierarchy.chunks[k].found.n * sizeof(int32_t))
        g.state.found.n += g.hierarchy.chunks[k].found.n
    g.state.broad_phase_count = tested
    g.state.narrow_phase_count = tested - filtered_out
    g.hits = total
    return 0


cdef Py_ssize_t chunks_pairs(void* grid, Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    """for_each_chunk's work: the pairs of the (borrowed) grid's chunks first .. end-1."""
    pairs_of_chunks(<HierarchicalGridD>grid, first, end)
    return 0


cdef void pairs_of_chunks(HierarchicalGridD g, Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(first, end):
        chunk_pairs(g, &g.hierarchy.chunks[k])


cdef void chunk_pairs(HierarchicalGridD g, PairChunk* out) noexcept nogil:
    """The pairs of the objects in one chunk of one level's occupied cells:
    within the level the rest of each cell and the half of its neighbourhood
    behind it (in 3D the nine cells of the layer below; the three cells of the
    row above, the cell to the left), so each pair of cells meets once (the
    table is at least 16 cells a side, so no two of a cell's neighbours are one
    cell); then across levels, upward only, one coarser level at a time."""
    cdef const Level* L = &g.hierarchy.levels[g.hierarchy.order[out.rank]]
    cdef Py_ssize_t up, u, w, nth, start, end, tested = 0, t
    # The runs of the cells behind: in 3D the layer below's three rows; the row
    # above's, the left cell's.
    cdef Py_ssize_t behind[20]
    cdef int64_t x, y, z
    cdef const Level* ups[UPWARD_GROUP]
    cdef int n_up, k, n_behind
    cdef int64_t c
    cdef int32_t a
    cdef uint64_t word
    cdef const Shape* shape
    cdef const Filter* own
    cdef Box box
    out.found.n = out.tested = out.filtered_out = 0
    out.failed = 0
    if out.w0 >= out.w1:
        return
    nth = L.word_rank[out.w0]     # this chunk's first occupied cell
    for w in range(out.w0, out.w1):
        word = L.occupied[w]
        while word:
            c = (w << 6) | count_trailing_zeros(word)
            word &= word - 1
            start = L.cell_start[nth]
            end = L.cell_start[nth + 1]
            nth += 1
            x = c & L.mask
            y = (c >> L.wbits) & L.mask
            z = c >> (2 * L.wbits)      # 0 in 2D
            n_behind = 0
            if D == 3:
                for k in range(-1, 2):
                    n_behind += row_runs(L, wrapped_cell(L, 0, y + k, z - 1), x - 1, x + 1,
                                         behind + n_behind)
            n_behind += row_runs(L, wrapped_cell(L, 0, y - 1, z), x - 1, x + 1, behind + n_behind)
            n_behind += row_runs(L, c & ~L.mask, x - 1, x - 1, behind + n_behind)
            for u in range(start, end):
                a = L.packed_id[u]
                shape = &L.packed[u]
                own = _own_filter(g, L, u)
                shape_box(shape, &box)
                t = test_run(shape, &box, a, own, L, u + 1, end, out)
                tested += end - u - 1
                for k in range(0, n_behind, 2):
                    t |= test_run(shape, &box, a, own, L, behind[k], behind[k + 1], out)
                    tested += behind[k + 1] - behind[k]
                if t < 0:
                    return
    start = L.cell_start[L.word_rank[out.w0]]
    end = L.cell_start[L.word_rank[out.w1]]
    n_up = 0
    for up in range(out.rank + 1, g.hierarchy.n_levels):
        if g.hierarchy.levels[g.hierarchy.order[up]].n:
            ups[n_up] = &g.hierarchy.levels[g.hierarchy.order[up]]
            n_up += 1
        if n_up == UPWARD_GROUP or (n_up and up == g.hierarchy.n_levels - 1):
            t = upward_pairs(g, start, end, L, ups, n_up, out)
            if t < 0:
                return
            tested += t
            n_up = 0
    out.tested = tested


cdef Py_ssize_t upward_pairs(HierarchicalGridD g, Py_ssize_t start, Py_ssize_t end, const Level* L,
                             const Level** ups, int n_up, PairChunk* out) noexcept nogil:
    """Test L's packed objects start .. end-1 against the coarser levels ups:
    each object against the objects of the cells that can reach it, unless
    the level's cover bitmap says none can. Two passes: the cheap cover test
    of every object and level, noting the objects that pass for each level;
    then their searches, level by level. Returns the number of tests, -1 if
    out of memory."""
    cdef const Level* M
    cdef double pad
    cdef int64_t mask, side, b, sbits, smask, sx, sy, sz, uy, uz
    # A box's sub-cells in a cover, s*0 .. s*1, and the cells of a coarser
    # level whose objects can reach it, u*0 .. u*1 (2D: one layer, z = 0).
    cdef int64_t sx0, sx1, sy0, sy1, sz0 = 0, sz1 = 0
    cdef int64_t ux0, ux1, uy0, uy1, uz0 = 0, uz1 = 0
    cdef int32_t a
    cdef Py_ssize_t u, j, n = end - start, tested = 0, t = 0
    cdef Py_ssize_t runs[4]
    cdef int k, n_runs
    cdef Py_ssize_t n_passed[UPWARD_GROUP]
    cdef const int64_t* passed
    cdef const Shape* shape
    cdef const Filter* own
    cdef Box box
    cdef int covered, m
    # The covers' parameters, copied where no write through `out` can alias them.
    cdef const uint64_t* cover[UPWARD_GROUP]
    cdef double cover_inv[UPWARD_GROUP]
    cdef int64_t cover_mask[UPWARD_GROUP]
    cdef int32_t cover_bits[UPWARD_GROUP]
    if grow_array(<void**>&out.passed, &out.passed_cap, n * n_up, sizeof(int64_t)) < 0:
        out.failed = 1
        return -1
    for m in range(n_up):
        n_passed[m] = 0
        cover[m] = ups[m].cover
        cover_inv[m] = ups[m].cover_inv
        cover_bits[m] = ups[m].cover_bits
        cover_mask[m] = ((<int64_t>1) << ups[m].cover_bits) - 1
    for u in range(start, end):
        shape_box(&L.packed[u], &box)
        for m in range(n_up):
            covered = 1
            if cover_bits[m]:
                sbits = cover_bits[m]
                smask = cover_mask[m]
                sx0 = floor_int(box.lo[0] * cover_inv[m])
                sx1 = floor_int(box.hi[0] * cover_inv[m])
                sy0 = floor_int(box.lo[1] * cover_inv[m])
                sy1 = floor_int(box.hi[1] * cover_inv[m])
                if D == 3:
                    sz0 = floor_int(box.lo[D - 1] * cover_inv[m])
                    sz1 = floor_int(box.hi[D - 1] * cover_inv[m])
                if sx0 == sx1 and sy0 == sy1 and sz0 == sz1:     # most finer objects: one sub-cell
                    b = ((((sz0 & smask) << sbits) | (sy0 & smask)) << sbits) | (sx0 & smask)
                    covered = (cover[m][b >> 6] >> (b & 63)) & 1
                elif (sx1 - sx0 + 1) * (sy1 - sy0 + 1) * (sz1 - sz0 + 1) <= COVER_CHECKS:
                    covered = 0
                    for sz in range(sz0, sz1 + 1):
                        for sy in range(sy0, sy1 + 1):
                            for sx in range(sx0, sx1 + 1):
                                b = ((((sz & smask) << sbits) | (sy & smask)) << sbits) | (sx & smask)
                                covered = covered | ((cover[m][b >> 6] >> (b & 63)) & 1)
            out.passed[m * n + n_passed[m]] = u
            n_passed[m] += covered
    for m in range(n_up):
        M = ups[m]
        # M's objects reach at most M.reach past their cell's corner (padded
        # for the shaved sides and rounding).
        pad = M.reach * 1.001
        mask = M.mask
        side = mask + 1
        passed = out.passed + m * n
        for j in range(n_passed[m]):
            u = passed[j]
            shape = &L.packed[u]
            a = L.packed_id[u]
            own = _own_filter(g, L, u)
            shape_box(shape, &box)
            ux0 = floor_int((box.lo[0] - pad) * M.inv)
            ux1 = min(floor_int(box.hi[0] * M.inv), ux0 + side - 1)
            uy0 = floor_int((box.lo[1] - pad) * M.inv)
            uy1 = min(floor_int(box.hi[1] * M.inv), uy0 + side - 1)
            if D == 3:
                uz0 = floor_int((box.lo[D - 1] - pad) * M.inv)
                uz1 = min(floor_int(box.hi[D - 1] * M.inv), uz0 + side - 1)
            for uz in range(uz0, uz1 + 1):
                for uy in range(uy0, uy1 + 1):
                    n_runs = row_runs(M, wrapped_cell(M, 0, uy, uz), ux0, ux1, runs)
                    for k in range(0, n_runs, 2):
                        t |= test_run(shape, &box, a, own, M, runs[k], runs[k + 1], out)
                        tested += runs[k + 1] - runs[k]
            if t < 0:
                return -1
    return tested
