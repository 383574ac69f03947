"""Type stubs for the compiled 2D core (spatial_hash._core; tests/test_core_stubs.py
holds them to the module), for editors and type checkers. Coordinates and sizes are
world units (floats); ids are the index's own non-negative ints, reused after removal;
a handle is whatever was stored with an object (its id by default) and is what queries
return. Arguments typed float raise TypeError when they are not numbers. Bad values
raise ValueError naming them (NaN or infinite coordinates, negative sizes, objects out
of the index's range); unknown ids raise KeyError; running out of memory raises
MemoryError; a call made while another thread's call holds the index raises
RuntimeError. The compiled classes' docstrings say what each method takes, returns and
raises.

Collision layers: every object has a 32-bit layer and mask (default 1 and all
bits); a pair is reported when either one's mask has a bit of the other's
layer, and a query's `mask` returns only objects on one of its layers. Layers
and masks outside 0 .. 2**32 - 1 raise ValueError."""
from typing import Any, Dict, Hashable, List, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

# The mask with every layer (0xFFFFFFFF): the default mask of objects and queries.
ALL_LAYERS: int
# The keys of stats(), in order, the same for both grids.
STATS_KEYS: Tuple[str, ...]
# Bytes per struct the core's memory layout is designed around (Shape,
# CellRange), for tests.
STRUCT_SIZES: Dict[str, int]
# A loop over fewer objects than this runs on one thread whatever `threads` says.
THREADED_FROM: int

Vec = Union[Tuple[float, float], Sequence[float], Any]     # or anything with .x, .y (Vector2)
Bounds = Union[Tuple[float, float, float, float], Sequence[float], Any]  # or .position/.size (Rect2)
ArrayLike = npt.ArrayLike


def read_vec2(v: Vec, name: str = ...) -> Tuple[float, float]: ...
def read_rect(r: Bounds, name: str = ...) -> Tuple[float, float, float, float]: ...
def rect_rows_into(positions: npt.NDArray[Any], sizes: npt.NDArray[Any],
                   rows: npt.NDArray[np.float64]) -> int: ...


