"""Independent answers for checking the indexes: the brute-force reference for
exact overlaps, and the GDScript original's cell arithmetic for cell-based candidates."""
import math

from spatial_hash import BruteForce
from spatial_hash._core import ALL_LAYERS


def cell_range(box, cell_size, origin):
    """Inclusive (cx0, cy0, cx1, cy1) covered by a (minx, miny, maxx, maxy) box."""
    ox, oy = origin
    return (math.floor((box[0] - ox) / cell_size), math.floor((box[1] - oy) / cell_size),
            math.floor((box[2] - ox) / cell_size), math.floor((box[3] - oy) / cell_size))


def ranges_meet(a, b):
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


class Oracle(BruteForce):
    """BruteForce plus the cell bookkeeping a uniform grid is expected to have."""

    def __init__(self, cell_size, origin=(0.0, 0.0), large_threshold=4):
        super().__init__()
        self.cell_size = cell_size
        self.origin = origin
        self.large_threshold = large_threshold

    def cells(self, obj):
        return cell_range(self.shape(obj)[0], self.cell_size, self.origin)

    def is_large(self, obj):
        r = self.cells(obj)
        return max(r[2] - r[0], r[3] - r[1]) + 1 > self.large_threshold

    def query_nearby(self, x, y, w, h, mask=ALL_LAYERS):
        q = cell_range((x, y, x + w, y + h), self.cell_size, self.origin)
        return [o for o, _ in self._on(mask) if ranges_meet(self.cells(o), q)]

    def occupancy(self):
        """(active cells, memberships, max objects per cell, large objects)."""
        counts = {}
        large = 0
        for obj in self._shapes:
            if self.is_large(obj):
                large += 1
                continue
            x0, y0, x1, y1 = self.cells(obj)
            for cx in range(x0, x1 + 1):
                for cy in range(y0, y1 + 1):
                    counts[cx, cy] = counts.get((cx, cy), 0) + 1
        return len(counts), sum(counts.values()), max(counts.values(), default=0), large


def same_pairs(got, expected):
    """Pairs as unordered sets, insisting that `got` lists each pair only once."""
    got_set = {frozenset(p) for p in got}
    assert len(got_set) == len(got), f"duplicate pairs in {got}"
    assert all(len(p) == 2 for p in got_set), f"self-pair in {got}"
    return got_set == {frozenset(p) for p in expected}
