"""The broad phases the benchmark races, each written the way its users would.

Every method builds its index once (`setup`, untimed) and then, once per frame,
brings the index up to date with the scene and returns all overlapping pairs in
its own natural form (`frame`, timed). `canonical` turns that result into a
sorted (k, 2) array of object indices, smaller first, for the cross-check.
Heavy peers are imported lazily so the addon folder stays importable in Godot.

A method runs on the scenes whose dimension is in its `dims`: the numpy, scipy
and batch methods take 2D and 3D scenes alike, the others have no 3D form.
"""
import os
import time

import numpy as np

from spatial_hash._core import HierarchicalGrid, UniformGrid
from spatial_hash._core3d import HierarchicalGrid3D, UniformGrid3D
from spatial_hash.object_hashes import OptimizedSpatialHash


def canonical_array(pairs):
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    pairs = np.sort(pairs, axis=1)
    if len(pairs) == 0:
        return pairs
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    return pairs[order]


def _boxes(scene):
    """(lows, highs): per axis, the column of min and of max coordinates, exactly
    as the library computes them ((minx, miny), (maxx, maxy) in 2D)."""
    lows = [scene.pos[:, a] for a in range(scene.dim)]
    if scene.kind == "box":
        return lows, [low + scene.extent[:, a] for a, low in enumerate(lows)]
    r = scene.extent
    return [low - r for low in lows], [low + r for low in lows]


def _meet(lows, highs, i, j):
    """Whether the closed boxes of rows i and j meet on every axis; i and j are
    index arrays, or an index array and a column of indices (a block of pairs)."""
    # One comparison at a time into `keep`: two temporaries at most, as fast
    # as the 2D expression written out (an extra temporary costs 15% in blocks).
    keep = lows[0][i] <= highs[0][j]
    keep &= lows[0][j] <= highs[0][i]
    for low, high in zip(lows[1:], highs[1:]):
        keep &= low[i] <= high[j]
        keep &= low[j] <= high[i]
    return keep


def _gap2(pos, i, j, a):
    """(pos[i, a] - pos[j, a]) ** 2, squared in place: one temporary, not two."""
    d = pos[i, a] - pos[j, a]
    d *= d
    return d


def exact_filter(scene, i, j):
    """Keep the candidate pairs (i, j) that really overlap: closed boxes, then balls."""
    keep = _meet(*_boxes(scene), i, j)
    if scene.kind == "circle":
        distance2 = _gap2(scene.pos, i, j, 0)
        for a in range(1, scene.dim):
            distance2 += _gap2(scene.pos, i, j, a)
        rr = scene.extent[i] + scene.extent[j]
        keep &= distance2 <= rr * rr
    return i[keep], j[keep]


class Method:
    name = "?"
    peer = True          # False for this library's own methods
    batch = False        # True for this library's batch API
    max_n = None         # largest N it is run at in the quick benchmark
    max_n_full = None    # ... and with --full
    dims = (2, 3)        # the scene dimensions it has a form for

    @classmethod
    def ready(cls, scene):
        """(method, scene): a new method set up on its own copy of `scene`, after
        one untimed warm-up frame."""
        scene = scene.copy()
        method = cls()
        method.setup(scene)
        scene.step()
        method.frame(scene)
        return method, scene

    def timed_frame(self, scene):
        """(ms, result): step `scene` and run one frame on it, timed together."""
        start = time.perf_counter()
        scene.step()
        result = self.frame(scene)
        return 1e3 * (time.perf_counter() - start), result

    def setup(self, scene):
        pass

    def frame(self, scene):
        raise NotImplementedError

    def canonical(self, result):
        return canonical_array(result)

    def phases(self):
        """The last frame's time split into phases, in ms, by the method itself
        (None: it does not say)."""
        return None


