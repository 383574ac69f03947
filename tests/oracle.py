"""Independent answers for checking the indexes: the brute-force reference for
exact overlaps, and the GDScript original's cell arithmetic for cell-based
candidates, in 2D (Oracle) and 3D (Oracle3D)."""
import itertools
import math

from spatial_hash import BruteForce, BruteForce3D
from spatial_hash._core import ALL_LAYERS


def cell_range(box, cell_size, origin):
    """Inclusive (cx0, cy0[, cz0], cx1, cy1[, cz1]) covered by a box (min
    corner, then max corner)."""
    d = len(origin)
    return tuple(math.floor((box[k] - origin[k % d]) / cell_size) for k in range(2 * d))


def ranges_meet(a, b):
    d = len(a) // 2
    return all(a[i] <= b[d + i] and b[i] <= a[d + i] for i in range(d))


class _Cells:
    """The cell bookkeeping a uniform grid is expected to have, over a brute force."""

    def __init__(self, cell_size, origin=None, large_threshold=4):
        super().__init__()
        self.cell_size = cell_size
        self.origin = origin if origin is not None else (0.0,) * self.dimension
        self.large_threshold = large_threshold

    def cells(self, obj):
        return cell_range(self.shape(obj)[0], self.cell_size, self.origin)

    def is_large(self, obj):
        r, d = self.cells(obj), self.dimension
        return max(r[d + i] - r[i] for i in range(d)) + 1 > self.large_threshold

    def query_nearby(self, *box_and_mask):
        """Objects sharing a cell with the box (corner, then size), then the mask."""
        d = self.dimension
        numbers = box_and_mask[:2 * d]
        mask = box_and_mask[2 * d] if len(box_and_mask) > 2 * d else ALL_LAYERS
        box = numbers[:d] + tuple(numbers[i] + numbers[d + i] for i in range(d))
        q = cell_range(box, self.cell_size, self.origin)
        return [o for o, _ in self._on(mask) if ranges_meet(self.cells(o), q)]

    def occupancy(self):
        """(active cells, memberships, max objects per cell, large objects)."""
        counts = {}
        large = 0
        d = self.dimension
        for obj in self._shapes:
            if self.is_large(obj):
                large += 1
                continue
            r = self.cells(obj)
            for cell in itertools.product(*(range(r[i], r[d + i] + 1) for i in range(d))):
                counts[cell] = counts.get(cell, 0) + 1
        return len(counts), sum(counts.values()), max(counts.values(), default=0), large


class Oracle(_Cells, BruteForce):
    """BruteForce plus the cell bookkeeping a uniform grid is expected to have."""

    dimension = 2


class Oracle3D(_Cells, BruteForce3D):
    """Oracle in 3D."""

    dimension = 3


def same_pairs(got, expected):
    """Pairs as unordered sets, insisting that `got` lists each pair only once."""
    got_set = {frozenset(p) for p in got}
    assert len(got_set) == len(got), f"duplicate pairs in {got}"
    assert all(len(p) == 2 for p in got_set), f"self-pair in {got}"
    return got_set == {frozenset(p) for p in expected}
