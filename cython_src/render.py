"""Render the core's Tempita templates (`*.in` here) once per dimension.

The 2D core (`spatial_hash._core`) and the 3D core (`spatial_hash._core3d`) are
one source. What names nothing per dimension is plain Cython over D axes
(`*.pxi` here, included as it is); the templates say what Python sees, which
differs: class and method names, arguments, docstrings. Each template is
rendered with the names of its dimension below, into a folder per dimension
that holds a module's `.pyx`, its templated include files and its
`spatial_hash/<module>.pxd`. Run as a script to render into a folder:

    python cython_src/render.py OUT_DIR
"""
import pathlib
import sys

from Cython import Tempita

HERE = pathlib.Path(__file__).resolve().parent
RENDERED = HERE / "generated"       # what setup.py builds from (not in git)

SIZES = ("width", "height", "depth")
SIZE_LETTERS = ("w", "h", "d")


def names(dimension):
    """The template namespace of one dimension (2 or 3)."""
    axes = "xyz"[:dimension]
    flat = dimension == 2

    def each(fmt, sep=", "):
        """fmt formatted for each axis and joined by sep. Fields: {a} the axis
        (x), {A} in capitals (X), {i} its index, {j} index + dimension (the
        max corner's place in a box's numbers), {s} its size (width), {S} in
        capitals (WIDTH), {l} the size's letter (w)."""
        return sep.join(fmt.format(a=a, A=a.upper(), i=i, j=i + dimension, s=SIZES[i],
                                   S=SIZES[i].upper(), l=SIZE_LETTERS[i])
                        for i, a in enumerate(axes))

    return dict(
        D=dimension,
        AXES=list(axes),
        each=each,
        MODULE="_core" if flat else "_core3d",
        SUFFIX="" if flat else "3D",
        # Public names: the methods and words of each dimension.
        RECT="rect" if flat else "box",
        RECTS="rects" if flat else "boxes",
        CIRCLE="circle" if flat else "sphere",
        CIRCLES="circles" if flat else "spheres",
        DISC="disc" if flat else "sphere",
        SQUARE="square" if flat else "cube",
        # The batch update from Godot's packed float32 corners and sizes (2D's
        # "update_boxes" would otherwise clash with 3D's update of box rows).
        PACKED_UPDATE="update_boxes" if flat else "update_aabbs",
        VECTOR="Vector2" if flat else "Vector3",
        BOUNDS="Rect2" if flat else "AABB",
    )


def render(out_dir):
    """Render every template for both dimensions under out_dir/d2 and out_dir/d3."""
    out_dir = pathlib.Path(out_dir)
    for dimension in (2, 3):
        namespace = names(dimension)
        folder = out_dir / ("d%d" % dimension)
        (folder / "spatial_hash").mkdir(parents=True, exist_ok=True)
        for template in sorted(HERE.glob("*.in")):
            name = template.name[:-len(".in")]
            if name == "_core.pyi":
                continue
            if name == "_core.pyx":
                target = folder / (namespace["MODULE"] + ".pyx")
            elif name == "_core.pxd":
                target = folder / "spatial_hash" / (namespace["MODULE"] + ".pxd")
            else:
                target = folder / name
            text = Tempita.Template(template.read_text(), name=str(template)).substitute(namespace)
            # Unchanged files keep their times, so Cython rebuilds only what changed.
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
        # A file that is no longer a template is included from cython_src/
        # itself: a stale rendering beside the module would shadow it.
        for stale in folder.glob("*.pxi"):
            if not (HERE / (stale.name + ".in")).exists():
                stale.unlink()
    return out_dir


def render_stubs(package_dir):
    """Render the type stubs of both cores into the package: _core.pyi, _core3d.pyi."""
    template = Tempita.Template((HERE / "_core.pyi.in").read_text(), name="_core.pyi.in")
    for dimension in (2, 3):
        namespace = names(dimension)
        target = pathlib.Path(package_dir) / (namespace["MODULE"] + ".pyi")
        text = template.substitute(namespace)
        if not target.exists() or target.read_text() != text:
            target.write_text(text)


if __name__ == "__main__":
    render(sys.argv[1] if len(sys.argv) > 1 else RENDERED)
    render_stubs(HERE.parent / "addons" / "spatial_hash")
