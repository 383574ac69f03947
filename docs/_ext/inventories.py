"""The manual's links into the Python, numpy and Godot manuals, for intersphinx.

The build runs offline (CI has no network), so intersphinx reads these small
inventories instead of the projects' published ones: each lists the pages and
anchors of the other manual that this one links to (the types in the
reference, the exceptions it raises, the glossary terms numpydoc links), in
Sphinx's inventory format, written by `write` when the manual is built. A
name the manual uses that is missing here stays plain text; one added here
must be the target's address on the other site as it is published.
"""
import pathlib
import zlib

# name, domain:role, address relative to the manual's root ($: the name), text
# shown where the reference has none ("-": the name).
PYTHON = [
    ("None", "py:data", "library/constants.html#$", "-"),
    ("True", "py:data", "library/constants.html#$", "-"),
    ("False", "py:data", "library/constants.html#$", "-"),
    ("bltin-boolean-values", "std:label", "library/stdtypes.html#$", "Boolean Values"),
    ("bool", "py:class", "library/functions.html#$", "-"),
    ("int", "py:class", "library/functions.html#$", "-"),
    ("float", "py:class", "library/functions.html#$", "-"),
    ("object", "py:class", "library/functions.html#$", "-"),
    ("callable", "py:function", "library/functions.html#$", "-"),
    ("str", "py:class", "library/stdtypes.html#$", "-"),
    ("list", "py:class", "library/stdtypes.html#$", "-"),
    ("tuple", "py:class", "library/stdtypes.html#$", "-"),
    ("dict", "py:class", "library/stdtypes.html#$", "-"),
    ("hashable", "std:term", "glossary.html#term-hashable", "-"),
    ("iterable", "std:term", "glossary.html#term-iterable", "-"),
    ("sequence", "std:term", "glossary.html#term-sequence", "-"),
    ("math.inf", "py:data", "library/math.html#$", "-"),
    ("os.PathLike", "py:class", "library/os.html#$", "-"),
    ("threading", "py:module", "library/threading.html#module-threading", "-"),
    ("warnings.warn", "py:function", "library/warnings.html#$", "-"),
] + [(name, "py:exception", "library/exceptions.html#$", "-") for name in (
    "AssertionError", "KeyError", "LookupError", "MemoryError", "OSError", "RuntimeError",
    "RuntimeWarning", "TypeError", "ValueError")]
NUMPY = [
    ("numpy", "py:module", "reference/index.html#module-numpy", "-"),
    ("numpy.ndarray", "py:class", "reference/generated/numpy.ndarray.html#$", "-"),
    ("array_like", "std:term", "glossary.html#term-array_like", "array_like"),
    ("arrays.scalars", "std:label", "reference/arrays.scalars.html#arrays-scalars", "Scalars"),
    ("numpy.inf", "py:data", "reference/constants.html#$", "-"),
] + [(f"numpy.{name}", "py:attribute", "reference/arrays.scalars.html#$", "-")
     for name in ("bool", "int32", "int64", "uint32", "float32", "float64")]
# Godot 4's class reference: the engine types the API accepts and the nodes use.
GODOT = [(name, "py:class", f"classes/class_{name.lower()}.html", "-") for name in (
    "Vector2", "Vector3", "Rect2", "AABB", "PackedVector2Array", "PackedVector3Array",
    "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "Node", "Node2D", "Node3D",
    "Area2D", "Area3D", "Object", "Callable", "Array", "Dictionary", "String")]

INVENTORIES = {
    "python": ("Python", "3", "https://docs.python.org/3", PYTHON),
    "numpy": ("NumPy", "stable", "https://numpy.org/doc/stable", NUMPY),
    "godot": ("Godot Engine", "stable", "https://docs.godotengine.org/en/stable", GODOT),
}


def inventory_bytes(project, version, entries):
    """An objects.inv (format 2) holding `entries`."""
    header = (f"# Sphinx inventory version 2\n# Project: {project}\n# Version: {version}\n"
              "# The remainder of this file is compressed using zlib.\n").encode()
    body = "".join(f"{name} {role} 1 {address} {text}\n" for name, role, address, text in entries)
    return header + zlib.compress(body.encode())


def write(folder):
    """Write each inventory into `folder`; the intersphinx_mapping that reads them."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    mapping = {}
    for key, (project, version, site, entries) in INVENTORIES.items():
        path = folder / f"{key}.inv"
        data = inventory_bytes(project, version, entries)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        mapping[key] = (site, str(path))
    return mapping
