"""Install the SpatialHash2D and SpatialHash3D addon into a Godot project, for the Python plugin
found there. Run it from a checkout of this repository:

    python3 addons/spatial_hash/tools/install_godot.py path/to/project [--python PYTHON]

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
import configparser
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOOLS = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(TOOLS)))
ADDON = os.path.join(CHECKOUT, "addons", "spatial_hash")
SINGLETON = '[gdnative]\n\nsingletons=[ "res://pythonscript.gdnlib" ]\n'
# py4godot's editor plugin, which puts its Python beside an exported game.
PY4GODOT_EXPORT = "res://addons/py4godot/plugin.cfg"
OLDEST = (3, 8)
# What a checkout holds besides the package's sources: builds, caches, environments.
NOT_SOURCE = ("build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd", ".git", ".ci",
              ".hypothesis", ".pytest_cache", ".mypy_cache", "bench_results", "demo_project",
              ".venv*")


class Refused(Exception):
    """The project cannot be installed into; the message says why and what to do."""


class Plugin:
    """What the installer needs to know of the plugin found in a project."""

    def __init__(self, name, engine_folder, python, site_packages, version=None):
        self.name = name                      # "pythonscript", "py4godot" or "godot-python-extension"
        self.engine_folder = engine_folder    # the addon's godot3/, py4godot/ or godot4/
        # The folder of the GDScript face for its Godot version.
        self.face_folder = "godot3" if engine_folder == "godot3" else "godot4"
        self.python = python                  # the interpreter to build and install with
        self.site_packages = site_packages    # None: the interpreter's own site-packages
        self.version = version                # (major, minor) the plugin embeds, if known


def find_plugin(project, python=None):
    """The plugin installed in `project`, or Refused."""
    if not os.path.isfile(os.path.join(project, "project.godot")):
        raise Refused(f"{project} is not a Godot project (no project.godot)")
    if os.path.isfile(os.path.join(project, "pythonscript.gdnlib")):
        found = sorted(glob.glob(os.path.join(project, "addons", "pythonscript", "*", "bin",
                                              "python3")))
        if not found:
            raise Refused("pythonscript.gdnlib is there but not its embedded Python "
                          "(addons/pythonscript/<platform>/bin/python3): unpack the whole release")
        return Plugin("pythonscript", "godot3", python or found[0], None)
    if os.path.isfile(os.path.join(project, "addons", "py4godot", "python.gdextension")):
        # Its CPython: addons/py4godot/cpython-<version>-<platform>/python, whose
        # own site-packages the plugin puts on sys.path itself.
        found = sorted(glob.glob(os.path.join(project, "addons", "py4godot", "cpython-*",
                                              "python", "lib", "python3.*", "site-packages")))
        if not found:
            raise Refused("addons/py4godot is there but not its CPython (cpython-<version>-"
                          "<platform>/python/lib/python3.X/site-packages): unpack the whole release")
        site = found[0]
        home = os.path.dirname(os.path.dirname(os.path.dirname(site)))
        lib = os.path.basename(os.path.dirname(site))            # python3.X
        version = tuple(int(v) for v in lib[len("python"):].split("."))
        return Plugin("py4godot", "py4godot", python or os.path.join(home, "bin", "python3"),
                      site, version)
    if glob.glob(os.path.join(project, "*.gdextension")):
        found = sorted(glob.glob(os.path.join(project, "bin", "*", "python3.*")))
        found = [path for path in found if os.path.isdir(path)]
        if not found:
            raise Refused("a .gdextension is there but not godot-python-extension's "
                          "bin/<platform>/python3.X folder: copy the extension's whole build")
        folder = found[0]
        version = tuple(int(v) for v in os.path.basename(folder)[len("python"):].split("."))
        name = "python%d.%d" % version
        python = python or shutil.which(name)
        if python is None:
            raise Refused(f"godot-python-extension here embeds Python {version[0]}.{version[1]}; "
                          f"no {name} found on PATH: pass the Python it was built with "
                          f"as --python")
        return Plugin("godot-python-extension", "godot4", python,
                      os.path.join(folder, "site-packages"), version)
    raise Refused(f"no Python plugin found in {project}: install pythonscript (Godot 3), "
                  f"py4godot or godot-python-extension (Godot 4) into it first")


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
    if plugin.version is not None and version != plugin.version:
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
    target = [] if plugin.site_packages is None else ["--target", plugin.site_packages, "--upgrade"]
    if plugin.site_packages is not None:
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


def importer(plugin, statement):
    """A command running `statement` with the plugin's Python and import path.
    Where the plugin has a folder of its own, the interpreter's site-packages
    stay off the path (-S): numpy installed there is not what the engine sees."""
    if plugin.site_packages is None:
        return [plugin.python, "-c", statement]
    return [plugin.python, "-I", "-S", "-c",
            f"import sys; sys.path.insert(0, {plugin.site_packages!r}); {statement}"]


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


def configure_project(project, plugin):
    if plugin.name == "pythonscript":
        path = os.path.join(project, "project.godot")
        with open(path) as f:
            text = f.read()
        if not has_singleton(text):
            with open(path, "a") as f:
                f.write(("\n" if not text.endswith("\n") else "") + "\n" + SINGLETON)
    else:
        # The editor would try to import every .py file of the packages there.
        open(os.path.join(plugin.site_packages, ".gdignore"), "w").close()
    if plugin.name == "py4godot":       # its editor plugin is what exports its Python
        path = os.path.join(project, "project.godot")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(with_editor_plugin(text, PY4GODOT_EXPORT))


def with_editor_plugin(text, plugin_cfg):
    """project.godot's text with the editor plugin `plugin_cfg` enabled."""
    if plugin_cfg in text:
        return text
    listed = re.search(r'^enabled=PackedStringArray\((.*)\)$', text, re.M)
    if listed and "[editor_plugins]" in text:
        existing = listed.group(1).strip()
        items = ([existing] if existing else []) + [f'"{plugin_cfg}"']
        return text[:listed.start()] + f"enabled=PackedStringArray({', '.join(items)})" + \
            text[listed.end():]
    return text + ("\n" if not text.endswith("\n") else "") + \
        f'\n[editor_plugins]\n\nenabled=PackedStringArray("{plugin_cfg}")\n'


def has_singleton(text):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string("[top]\n" + text)
    except configparser.Error:
        return "pythonscript.gdnlib" in text
    return "pythonscript.gdnlib" in parser.get("gdnative", "singletons", fallback="")


def install(project, python=None, run=None, log=print):
    """Everything above, in order; returns the Plugin it installed for."""
    run = run or run_checked
    project = os.path.abspath(project)
    plugin = find_plugin(project, python)
    log(f"found {plugin.name} in {project}; its Python: {plugin.python}")
    check_python(plugin, run)
    install_packages(plugin, run, log)
    copy_addon(project, plugin)
    configure_project(project, plugin)
    run(importer(plugin, "import spatial_hash._core, spatial_hash._core3d, spatial_hash.node.engine"))
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
