"""The struct sizes the core's layout depends on."""
import struct

import pytest

from spatial_hash._core import STRUCT_SIZES

POINTER_BYTES = struct.calcsize("P")


def test_every_struct_is_listed():
    assert set(STRUCT_SIZES) == {"Body", "Shape", "Entry", "Bucket", "CellSlot"}


def test_sizes_that_hold_everywhere():
    # Shape: four doubles, half a Body, so the pair pass's packed scans read
    # twice as many objects per cache line as the bodies would give.
    assert STRUCT_SIZES["Shape"] == 32
    # Entry: an int32 id and a uint32 membership, so that LOCAL_ENTRIES of them
    # fit in a Bucket beside its header.
    assert STRUCT_SIZES["Entry"] == 8
    # CellSlot: an int64 key and an int32 bucket index, padded to 16: four slots
    # per cache line and none straddling two, so a lookup's probe mostly reads one.
    assert STRUCT_SIZES["CellSlot"] == 16


@pytest.mark.skipif(POINTER_BYTES != 8, reason="the cache-line layout is designed for 64-bit builds")
def test_body_and_bucket_fill_one_cache_line():
    # Body: a box (4 doubles), a circle (3 doubles) and a kind byte, padded to
    # 64: the narrow phase reads one cache line per object.
    assert STRUCT_SIZES["Body"] == 64
    # Bucket: four int32 fields, the heap pointer and LOCAL_ENTRIES (5) entries
    # of 8 bytes: a cell of up to five objects is one cache line, which the
    # queries prefetch whole.
    assert STRUCT_SIZES["Bucket"] == 64
