"""The node's exported properties: defaults, checks, and moving the objects to
an index built with new settings."""
import math

import numpy as np

from spatial_hash._core import HierarchicalGrid, UniformGrid
from spatial_hash.node.arguments import flag, number

# The exported properties and their defaults; the first three shape the index.
SETTINGS = {
    "cell_size": 64.0,
    "large_object_threshold": 4,
    "hierarchical": False,
    "debug_draw": False,
    "debug_candidates": True,
    "overlay": False,
    "monitors_enabled": True,
}
INDEX_SETTINGS = ("cell_size", "large_object_threshold", "hierarchical")


def check_setting(name, value):
    """The validated value of an exported property; raises naming it."""
    if name == "cell_size":
        size = number(value, name)
        if not (size > 0.0 and math.isfinite(size)):
            raise ValueError(f"cell_size must be a positive finite number, got {value!r}")
        return size
    if name == "large_object_threshold":
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not 1 <= value <= 64:
            raise ValueError(f"large_object_threshold must be an int from 1 to 64, got {value!r}")
        return int(value)
    return flag(value, name)


def make_grid(cell_size, large_object_threshold, hierarchical):
    """An empty index for the three index settings."""
    if hierarchical:
        return HierarchicalGrid()
    return UniformGrid(cell_size, (0.0, 0.0), large_object_threshold)


def regrid(grid, settings):
    """A new index with `settings` holding every object of `grid` under the same
    id; ValueError if they do not fit there."""
    new = make_grid(*(settings[k] for k in INDEX_SETTINGS))
    grid.copy_into(new)
    return new