class NaiveAllPairs(Method):
    """Every pair i < j tested with numpy, a block of rows at a time: O(N^2)."""
    name = "naive all-pairs (numpy)"
    max_n = 10_100
    max_n_full = 30_000

    def frame(self, scene):
        n = len(scene)
        lows, highs = _boxes(scene)
        found = []
        block = max(1, 2_000_000 // max(n, 1))
        for start in range(0, n, block):
            rows = np.arange(start, min(start + block, n))
            cols = np.arange(start, n)
            i, j = np.nonzero(_meet(lows, highs, rows[:, None], cols[None, :]))
            i, j = rows[i], cols[j]
            upper = i < j
            found.append(np.column_stack(exact_filter(scene, i[upper], j[upper])))
        return np.concatenate(found) if found else np.empty((0, 2), np.int64)


class KDTree(Method):
    """scipy cKDTree rebuilt every frame, query_pairs with the largest reach, then
    the exact test on the candidates."""
    name = "scipy cKDTree"

    def frame(self, scene):
        from scipy.spatial import cKDTree
        if scene.kind == "box":
            half = scene.extent / 2.0
            tree = cKDTree(scene.pos + half)
            reach = 2.0 * float(half.max())
            cand = tree.query_pairs(reach, p=np.inf, output_type="ndarray")
        else:
            tree = cKDTree(scene.pos)
            reach = 2.0 * float(scene.extent.max())
            cand = tree.query_pairs(reach, output_type="ndarray")
            if float(scene.extent.min()) == float(scene.extent.max()):
                return cand          # equal circles: the distance test is the exact test
        i, j = exact_filter(scene, cand[:, 0], cand[:, 1])
        return np.column_stack((i, j))


class STRTree(Method):
    """shapely STRtree over the bounding boxes, rebuilt every frame, one bulk
    envelope query, then the exact test."""
    name = "shapely STRtree"
    max_n = 100_000
    max_n_full = 1_000_000
    dims = (2,)          # shapely's geometry is planar

    def frame(self, scene):
        import shapely
        (x0, y0), (x1, y1) = _boxes(scene)
        boxes = shapely.box(x0, y0, x1, y1)
        tree = shapely.STRtree(boxes)
        i, j = tree.query(boxes)
        upper = i < j
        i, j = exact_filter(scene, i[upper], j[upper])
        return np.column_stack((i, j))


class PlainPythonHash(Method):
    """A dict-of-lists spatial hash written like the GDScript original:
    prime-XOR cell keys, remove/insert every object every frame, query_nearby per
    object with a seen-dict, and a pair-key dict against double checks."""
    name = "plain-Python dict hash"
    max_n = 10_100
    max_n_full = 100_000
    dims = (2,)          # the GDScript original it copies is 2D

    def setup(self, scene):
        self.cell = scene.cell_size
        self.table = {}
        self.where = [self._cells(b) for b in self._bounds(scene)]
        for obj, cells in enumerate(self.where):
            for key in cells:
                self.table.setdefault(key, []).append(obj)

    @staticmethod
    def _bounds(scene):
        (x0, y0), (x1, y1) = _boxes(scene)
        return list(zip(x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist()))

    def _cells(self, b):
        c = self.cell
        cx0, cy0 = int(b[0] // c), int(b[1] // c)
        cx1, cy1 = int(b[2] // c), int(b[3] // c)
        # Two cells of one object can share a key: the object is in that
        # bucket once, so it must be listed (and removed) once.
        return list(dict.fromkeys((x * 73856093) ^ (y * 19349663)
                                  for x in range(cx0, cx1 + 1) for y in range(cy0, cy1 + 1)))

    def frame(self, scene):
        table = self.table
        bounds = self._bounds(scene)
        for obj, b in enumerate(bounds):
            for key in self.where[obj]:
                bucket = table[key]
                bucket.remove(obj)
                if not bucket:
                    del table[key]
            cells = self.where[obj] = self._cells(b)
            for key in cells:
                if key in table:
                    if obj not in table[key]:
                        table[key].append(obj)
                else:
                    table[key] = [obj]
        circles = scene.kind == "circle"
        pos = scene.pos.tolist()
        ext = scene.extent.tolist()
        checked = {}
        pairs = []
        for a, ba in enumerate(bounds):
            seen = {}
            for key in self.where[a]:
                for b in table.get(key, ()):
                    if b == a or b in seen:
                        continue
                    seen[b] = True
                    pair = (a, b) if a < b else (b, a)
                    if pair in checked:
                        continue
                    checked[pair] = True
                    bb = bounds[b]
                    if ba[0] <= bb[2] and bb[0] <= ba[2] and ba[1] <= bb[3] and bb[1] <= ba[3]:
                        if circles:
                            dx = pos[a][0] - pos[b][0]
                            dy = pos[a][1] - pos[b][1]
                            rr = ext[a] + ext[b]
                            if dx * dx + dy * dy > rr * rr:
                                continue
                        pairs.append(pair)
        return pairs


class PerObjectAPI(Method):
    """This library's object-keyed Python API: one update call per object, then
    pairs() as a list of handle tuples."""
    name = "spatial_hash per-object API"
    peer = False
    max_n = 100_000
    max_n_full = 1_000_000
    dims = (2,)          # its cost is Python's per-object calls, the same in 3D

    def setup(self, scene):
        self.index = OptimizedSpatialHash(scene.cell_size)
        self._put(scene)

    def _put(self, scene):
        index = self.index
        if scene.kind == "circle":
            for obj, (xy, r) in enumerate(zip(scene.pos.tolist(), scene.extent.tolist())):
                index.insert_circle(obj, xy, r)
        else:
            for obj, (xy, wh) in enumerate(zip(scene.pos.tolist(), scene.extent.tolist())):
                index.insert(obj, (xy[0], xy[1], wh[0], wh[1]))

    def frame(self, scene):
        self._put(scene)
        return self.index.pairs()


# Per dimension: the grid classes, and the names of the batch calls that insert
# and update balls (centers, radii) and boxes (rows of min corner and size).
GRIDS = {2: {"uniform": UniformGrid, "hierarchical": HierarchicalGrid},
         3: {"uniform": UniformGrid3D, "hierarchical": HierarchicalGrid3D}}
BALL_CALLS = {2: ("insert_circles", "update_circles"), 3: ("insert_spheres", "update_spheres")}
BOX_CALLS = {2: ("insert_rects", "update_rects"), 3: ("insert_boxes", "update_boxes")}


class BatchAPI(Method):
    """This library's batch API on the uniform grid: one array call to update
    every object, one call for all pairs as an (k, 2) id array. The grid and
    its calls are the scene's dimension's; the frame is the same in both."""
    name = "spatial_hash batch (uniform)"
    peer = False
    batch = True
    threads = 1

    def make_index(self, scene):
        return GRIDS[scene.dim]["uniform"](scene.cell_size, threads=self.threads)

    def setup(self, scene):
        self.index = self.make_index(scene)
        self.out = None
        self.balls = scene.kind == "circle"
        insert, update = (BALL_CALLS if self.balls else BOX_CALLS)[scene.dim]
        # Bound once: the frame then looks up nothing that depends on the dimension.
        self.update = getattr(self.index, update)
        if self.balls:
            self.ids = getattr(self.index, insert)(scene.pos, scene.extent)
        else:
            self.ids = getattr(self.index, insert)(scene.bounds())

    def frame(self, scene):
        if self.balls:
            self.update(self.ids, scene.pos, scene.extent)
        else:
            self.update(self.ids, scene.bounds())
        pairs = self.index.pair_ids(self.out)
        self.out = pairs.base if pairs.base is not None else pairs
        return pairs

    def canonical(self, result):
        return canonical_array(self.ids[np.asarray(result, dtype=np.int64)])

    def phases(self):
        """The core's own split of the last update and pair pass: moves (new
        shapes and cells), relinks (objects moved between cells) and pairs."""
        return self.index.last_phase_ms()


class HierarchicalBatchAPI(BatchAPI):
    """The same batch calls on the hierarchical grid: no cell size to tune."""
    name = "spatial_hash batch (hierarchical)"
    threads = 1

    def make_index(self, scene):
        return GRIDS[scene.dim]["hierarchical"](threads=self.threads)


# Two threads: what a game can spare beside its engine's own, on any machine
# with at least two cores.
THREADS = 2 if (os.cpu_count() or 1) > 1 else 1


class ThreadedBatchAPI(BatchAPI):
    """The uniform grid with two threads."""
    name = f"spatial_hash batch (uniform, {THREADS} threads)"
    threads = THREADS


class ThreadedHierarchicalBatchAPI(HierarchicalBatchAPI):
    """The hierarchical grid with two threads."""
    name = f"spatial_hash batch (hierarchical, {THREADS} threads)"
    threads = THREADS


def race(scene, methods, frames, min_seconds=0.0):
    """Time `methods` (Method classes) on their own copies of `scene`, after one
    warm-up frame each: one frame of each in turn, the first to go moving one
    place on every frame, so that all see the machine as it is at that moment;
    at least `frames` frames each, and more until `min_seconds` have passed.
    Returns, per method, every frame's ms, every frame's phases (an empty list
    for methods that do not report them), and its pairs on the last frame in
    canonical form."""
    runs = [method_cls.ready(scene) for method_cls in methods]
    times = [[] for _ in runs]
    phases = [[] for _ in runs]
    results = [None] * len(runs)
    taken = 0
    started = time.perf_counter()
    while taken < frames or time.perf_counter() - started < min_seconds:
        first = taken % len(runs)
        for k in list(range(first, len(runs))) + list(range(first)):
            method, own = runs[k]
            ms, results[k] = method.timed_frame(own)
            times[k].append(ms)
            split = method.phases()
            if split is not None:
                phases[k].append(split)
        taken += 1
    pairs = [method.canonical(result) for (method, _), result in zip(runs, results)]
    return times, phases, pairs


METHODS = [NaiveAllPairs, KDTree, STRTree, PlainPythonHash, PerObjectAPI, BatchAPI,
           HierarchicalBatchAPI] + ([ThreadedBatchAPI, ThreadedHierarchicalBatchAPI] if THREADS > 1 else [])
