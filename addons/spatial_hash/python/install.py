"""Install the prebuilt spatial_hash core, and numpy, for the Python plugin of a
Godot project into which the spatial_hash bundle was unzipped. The editor
plugin runs it when SpatialHash is enabled (Project Settings > Plugins); the
same, headless, with any Python 3.8+ (the plugin's own included):

    python3 addons/spatial_hash/python/install.py path/to/project

It finds the plugin (pythonscript for Godot 3; py4godot or
godot-python-extension for Godot 4) and the Python version it embeds, copies
the package `spatial_hash` with that version's compiled core from this folder
into the plugin's site-packages, adds numpy there from this folder when that
Python has none, writes what each plugin needs into the project, and finishes by
importing the core with the plugin's Python. Running it again replaces what it
installed; numpy already there is kept. It refuses, changing nothing, when the
project has no Python plugin, or when this bundle has no core (or numpy) for the
plugin's Python, and says what to do then.

Needs only the standard library. tools/install_godot.py (the source route, from
a checkout) shares the plugin-finding and project-writing parts below.
"""
import configparser
import glob
import os
import re
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OLDEST = (3, 8)
SINGLETON = '[gdnative]\n\nsingletons=[ "res://pythonscript.gdnlib" ]\n'
# py4godot's editor plugin, which puts its Python beside an exported game.
PY4GODOT_EXPORT = "res://addons/py4godot/plugin.cfg"
SOURCE_ROUTE = ("from a checkout of the spatial_hash repository, with a C compiler and the "
                "headers of that Python: python3 tools/install_godot.py {project}")
CHECK = "import spatial_hash._core, spatial_hash._core3d, spatial_hash.node.engine"


class Refused(Exception):
    """The project cannot be installed into; the message says why and what to do."""


class Plugin:
    """What an installer needs to know of the plugin found in a project."""

    def __init__(self, name, engine_folder, python, site_packages, version):
        self.name = name                      # "pythonscript", "py4godot" or "godot-python-extension"
        self.engine_folder = engine_folder    # the addon's godot3/, py4godot/ or godot4/
        # The folder of the GDScript face for its Godot version.
        self.face_folder = "godot3" if engine_folder == "godot3" else "godot4"
        self.python = python                  # its interpreter, or None where none is found
        self.site_packages = site_packages    # where it imports packages from
        self.version = version                # (major, minor) of the Python it embeds


def python_folder_version(folder):
    """(3, 14) for a folder named python3.14."""
    return tuple(int(v) for v in os.path.basename(folder)[len("python"):].split("."))


def find_plugin(project, python=None):
    """The plugin installed in `project`, or Refused. `python` overrides the
    interpreter found for it."""
    if not os.path.isfile(os.path.join(project, "project.godot")):
        raise Refused(f"{project} is not a Godot project (no project.godot)")
    if os.path.isfile(os.path.join(project, "pythonscript.gdnlib")):
        # Its CPython: addons/pythonscript/<platform>/, the standard library in lib/python3.X.
        found = sorted(glob.glob(os.path.join(project, "addons", "pythonscript", "*", "bin",
                                              "python3")))
        if not found:
            raise Refused("pythonscript.gdnlib is there but not its embedded Python "
                          "(addons/pythonscript/<platform>/bin/python3): unpack the whole release")
        home = os.path.dirname(os.path.dirname(found[0]))
        stdlib = [path for path in sorted(glob.glob(os.path.join(home, "lib", "python3.*")))
                  if os.path.isdir(path)]
        if not stdlib:
            raise Refused(f"pythonscript's Python has no standard library folder "
                          f"({home}/lib/python3.X): unpack the whole release")
        return Plugin("pythonscript", "godot3", python or found[0],
                      os.path.join(stdlib[0], "site-packages"), python_folder_version(stdlib[0]))
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
        return Plugin("py4godot", "py4godot", python or os.path.join(home, "bin", "python3"),
                      site, python_folder_version(os.path.dirname(site)))
    if glob.glob(os.path.join(project, "*.gdextension")):
        found = [path for path in sorted(glob.glob(os.path.join(project, "bin", "*", "python3.*")))
                 if os.path.isdir(path)]
        if not found:
            raise Refused("a .gdextension is there but not godot-python-extension's "
                          "bin/<platform>/python3.X folder: copy the extension's whole build")
        version = python_folder_version(found[0])
        # It embeds the system's libpython, whose interpreter has the same name.
        return Plugin("godot-python-extension", "godot4",
                      python or shutil.which("python%d.%d" % version),
                      os.path.join(found[0], "site-packages"), version)
    raise Refused(f"no Python plugin found in {project}: install pythonscript (Godot 3), "
                  f"py4godot or godot-python-extension (Godot 4) into it first")


def importer(plugin, statement):
    """A command running `statement` with the plugin's Python and only its
    import path: the interpreter's own site-packages stay off it (-S), since
    numpy installed there is not what the engine sees."""
    return [plugin.python, "-I", "-S", "-c",
            f"import sys; sys.path.insert(0, {plugin.site_packages!r}); {statement}"]


