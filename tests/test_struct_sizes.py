"""The struct sizes the core's layout depends on."""
import struct

import pytest

from spatial_hash._core import STRUCT_SIZES

POINTER_BYTES = struct.calcsize("P")


def test_every_struct_is_listed():
    assert set(STRUCT_SIZES) == {"Body", "Shape", "CellRange"}


def test_sizes_that_hold_everywhere():
    # Shape: four doubles, half a Body, so the pair pass's packed scans read
    # twice as many objects per cache line as the bodies would give.
    assert STRUCT_SIZES["Shape"] == 32
    # CellRange: four int32 cell coordinates, so the uniform grid's pair pass
    # reads four packed ranges per cache line.
    assert STRUCT_SIZES["CellRange"] == 16


@pytest.mark.skipif(POINTER_BYTES != 8, reason="the cache-line layout is designed for 64-bit builds")
def test_body_fills_one_cache_line():
    # Body: a box (4 doubles), a circle (3 doubles) and a kind byte, padded to
    # 64: the narrow phase reads one cache line per object.
    assert STRUCT_SIZES["Body"] == 64
