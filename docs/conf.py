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

extensions = ["myst_parser", "sphinx.ext.autodoc", "numpydoc", "godot_classes", "bench_figures"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_generated", "godot/*.xml"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "inherited-members": True, "undoc-members": False}
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
# The package's own docstrings must document every parameter and what a
# function returns (the build fails otherwise); the compiled grids' docstrings
# come from cython_src/ and are not in numpydoc form yet.
numpydoc_validation_checks = {"PR01", "PR02", "PR03", "RT01"}
numpydoc_validation_exclude = {r"\.(Uniform|Hierarchical)Grid(3D)?\b"}

html_theme = "alabaster"
html_static_path = []
html_theme_options = {"description": "Exact, fast broad-phase collision detection", "page_width": "1100px",
                      "sidebar_width": "240px", "fixed_sidebar": True}
html_title = f"spatial_hash {release}"


def setup(app):
    # Pygments' GDScript lexer predates Godot 4's annotations (@onready, @export).
    from pygments.lexers import GDScriptLexer
    from pygments.token import Name

    class Godot4Lexer(GDScriptLexer):
        tokens = {**GDScriptLexer.tokens,
                  "root": [(r"@\w+", Name.Decorator)] + GDScriptLexer.tokens["root"]}

    app.add_lexer("gdscript", Godot4Lexer)
