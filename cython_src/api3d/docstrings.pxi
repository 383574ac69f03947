# The 3D words and examples of the shared files' docstrings (doc_words.pxi
# says how they are put in): included by classes.pxi before the classes.

include "doc_words.pxi"

_fill_docstrings(globals(), {
    "Index": "SpatialIndex3D", "Grid": "UniformGrid3D", "HGrid": "HierarchicalGrid3D",
    "insert_box": "insert_box", "update_box": "update_box", "query_box": "query_box",
    "insert_round": "insert_sphere", "update_round": "update_sphere", "round_of": "sphere_of",
    "insert_boxes": "insert_boxes", "update_rows": "update_boxes", "update_packed": "update_packed",
    "insert_rounds": "insert_spheres", "update_rounds": "update_spheres",
    "query_boxes": "query_boxes", "round": "sphere", "rounds": "spheres", "point": "(x, y, z)",
    "box": "(x, y, z, width, height, depth)", "ray": "(x0, y0, z0, x1, y1, z1)", "Bounds": "AABB",
    "Vector": "Vector3", "D": "3", "twoD": "6", "zero": "(0, 0, 0)", "cell": "(cx, cy, cz)",
}, {
    "pairs": """
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> grid.insert_box(0, 0, 0, 10, 10, 10, handle="ship")
    0
    >>> grid.insert_sphere(12, 5, 5, 3, handle="mine")
    1
    >>> grid.insert_box(50, 50, 50, 1, 1, 1, handle="rock")
    2
    >>> grid.pairs()
    [('ship', 'mine')]
    >>> grid.hits
    1
    """,
    "pair_ids": """
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> for x in (0, 3, 6):
    ...     _ = grid.insert_box(x, 0, 0, 4, 4, 4)
    >>> grid.pair_ids()
    array([[0, 1],
           [1, 2]], dtype=int32)
    """,
    "pair_events": """
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> ship = grid.insert_box(0, 0, 0, 4, 4, 4, handle="ship")
    >>> grid.insert_box(3, 0, 0, 4, 4, 4, handle="rock")
    1
    >>> grid.pair_events()
    ([('ship', 'rock')], [])
    >>> grid.update_box(ship, 20, 0, 0, 4, 4, 4)
    >>> grid.pair_events()
    ([], [('ship', 'rock')])
    """,
})
del _fill_docstrings
