"""Builds the Cython cores `spatial_hash._core` (2D) and `spatial_hash._core3d` (3D),
both compiled from the sources in cython_src/ as they are (_core.pyx and
_core3d.pyx, which include the same files for a different number of axes), and
the node package's `spatial_hash.node._ids_text`; metadata lives in pyproject.toml.

Every loop that takes threads runs on the C++ standard library's (see
cython_src/kernels/threads.hpp), which any C++17 compiler has and a wheel can
link statically. On x86-64 the hierarchical grid's cell lookups count bits;
the popcnt instruction is used when the compiler takes -mpopcnt and the
building machine runs it (every x86-64 CPU since 2008 does).

Two settings of the environment make a checked build, for development and CI:
SPATIAL_HASH_DEBUG=1 turns on the kernels' preconditions and validations
(cython_src/kernels/check.hpp) and Cython's bounds checks, at -O1 with debug
symbols; SPATIAL_HASH_SANITIZE=address,undefined (or thread) builds the
compiled modules with those sanitizers, whose runtime the Python process must
then load first (LD_PRELOAD; .ci/run shows how).
"""
import glob
import os
import subprocess
import sys
import tempfile

import Cython
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

POPCNT_PROBE = ("int main(int argc, char** argv) {\n"
                "    return __builtin_popcountll((unsigned long long)argc << 40) != 1;\n}\n")


class BuildWithProbes(build_ext):
    """build_ext adding the popcnt flag where this machine takes it."""

    def build_extensions(self):
        if self._probe(POPCNT_PROBE, "-mpopcnt", run=True):
            for ext in self.extensions:
                ext.extra_compile_args.append("-mpopcnt")
        super().build_extensions()

    def _probe(self, program, flag, run=False):
        """Does a program build with `flag` (and, if `run`, exit 0 here)?"""
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "probe.c")
            with open(source, "w") as f:
                f.write(program)
            executable = os.path.join(tmp, "probe")
            try:
                objects = self.compiler.compile([source], output_dir=tmp, extra_postargs=[flag])
                self.compiler.link_executable(objects, executable, extra_postargs=[flag])
                if run:
                    subprocess.run([executable], check=True, capture_output=True)
            except Exception:
                return False
        return True


CHECKED = os.environ.get("SPATIAL_HASH_DEBUG", "") not in ("", "0")
SANITIZERS = os.environ.get("SPATIAL_HASH_SANITIZE", "")
OPTIMIZE = ["-O1", "-g"] if CHECKED else ["-O3"]
SANITIZE = ["-fsanitize=" + SANITIZERS, "-fno-omit-frame-pointer"] if SANITIZERS else []

# C++: the kernels in cython_src/kernels/ are templates on the dimension. Each
# core is built with its dimension named (kernels/dimension.hpp), which every
# include file of the module reads as D.
cores = [Extension("spatial_hash." + module,
                   sources=["cython_src/%s.pyx" % module],
                   include_dirs=["cython_src/kernels"],
                   define_macros=[("SPATIAL_HASH_DIMENSION", str(dimension))]
                   + ([("SPATIAL_HASH_DEBUG", "1")] if CHECKED else []),
                   depends=sorted(glob.glob("cython_src/kernels/*.hpp")),   # rebuilt when they change
                   language="c++",
                   extra_compile_args=OPTIMIZE + SANITIZE + ["-std=c++17", "-pthread"],
                   extra_link_args=SANITIZE + ["-pthread"])
         for dimension, module in ((2, "_core"), (3, "_core3d"))]
# The node package's own compiled helper: query results as text for GDScript.
node_text = Extension("spatial_hash.node._ids_text", sources=["cython_src/ids_text.pyx"],
                      extra_compile_args=OPTIMIZE + SANITIZE, extra_link_args=SANITIZE)

setup(
    cmdclass={"build_ext": BuildWithProbes},
    ext_modules=cythonize(
        cores + [node_text],
        include_path=["cython_src"],
        # The C++ a Cython version writes, kept apart from another version's: a
        # checkout built for one Python (say with a Cython that no longer
        # supports 3.8) must not hand its C++ to a build for another.
        # A checked build's C++ (bounds checks in) is kept apart too.
        build_dir=os.path.join("build", "cython-" + Cython.__version__ + ("-checked" if CHECKED else "")),
        compiler_directives={
            "language_level": 3,
            "boundscheck": CHECKED,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": CHECKED,
        },
    ),
)
