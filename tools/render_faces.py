"""Render the nodes' GDScript faces from one template per GDScript dialect.

`tools/faces/godot4.gd.in` and `tools/faces/godot3.gd.in` are Tempita
templates (Cython's); each is rendered once per dimension into the committed
`addons/spatial_hash/<dialect>/spatial_hash_2d.gd` (class SpatialHash2D) and
`spatial_hash_3d.gd` (SpatialHash3D), so the two nodes share every line of
logic. Each face opens with a comment naming its template and this command,
since the next render overwrites any edit. The test suite checks that the
committed faces are the render. After editing a template, from a checkout:

    python tools/render_faces.py
"""
import pathlib
import sys

from Cython import Tempita

CHECKOUT = pathlib.Path(__file__).resolve().parent.parent
ADDON = CHECKOUT / "addons" / "spatial_hash"
TEMPLATES = CHECKOUT / "tools" / "faces"
DIALECTS = ("godot4", "godot3")


def names(dimension):
    """The template namespace of one dimension (2 or 3); the API's words come
    from the table the faces are held to (spatial_hash.node.api)."""
    sys.path.insert(0, str(ADDON.parent))
    try:
        from spatial_hash.node.api import GODOT3_NAMES, WORDS
        from spatial_hash.node.dimensions import DIMENSIONS
    finally:
        sys.path.pop(0)
    words, dim = WORDS[dimension], DIMENSIONS[dimension]
    flat = dimension == 2

    def each(fmt, sep=", "):
        """fmt formatted for each axis ({a}) and joined by sep."""
        return sep.join(fmt.format(a=a) for a in dim.axes)

    def seq(fmt, first, count=dimension, sep=", "):
        """fmt formatted with {n} from first, count times, joined by sep."""
        return sep.join(fmt.format(n=first + k) for k in range(count))

    return dict(
        D=dimension,
        each=each,
        seq=seq,
        NODE=dim.node,
        BASE4="Node2D" if flat else "Node3D",
        BASE3="Node2D" if flat else "Spatial",
        VECTOR=words["vector"],
        BOX=words["box"],
        PACKED_VECTORS="Packed%sArray" % words["vector"],
        POOL_VECTORS="Pool%sArray" % words["vector"],
        CIRCLE=words["circle"],
        CIRCLES=words["circle"] + "s",
        DISC="disc" if flat else "sphere",
        BOUNDS=words["bounds"],
        RECT=words["rect"],
        CELL_SIZE=words["cell_size"],
        UPDATE3=GODOT3_NAMES[dimension].get("update", "update"),
        CORNER="top-left corner" if flat else "min corner",
        CORNERS="top-left corners" if flat else "min corners",
        MONITORS=dim.monitor_prefix,
        # The face's first engine call names the engine's dimension (none: 2D).
        PROTOCOL_ARGS="" if flat else ", %d" % dimension,
    )


def render(dialect, dimension):
    """The face of `dialect` ("godot4" or "godot3") for `dimension`, as text."""
    template = TEMPLATES / (dialect + ".gd.in")
    header = ("# Rendered from tools/faces/%s.gd.in by `python tools/render_faces.py` (in the\n"
              "# spatial_hash repository): edit the template and render again, not this file.\n"
              % dialect)
    body = Tempita.Template(template.read_text(), name=str(template)).substitute(names(dimension))
    return header + body


def face_path(dialect, dimension):
    return ADDON / dialect / ("spatial_hash_%dd.gd" % dimension)


def main():
    for dialect in DIALECTS:
        for dimension in (2, 3):
            target = face_path(dialect, dimension)
            text = render(dialect, dimension)
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
                print(f"rendered {target.relative_to(CHECKOUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
