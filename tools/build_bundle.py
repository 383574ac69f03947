"""Build the Godot release bundles from the wheels in dist/: one zip per Godot
major version, in the asset library's layout. From a checkout, after
tools/build_wheels.py:

    python tools/build_bundle.py [--dist dist]

writes dist/spatial_hash-<version>-godot4.zip and -godot3.zip. Each holds one
folder, `spatial_hash-<version>-godot<N>/`, whose `addons/spatial_hash/` is what
a game ships and nothing else: plugin.cfg and the editor plugin, the nodes
(GDScript faces, the Python plugins' engine scripts, the icon), the license,
and under `python/` (which Godot's editor ignores) the installer, the package
`spatial_hash` with compiled cores (for Godot 4, every CPython the wheels were
built for; for Godot 3, the 3.8 that pythonscript embeds), and numpy wheels for
the Pythons that the plugins of that Godot version embed as released: 3.8
(pythonscript) for Godot 3, 3.14 (godot-python-extension and py4godot as built
here) for Godot 4. The Godot versions get a zip each: both
editors parse every .gd file under res://, both dialects declare the same
class names, and each finds only one plugin.cfg per addon folder.

Needs the package index for numpy's wheels (kept in dist/numpy/ once fetched).
"""
import argparse
import ast
import glob
import os
import re
import subprocess
import sys
import zipfile

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDON = os.path.join(CHECKOUT, "addons", "spatial_hash")
sys.path.insert(0, os.path.join(ADDON, "python"))
# The installer finds the numpy wheel for a Python as this bundle must carry it.
from install import numpy_wheel  # noqa: E402
# Per Godot version: the folders of the addon it ships, the Pythons to carry a
# core for (None: every wheel's; pythonscript 0.50 embeds only 3.8), and those
# to carry numpy for.
GODOT = {
    "godot4": {"folders": ["godot4", "py4godot"], "cores": None, "numpy": [(3, 14)]},
    "godot3": {"folders": ["godot3"], "cores": [(3, 8)], "numpy": [(3, 8)]},
}
NODE_FILES = ("spatial_hash_2d.gd", "spatial_hash_3d.gd", "missing_engine.gd", "editor_plugin.gd",
              "spatial_hash_engine.py")
# What the wheels hold that a game does not ship.
NOT_SHIPPED = re.compile(r"^spatial_hash/(bench/|.*\.pyi$)|/__pycache__/")
PLATFORMS = ["manylinux2014_x86_64", "manylinux_2_28_x86_64"]


def version():
    """The package's version, from the one place it is written."""
    tree = ast.parse(open(os.path.join(ADDON, "__init__.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__version__"]:
            return node.value.value
    raise RuntimeError("addons/spatial_hash/__init__.py sets no __version__")


def plugin_cfg(dialect, release):
    return ('[plugin]\n\n'
            'name="SpatialHash"\n'
            'description="SpatialHash2D and SpatialHash3D nodes: exact, fast broad-phase collision '
            'detection through Python. Enabling the plugin installs the compiled core and numpy '
            'for the project\'s Python plugin."\n'
            'author="The spatial_hash developers"\n'
            'version="%s"\n'
            'script="%s/editor_plugin.gd"\n' % (release, dialect))


def package_files(wheels):
    """{path in the package: bytes} merged from the wheels: the pure files, the
    same in every wheel, and each wheel's compiled modules."""
    files = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
            if any(name.startswith("spatial_hash.libs/") for name in names):
                raise SystemExit(f"{wheel} carries shared libraries of its own (spatial_hash.libs): "
                                 f"build the wheels with tools/build_wheels.py")
            for name in names:
                if not name.startswith("spatial_hash/") or NOT_SHIPPED.search(name):
                    continue
                data = archive.read(name)
                if name in files and files[name] != data:
                    raise SystemExit(f"{name} differs between the wheels: build them from one tree")
                files[name] = data
    return files


def numpy_wheels(pythons, cache):
    """numpy's newest manylinux wheel for each Python, fetched into `cache` once."""
    found = []
    for major, minor in pythons:
        if numpy_wheel(cache, (major, minor)) is None:
            command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                       "--python-version", "%d.%d" % (major, minor), "--implementation", "cp",
                       "--abi", "cp%d%d" % (major, minor), "--dest", cache, "numpy>=1.20"]
            for platform in PLATFORMS:
                command += ["--platform", platform]
            subprocess.run(command, check=True)
        found.append(numpy_wheel(cache, (major, minor)))
    return found


def for_pythons(package, pythons):
    """The package with the compiled modules of `pythons` only (None: all)."""
    if pythons is None:
        return package
    suffixes = tuple(".cpython-%d%d-" % version for version in pythons)
    return {name: data for name, data in package.items()
            if not name.endswith(".so") or any(suffix in name for suffix in suffixes)}


def build(dialect, release, package, numpy, out):
    """One zip; returns its path."""
    root = "spatial_hash-%s-%s" % (release, dialect)
    addon = root + "/addons/spatial_hash/"
    path = os.path.join(out, root + ".zip")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(addon + "plugin.cfg", plugin_cfg(dialect, release))
        archive.write(os.path.join(CHECKOUT, "LICENSE"), addon + "LICENSE")
        archive.write(os.path.join(ADDON, "icon.svg"), addon + "icon.svg")
        for folder in GODOT[dialect]["folders"]:
            for name in NODE_FILES:
                source = os.path.join(ADDON, folder, name)
                if os.path.exists(source):
                    archive.write(source, addon + folder + "/" + name)
        for name in (".gdignore", "install.py"):
            archive.write(os.path.join(ADDON, "python", name), addon + "python/" + name)
        for name, data in sorted(package.items()):
            archive.writestr(addon + "python/" + name, data)
        for wheel in numpy:
            archive.write(wheel, addon + "python/wheels/" + os.path.basename(wheel))
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", default=os.path.join(CHECKOUT, "dist"),
                        help="the folder holding the wheels, and for the zips (default: dist/)")
    args = parser.parse_args(argv)
    release = version()
    wheels = sorted(glob.glob(os.path.join(args.dist, "spatial_hash-%s-cp3*-manylinux*.whl"
                                           % release)))
    if not wheels:
        print(f"build_bundle: no manylinux wheels of spatial_hash {release} in {args.dist}: "
              f"run tools/build_wheels.py first", file=sys.stderr)
        return 2
    package = package_files(wheels)
    for dialect, godot in GODOT.items():
        numpy = numpy_wheels(godot["numpy"], os.path.join(args.dist, "numpy"))
        path = build(dialect, release, for_pythons(package, godot["cores"]), numpy, args.dist)
        print("%s (%.1f MB)" % (os.path.relpath(path), os.path.getsize(path) / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