def configure_project(project, plugin):
    """What the plugin needs in the project: pythonscript's GDNative singleton;
    for the Godot 4 plugins, whose site-packages lie under res://, a .gdignore
    there (the editor would import every .py file of numpy); and py4godot's
    export plugin, enabled."""
    path = os.path.join(project, "project.godot")
    with open(path) as f:
        text = f.read()
    if plugin.name == "pythonscript":
        if not has_singleton(text):
            with open(path, "a") as f:
                f.write(("\n" if not text.endswith("\n") else "") + "\n" + SINGLETON)
        return
    open(os.path.join(plugin.site_packages, ".gdignore"), "w").close()
    if plugin.name == "py4godot":
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


def abi_tag(version):
    return "cp%d%d" % version


def cores_here(package):
    """The Python versions this bundle has a compiled core for, e.g. [(3, 8), (3, 14)]."""
    versions = set()
    for path in glob.glob(os.path.join(package, "_core.cpython-3*-*.so")):
        digits = re.match(r"_core\.cpython-3(\d+)-", os.path.basename(path)).group(1)
        versions.add((3, int(digits)))
    return sorted(versions)


def numpy_wheel(wheels, version):
    """This folder's numpy wheel for `version`, or None."""
    tag = abi_tag(version)
    found = sorted(glob.glob(os.path.join(wheels, "numpy-*-%s-%s-*.whl" % (tag, tag))))
    return found[-1] if found else None


def has_numpy(site):
    return os.path.isfile(os.path.join(site, "numpy", "__init__.py"))


def plan(project, bundle):
    """The plugin, and what to install for it, or Refused before anything changes."""
    plugin = find_plugin(project)
    shown = "%d.%d" % plugin.version
    if plugin.version < OLDEST:
        raise Refused(f"{plugin.name} here embeds Python {shown}; spatial_hash needs 3.8 or newer")
    package = os.path.join(bundle, "spatial_hash")
    have = cores_here(package)
    if plugin.version not in have:
        raise Refused(
            f"{plugin.name} here embeds Python {shown}, and this bundle has a prebuilt core "
            f"only for Python {', '.join('%d.%d' % v for v in have) or '(none)'}. Build it "
            + SOURCE_ROUTE.format(project=project))
    wheel = None
    if not has_numpy(plugin.site_packages):
        wheel = numpy_wheel(os.path.join(bundle, "wheels"), plugin.version)
        if wheel is None:
            python = plugin.python or "python%s" % shown
            raise Refused(
                f"{plugin.name}'s Python {shown} has no numpy, and this bundle carries numpy "
                f"only for the Pythons the plugins embed as released here. Install it while "
                f"online, then enable SpatialHash again: {python} -m pip install --target "
                f"\"{plugin.site_packages}\" \"numpy>=1.20\"")
    return plugin, package, wheel


def copy_package(package, site, version):
    """site/spatial_hash becomes this bundle's package, with only `version`'s
    compiled modules; an older install (or pip's record of one) goes first."""
    target = os.path.join(site, "spatial_hash")
    if os.path.islink(target) or os.path.isfile(target):
        os.remove(target)
    elif os.path.isdir(target):
        shutil.rmtree(target)
    for record in glob.glob(os.path.join(site, "spatial_hash-*.dist-info")):
        shutil.rmtree(record)
    suffix = ".cpython-%d%d-" % version

    def other_pythons(folder, names):
        return [name for name in names if name == "__pycache__"
                or (name.endswith(".so") and suffix not in name)]
    shutil.copytree(package, target, ignore=other_pythons)


def unpack_wheel(wheel, site):
    """A wheel of pure and platform files (numpy's) unpacked into site-packages."""
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            path = archive.extract(member, site)
            mode = member.external_attr >> 16
            if mode:
                os.chmod(path, mode & 0o777)


def install(project, bundle=HERE, run=None, log=print):
    """Everything above, in order; returns the Plugin it installed for."""
    run = run or run_checked
    project = os.path.abspath(project)
    plugin, package, wheel = plan(project, bundle)
    shown = "%d.%d" % plugin.version
    log(f"spatial_hash: found {plugin.name} (Python {shown}) in {project}")
    os.makedirs(plugin.site_packages, exist_ok=True)
    copy_package(package, plugin.site_packages, plugin.version)
    log(f"spatial_hash: installed the package and its Python {shown} core into "
        f"{plugin.site_packages}")
    if wheel is not None:
        unpack_wheel(wheel, plugin.site_packages)
        log(f"spatial_hash: installed {os.path.basename(wheel)} from the bundle")
    else:
        log("spatial_hash: numpy was already there: kept")
    configure_project(project, plugin)
    if plugin.python is None:
        log(f"spatial_hash: no python{shown} found to check the import with; the engine "
            f"will import it when a scene starts")
    else:
        run(importer(plugin, CHECK))
        log(f"spatial_hash: the core imports with {plugin.python}")
    log(f"spatial_hash: done. SpatialHash2D and SpatialHash3D are in "
        f"res://addons/spatial_hash/{plugin.face_folder}/")
    return plugin


def run_checked(command):
    """Run a command; its stdout, or CalledProcessError."""
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, command, done.stdout)
    return done.stdout


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        install(argv[0], log=lambda message: print(message, flush=True))
    except Refused as error:
        print(f"spatial_hash: refused: {error}", file=sys.stderr, flush=True)
        return 2
    except subprocess.CalledProcessError as error:
        print(f"spatial_hash: failed: {' '.join(error.cmd)} exited {error.returncode}:\n"
              f"{error.output}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