class SpatialIndex:
    """What both grids share: objects, queries, pairs and batches."""
    broad_phase_pairs: int      # candidate pairs the last pair pass met
    narrow_phase_checks: int    # distinct pairs it tested exactly
    hits: int                   # overlapping pairs it found
    safe_magnitude: float       # rows with every number within it (sizes >= 0) are never refused
    threads: int                # threads the pair pass and batch moves may use (1 here)

    def __len__(self) -> int: ...
    def __contains__(self, object_id: object) -> bool: ...

    # Single objects.
    def insert_rect(self, x: float, y: float, width: float, height: float,
                    handle: Hashable = ..., layer: int = ..., mask: int = ...,
                    static: bool = ...) -> int: ...
    def insert_circle(self, x: float, y: float, radius: float, handle: Hashable = ...,
                      layer: int = ..., mask: int = ..., static: bool = ...) -> int: ...
    def set_filter(self, object_id: int, layer: int, mask: int) -> None: ...
    def set_static(self, object_id: int, is_static: bool = ...) -> None:
        """Two static objects never pair."""
    def is_static(self, object_id: int) -> bool: ...
    def filter_of(self, object_id: int) -> Tuple[int, int]:
        """(layer, mask)."""
    def update_rect(self, object_id: int, x: float, y: float,
                    width: float, height: float) -> None: ...
    def update_bounds(self, object_id: int, bounds: Bounds, name: str = ...) -> None:
        """update_rect from (x, y, width, height) or a Rect2."""
    def update_circle(self, object_id: int, x: float, y: float, radius: float) -> None: ...
    def remove(self, object_id: int) -> bool: ...
    def clear(self) -> None: ...
    def copy_into(self, target: SpatialIndex) -> None:
        """Every object into the empty `target` under the same id and handle."""
    def validate(self) -> None:
        """AssertionError naming the first broken internal invariant."""
    def handle(self, object_id: int) -> Any: ...
    def bounds(self, object_id: int) -> Tuple[float, float, float, float]: ...
    def circle_of(self, object_id: int) -> Optional[Tuple[float, float, float]]: ...
    def ids(self) -> List[int]: ...
    def is_colliding(self, a: int, b: int) -> bool:
        """Would pairs() report a and b: they overlap and their filters pass."""

    # Queries: lists of handles of the objects on a layer of `mask`.
    def query_nearby(self, x: float, y: float, width: float, height: float,
                     mask: int = ...) -> List[Any]: ...
    def query_nearby_at(self, pos: Vec, size: Vec = ..., mask: int = ...) -> List[Any]: ...
    def query_rect(self, x: float, y: float, width: float, height: float,
                   exact: bool = ..., mask: int = ...) -> List[Any]: ...
    def query_point(self, x: float, y: float, mask: int = ...) -> List[Any]: ...
    def query_radius(self, x: float, y: float, radius: float, mask: int = ...) -> List[Any]: ...
    def query_swept(self, x0: float, y0: float, x1: float, y1: float,
                    width: float, height: float, mask: int = ...) -> List[Any]: ...
    def raycast(self, x0: float, y0: float, x1: float, y1: float, mask: int = ...
                ) -> Optional[Tuple[Any, float, Tuple[float, float], Tuple[float, float]]]:
        """(handle, fraction, hit point, unit normal) of the first object the
        segment meets, or None; a start inside is met at 0 with normal (0, 0)."""
    def raycast_all(self, x0: float, y0: float, x1: float, y1: float, mask: int = ...
                    ) -> List[Tuple[Any, float, Tuple[float, float], Tuple[float, float]]]:
        """Every hit as raycast's tuples, earliest first (ties in id order)."""
    def query_nearest(self, x: float, y: float, k: int = ..., max_distance: float = ...,
                      mask: int = ...) -> List[Any]:
        """The k nearest handles, nearest first (ties in id order), none farther
        than max_distance. ValueError for a bad point, k or max_distance."""

    # Pairs: each overlapping pair once, smaller id first.
    def pairs(self) -> List[Tuple[Any, Any]]: ...
    def pair_ids(self, out: Optional[npt.NDArray[np.int32]] = ...) -> npt.NDArray[np.int32]:
        """(k, 2) int32 ids, smaller first; `out`, an (m, 2) int32 C-contiguous
        array, is reused when m >= k. ValueError for any other `out`."""
    def pair_events(self) -> Tuple[List[Tuple[Any, Any]], List[Tuple[Any, Any]]]:
        """(began, ended) handle pairs since the last pair_events or
        pair_event_ids; a removed object's pairs end (with its old handle)."""
    def pair_event_ids(self) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """(began, ended): (k, 2) and (m, 2) int32 ids, smaller first; an ended
        pair's id may already name another object."""
    def end_pairs_of(self, object_id: int) -> List[Tuple[Any, Any]]:
        """End now the object's pairs the last pair_events reported; the next
        call does not report them."""
    def last_phase_ms(self) -> Dict[str, float]:
        """{"moves", "relinks", "pairs"}: ms of the last batch update's two passes
        and of the last pair pass."""
    def last_pair_pass(self) -> str:
        """"full", "changed", "unchanged" or "none": which way the last pair
        pass went."""
    def candidate_ids(self, out: Optional[npt.NDArray[np.int32]] = ...) -> npt.NDArray[np.int32]:
        """(k, 2) int32 ids of every pair the narrow phase tests (a superset of
        pair_ids); `out` as for pair_ids."""

    # Batches: every row is validated before anything changes.
    def insert_rects(self, rects: ArrayLike, handles: Optional[Sequence[Hashable]] = ...,
                     layers: Optional[ArrayLike] = ..., masks: Optional[ArrayLike] = ...,
                     static: ArrayLike = ...) -> npt.NDArray[np.int64]:
        """rects: (n, 4) float64 rows of x, y, width, height; layers and masks:
        (n,) ints or one for all; returns (n,) int64 ids. ValueError for a wrong
        shape, a bad row, layer or mask, or len(handles) != n."""
    def insert_circles(self, centers: ArrayLike, radii: ArrayLike,
                       handles: Optional[Sequence[Hashable]] = ...,
                       layers: Optional[ArrayLike] = ..., masks: Optional[ArrayLike] = ...,
                       static: ArrayLike = ...) -> npt.NDArray[np.int64]:
        """centers: (n, 2) float64; radii: (n,) or one number; returns (n,) int64 ids."""
    def set_filters(self, ids: ArrayLike, layers: ArrayLike, masks: ArrayLike) -> None:
        """set_filter for (n,) distinct live ids; layers and masks (n,) or one."""
    def set_statics(self, ids: ArrayLike, statics: ArrayLike) -> None:
        """set_static for (n,) distinct live ids; statics (n,) bools or one."""
    def update_rects(self, ids: ArrayLike, rects: ArrayLike) -> None:
        """ids: (n,) integer array of distinct live ids; rects: (n, 4) float64.
        TypeError for non-integer ids, KeyError for an unknown one, ValueError
        for a repeated one, a row count other than n or a bad row."""
    def update_packed(self, ids: ArrayLike, corners: npt.NDArray[np.float32],
                      sizes: npt.NDArray[np.float32]) -> None:
        """update_rects from (n, 2) C-contiguous float32 min corners and
        sizes (Godot's packed Vector2 arrays), read where they are."""
    def update_boxes(self, ids: ArrayLike, corners: npt.NDArray[np.float32],
                     sizes: npt.NDArray[np.float32]) -> None:
        """Deprecated: update_packed."""
    def update_circles(self, ids: ArrayLike, centers: ArrayLike, radii: ArrayLike) -> None: ...
    def remove_many(self, ids: ArrayLike) -> None:
        """ids: (n,) integer array of distinct live ids; all are checked before
        any is removed (TypeError, KeyError, ValueError as in update_rects)."""
    def query_rects(self, rects: ArrayLike, exact: bool = ..., mask: int = ...
                    ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """rects: (m, 4) float64. Returns (offsets, ids): (m + 1,) int64 and int32
        object ids (not handles); query k's are ids[offsets[k]:offsets[k + 1]]."""
    def raycast_many(self, rays: ArrayLike, all_hits: bool = ..., mask: int = ...
                     ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.float64],
                                npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """rays: (m, 4) float64 rows of x0, y0, x1, y1. Returns (offsets, ids,
        fractions, points, normals): (m + 1,) int64, int32 object ids, float64,
        (k, 2) and (k, 2) float64; ray j's first hit (every hit if all_hits),
        earliest first, in [offsets[j]:offsets[j + 1]]."""
    def query_nearest_many(self, points: ArrayLike, k: int = ..., max_distance: float = ...,
                           mask: int = ...) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int32],
                                      npt.NDArray[np.float64]]:
        """points: (m, 2) float64. Returns (offsets, ids, distances): (m + 1,)
        int64, int32 object ids and float64 distances, point j's nearest first
        in [offsets[j]:offsets[j + 1]]."""


