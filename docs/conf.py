"""Sphinx configuration of the spatial_hash manual:
python -m sphinx -W -b html docs docs/_build/html"""
import pathlib
import sys

DOCS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

import spatial_hash  # noqa: E402  (the installed package: its compiled core is documented too)

project = "spatial_hash"
author = "the spatial_hash authors"
copyright = "2026, " + author
release = version = spatial_hash.__version__

import inventories  # noqa: E402  (docs/_ext)

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.intersphinx",
              "numpydoc", "api_pages", "godot_classes", "bench_figures"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_generated", "godot/*.xml"]
templates_path = ["_templates"]
myst_heading_anchors = 3

# The reference: reference/python.rst's autosummary tables, a page per class
# (reference/generated/, written at each build by autosummary; api_pages.py
# lays each page out: a table of every method and property, each member
# documented once, on the page of the class that defines it).
autosummary_generate = True
default_role = "py:obj"             # `name` in a docstring links to what it names
toc_object_entries_show_parents = "hide"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
# Every documented function, method, property and class, compiled ones
# included: each parameter documented with a type and a description, in the
# signature's order, and what it returns (the build fails otherwise).
numpydoc_validation_checks = {"GL08", "PR01", "PR02", "PR03", "PR04", "PR07", "PR10", "RT01", "RT03"}
# Types link to the manual that defines them; other words stay text.
numpydoc_xref_param_type = True
numpydoc_xref_ignore = "all"
numpydoc_xref_aliases = {
    "hashable": ":term:`python:hashable`", "Vector2": ":class:`godot:Vector2`",
    "Vector3": ":class:`godot:Vector3`", "Rect2": ":class:`godot:Rect2`", "AABB": ":class:`godot:AABB`",
    "int32": ":obj:`numpy.int32`", "int64": ":obj:`numpy.int64`", "float32": ":obj:`numpy.float32`",
    "float64": ":obj:`numpy.float64`", "uint32": ":obj:`numpy.uint32`",
    "numpy.ndarray": ":class:`numpy.ndarray`", "object": ":class:`python:object`",
    "os.PathLike": ":class:`python:os.PathLike`",
    "SpatialIndex": ":class:`spatial_hash._core.SpatialIndex`",
    "SpatialIndex3D": ":class:`spatial_hash._core3d.SpatialIndex3D`",
}
for _name in ("UniformGrid", "HierarchicalGrid", "UniformGrid3D", "HierarchicalGrid3D", "SpatialHash",
              "OptimizedSpatialHash", "HierarchicalSpatialHash", "SpatialHash3D", "OptimizedSpatialHash3D",
              "HierarchicalSpatialHash3D", "CollisionObject", "CollisionObject3D", "BruteForce"):
    numpydoc_xref_aliases[_name] = f"spatial_hash.{_name}"

# The Python, numpy and Godot manuals, from the inventories of the pages this
# manual links to (inventories.py: the build needs no network).
intersphinx_mapping = inventories.write(DOCS / "_generated" / "inventories")

html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["spatial_hash.css"]
html_title = f"spatial_hash {release}"
html_theme_options = {"navigation_with_keys": True}


def setup(app):
    # Pygments' GDScript lexer predates Godot 4's annotations (@onready, @export).
    from pygments.lexers import GDScriptLexer
    from pygments.token import Name

    class Godot4Lexer(GDScriptLexer):
        tokens = {**GDScriptLexer.tokens,
                  "root": [(r"@\w+", Name.Decorator)] + GDScriptLexer.tokens["root"]}

    app.add_lexer("gdscript", Godot4Lexer)
