"""Builds the Cython core `spatial_hash._core`; metadata lives in pyproject.toml.

The pair search of the hierarchical grid can use several threads through OpenMP;
where the compiler has no OpenMP (Apple's clang, say) the core is built without
it and the same loops run on one thread. On x86-64 the hierarchical grid's cell
lookups count bits; the popcnt instruction is used when the compiler takes
-mpopcnt and the building machine runs it (every x86-64 CPU since 2008 does).
"""
import os
import subprocess
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

OPENMP_PROBE = "#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n"
POPCNT_PROBE = ("int main(int argc, char** argv) {\n"
                "    return __builtin_popcountll((unsigned long long)argc << 40) != 1;\n}\n")


class BuildWithProbes(build_ext):
    """build_ext adding the OpenMP and popcnt flags where this machine takes them."""

    def build_extensions(self):
        if self._probe(OPENMP_PROBE, "-fopenmp"):
            for ext in self.extensions:
                ext.extra_compile_args.append("-fopenmp")
                ext.extra_link_args.append("-fopenmp")
        else:
            print("spatial_hash: no OpenMP here; the core is built single-threaded")
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


core = Extension(
    "spatial_hash._core",
    sources=["cython_src/_core.pyx"],
    extra_compile_args=["-O3"],
)

setup(
    cmdclass={"build_ext": BuildWithProbes},
    ext_modules=cythonize(
        [core],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
