"""Builds the Cython core `spatial_hash._core`; metadata lives in pyproject.toml.

The pair search of the hierarchical grid can use several threads through OpenMP;
where the compiler has no OpenMP (Apple's clang, say) the core is built without
it and the same loops run on one thread.
"""
import os
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

OPENMP_PROBE = "#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n"


class BuildWithOpenMP(build_ext):
    def build_extensions(self):
        if self._has_openmp():
            for ext in self.extensions:
                ext.extra_compile_args.append("-fopenmp")
                ext.extra_link_args.append("-fopenmp")
        else:
            print("spatial_hash: no OpenMP here; the core is built single-threaded")
        super().build_extensions()

    def _has_openmp(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "probe.c")
            with open(source, "w") as f:
                f.write(OPENMP_PROBE)
            try:
                objects = self.compiler.compile([source], output_dir=tmp, extra_postargs=["-fopenmp"])
                self.compiler.link_executable(objects, os.path.join(tmp, "probe"),
                                              extra_postargs=["-fopenmp"])
            except Exception:
                return False
        return True


core = Extension(
    "spatial_hash._core",
    sources=["cython_src/_core.pyx"],
    extra_compile_args=["-O3"],
)

setup(
    cmdclass={"build_ext": BuildWithOpenMP},
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
