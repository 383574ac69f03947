"""The index settings of a node (its cell_size, large_object_threshold and
hierarchical properties): checks, and moving the objects to an index built
with new settings."""
import math

import numpy as np

from spatial_hash.node.arguments import flag, number


def check_index_settings(cell_size, large_object_threshold, hierarchical):
    """The settings as make_grid takes them; raises naming a bad one."""
    size = number(cell_size, "cell_size")
    if not (size > 0.0 and math.isfinite(size)):
        raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}")
    threshold = large_object_threshold
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)) \
            or not 1 <= threshold <= 64:
        raise ValueError(f"large_object_threshold must be an int from 1 to 64, "
                         f"got {large_object_threshold!r}")
    return {"cell_size": size, "large_object_threshold": int(threshold),
            "hierarchical": flag(hierarchical, "hierarchical")}


def make_grid(dimension, cell_size, large_object_threshold, hierarchical):
    """An empty index of the Dimension for the settings."""
    if hierarchical:
        return dimension.hierarchical()
    return dimension.uniform(cell_size, (0.0,) * dimension.d, large_object_threshold)


def regrid(dimension, grid, settings):
    """A new index with `settings` holding every object of `grid` under the same
    id; ValueError if they do not fit there."""
    new = make_grid(dimension, **settings)
    grid.copy_into(new)
    return new
