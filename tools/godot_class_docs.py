"""Write the nodes' GDScript class reference (Godot's doc XML of SpatialHash2D
and SpatialHash3D, from the Godot 4 faces' `##` comments) into docs/godot/,
where the manual renders it from. Needs a Godot 4 editor build; after editing
the comments in tools/faces/godot4.gd.in and rendering the faces, from a checkout:

    python tools/godot_class_docs.py godot        # or the command that starts Godot 4
"""
import pathlib
import shlex
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "docs" / "_ext"))
from godot_classes import XML_FOLDER, write_xml  # noqa: E402


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    for name, path in write_xml(shlex.split(argv[0]) + ["--headless"], XML_FOLDER).items():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
