"""Install the SpatialHash2D and SpatialHash3D addon into a Godot project from
source, for the Python plugin found there: the route where the release bundle
has no prebuilt core for the plugin's Python, or for another platform. Run it
from a checkout of this repository:

    python3 tools/install_godot.py path/to/project [--python PYTHON]

It finds the plugin (pythonscript for Godot 3, py4godot or
godot-python-extension for Godot 4), makes sure the plugin's Python has pip,
builds the compiled core for that Python and installs the package and numpy where that plugin imports from,
copies the nodes (the GDScript faces of its Godot version, the icon, and the
plugin's Python engine script) into `res://addons/spatial_hash/`, writes what
each plugin needs into the project (pythonscript's GDNative singleton; py4godot's
export plugin, enabled), and finishes by importing the core with the plugin's Python.
Running it again (after an update) replaces what it installed; the node's code
lives only in the plugin's site-packages, never also under res://.

Needs only the standard library, so the Python running it may be any 3.8+.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

TOOLS = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(TOOLS)
ADDON = os.path.join(CHECKOUT, "addons", "spatial_hash")
sys.path.insert(0, os.path.join(ADDON, "python"))
# The bundle's installer: finding the plugin and writing the project are the same.
from install import (CHECK, OLDEST, Plugin, Refused, configure_project,  # noqa: E402,F401
                     find_plugin, has_singleton, importer, with_editor_plugin)
# What a checkout holds besides the package's sources: builds, caches, environments.
NOT_SOURCE = ("build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd", ".git", ".ci",
              ".hypothesis", ".pytest_cache", ".mypy_cache", "bench_results", "demo_project",
              ".venv*", "generated")


def check_python(plugin, run):
    """The plugin's Python must run, be 3.8+, and match what the plugin embeds."""
    try:
        out = run([plugin.python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
    except (OSError, subprocess.CalledProcessError) as error:
        raise Refused(f"cannot run the plugin's Python {plugin.python}: {error}") from None
    version = tuple(int(v) for v in out.strip().split("."))
    if version < OLDEST:
        raise Refused(f"{plugin.python} is Python {version[0]}.{version[1]}; spatial_hash "
                      f"needs 3.8 or newer")
    if version != plugin.version:
        raise Refused(f"{plugin.python} is Python {version[0]}.{version[1]}, but the plugin "
                      f"embeds {plugin.version[0]}.{plugin.version[1]}: the core must be built "
                      f"for the plugin's own Python (pass it as --python)")


def install_packages(plugin, run, log):
    """pip for the plugin's Python, then numpy (if missing) and this checkout,
    built against that Python's headers, where the plugin imports from."""
    try:
        run([plugin.python, "-m", "pip", "--version"])
    except subprocess.CalledProcessError:
        log("the plugin's Python has no pip: running ensurepip")
        run([plugin.python, "-m", "ensurepip"])
    target = ["--target", plugin.site_packages, "--upgrade"]
    os.makedirs(plugin.site_packages, exist_ok=True)
    try:
        run(importer(plugin, "import numpy"))
    except subprocess.CalledProcessError:
        log("installing numpy for the plugin's Python")
        run([plugin.python, "-m", "pip", "install", "--no-input"] + target + ["numpy>=1.20"])
    log("building and installing spatial_hash for the plugin's Python")
    with tempfile.TemporaryDirectory() as scratch:
        # pip builds in the source tree, and setuptools would pack whatever an
        # earlier build left in its build/ folder (modules since moved or deleted).
        source = os.path.join(scratch, "spatial_hash")
        shutil.copytree(CHECKOUT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
        run([plugin.python, "-m", "pip", "install", "--no-input", "--no-deps", "--force-reinstall"]
            + target + [source])


def copy_addon(project, plugin):
    """res://addons/spatial_hash/ gets the node only: its GDScript face for the
    engine's version, the icon and the plugin's engine script; whatever was
    there before (an older copy, a link to a checkout) goes first."""
    target = os.path.join(project, "addons", "spatial_hash")
    if os.path.islink(target) or os.path.isfile(target):
        os.remove(target)
    elif os.path.isdir(target):
        shutil.rmtree(target)
    for folder, name in ((".", "icon.svg"), (plugin.face_folder, "spatial_hash_2d.gd"),
                         (plugin.face_folder, "spatial_hash_3d.gd"),
                         (plugin.face_folder, "missing_engine.gd"),
                         (plugin.engine_folder, "spatial_hash_engine.py")):
        os.makedirs(os.path.join(target, folder), exist_ok=True)
        shutil.copy2(os.path.join(ADDON, folder, name), os.path.join(target, folder, name))


def install(project, python=None, run=None, log=print):
    """Everything above, in order; returns the Plugin it installed for."""
    run = run or run_checked
    project = os.path.abspath(project)
    plugin = find_plugin(project, python)
    if plugin.python is None:
        name = "python%d.%d" % plugin.version
        raise Refused(f"{plugin.name} here embeds Python {plugin.version[0]}.{plugin.version[1]}; "
                      f"no {name} found on PATH: pass the Python it was built with as --python")
    log(f"found {plugin.name} in {project}; its Python: {plugin.python}")
    check_python(plugin, run)
    install_packages(plugin, run, log)
    copy_addon(project, plugin)
    configure_project(project, plugin)
    run(importer(plugin, CHECK))
    log(f"installed: res://addons/spatial_hash/{plugin.face_folder}/spatial_hash_2d.gd and "
        f"spatial_hash_3d.gd are the SpatialHash2D and SpatialHash3D nodes; the core imports "
        f"with the plugin's Python")
    return plugin


def run_checked(command):
    """Run a command, echoing it; its stdout, or CalledProcessError."""
    print("+ " + " ".join(command), flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, universal_newlines=True)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, command, done.stdout)
    return done.stdout


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", help="the Godot project's folder (holding project.godot)")
    parser.add_argument("--python", help="the plugin's Python, if the installer cannot find it")
    args = parser.parse_args(argv)
    try:
        install(args.project, args.python)
    except Refused as error:
        print(f"install_godot: refused: {error}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as error:
        print(f"install_godot: failed: {' '.join(error.cmd)} exited {error.returncode}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