@final
class UniformGrid(SpatialIndex):
    """One cell size (world units; cell (cx, cy) starts at origin + (cx, cy) *
    cell_size, cell coordinates within +-2**30); objects over `large_threshold`
    cells on a side go to a large-object list; `threads` for the pair pass and
    batch moves."""
    cell_size: float
    origin_x: float
    origin_y: float
    large_threshold: int

    def __init__(self, cell_size: float = ..., origin: Vec = ...,
                 large_threshold: int = ..., threads: int = ...) -> None: ...
    def cells_of(self, object_id: int) -> Tuple[int, int, int, int]: ...
    def is_large(self, object_id: int) -> bool: ...
    def cell_of(self, x: float, y: float) -> Tuple[int, int]: ...
    def cell_counts(self) -> Dict[Tuple[int, int], int]: ...
    def stats(self) -> Dict[str, Any]:
        """Keys STATS_KEYS, each described in the core's UniformGrid.stats."""


@final
class HierarchicalGrid(SpatialIndex):
    """Levels of cell sizes growing by `hierarchy_factor`; each object in one cell
    of the level that fits it; `threads` for batch moves and the pair pass.
    Sizes up to 1e150 and coordinates up to 1e160 (world units)."""
    hierarchy_factor: float
    density: float

    def __init__(self, hierarchy_factor: float = ..., density: float = ...,
                 threads: int = ...) -> None: ...
    def level_of_id(self, object_id: int) -> Tuple[float, int]: ...
    def stats(self) -> Dict[str, Any]:
        """Keys STATS_KEYS (levels finest first)."""
