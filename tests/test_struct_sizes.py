"""The struct sizes the core's layout depends on."""
from spatial_hash._core import STRUCT_SIZES


def test_every_struct_is_listed():
    assert set(STRUCT_SIZES) == {"Shape", "CellRange"}


def test_sizes_that_hold_everywhere():
    # Shape: four doubles, an object's whole narrow-phase data: two objects per
    # cache line, in the bodies by id and in a pair pass's packed scans alike.
    assert STRUCT_SIZES["Shape"] == 32
    # CellRange: four int32 cell coordinates, so the uniform grid's pair pass
    # reads four packed ranges per cache line.
    assert STRUCT_SIZES["CellRange"] == 16


def test_sizes_in_3d():
    # Shape in 3D: six doubles (a box's corners, or a sphere and two NaNs).
    # CellRange: six int32 cell coordinates.
    from spatial_hash._core3d import STRUCT_SIZES as SIZES_3D
    assert SIZES_3D == {"Shape": 48, "CellRange": 24}
