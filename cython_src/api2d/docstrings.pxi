# The 2D words and examples of the shared files' docstrings (doc_words.pxi
# says how they are put in): included by classes.pxi before the classes.

include "doc_words.pxi"

_fill_docstrings(globals(), {
    "Index": "SpatialIndex", "Grid": "UniformGrid", "HGrid": "HierarchicalGrid",
    "insert_box": "insert_rect", "update_box": "update_rect", "query_box": "query_rect",
    "insert_round": "insert_circle", "update_round": "update_circle", "round_of": "circle_of",
    "insert_boxes": "insert_rects", "update_rows": "update_rects", "update_packed": "update_packed",
    "insert_rounds": "insert_circles", "update_rounds": "update_circles",
    "query_boxes": "query_rects", "round": "disc", "rounds": "discs", "point": "(x, y)",
    "box": "(x, y, width, height)", "ray": "(x0, y0, x1, y1)", "Bounds": "Rect2",
    "Vector": "Vector2", "D": "2", "twoD": "4", "zero": "(0, 0)", "cell": "(cx, cy)",
}, {
    "pairs": """
    >>> from spatial_hash import UniformGrid
    >>> grid = UniformGrid(cell_size=16.0)
    >>> grid.insert_rect(0, 0, 10, 10, handle="ship")
    0
    >>> grid.insert_circle(12, 5, 3, handle="mine")
    1
    >>> grid.insert_rect(50, 50, 1, 1, handle="rock")
    2
    >>> grid.pairs()
    [('ship', 'mine')]
    >>> grid.hits
    1
    """,
    "pair_ids": """
    >>> from spatial_hash import UniformGrid
    >>> grid = UniformGrid(cell_size=16.0)
    >>> for x in (0, 3, 6):
    ...     _ = grid.insert_rect(x, 0, 4, 4)
    >>> grid.pair_ids()
    array([[0, 1],
           [1, 2]], dtype=int32)
    """,
    "pair_events": """
    >>> from spatial_hash import UniformGrid
    >>> grid = UniformGrid(cell_size=16.0)
    >>> ship = grid.insert_rect(0, 0, 4, 4, handle="ship")
    >>> grid.insert_rect(3, 0, 4, 4, handle="rock")
    1
    >>> grid.pair_events()
    ([('ship', 'rock')], [])
    >>> grid.update_rect(ship, 20, 0, 4, 4)
    >>> grid.pair_events()
    ([], [('ship', 'rock')])
    """,
})
del _fill_docstrings
