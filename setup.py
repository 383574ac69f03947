"""Builds the Cython core `spatial_hash._core`; metadata lives in pyproject.toml."""
from Cython.Build import cythonize
from setuptools import Extension, setup

core = Extension(
    "spatial_hash._core",
    sources=["cython_src/_core.pyx"],
    extra_compile_args=["-O3"],
)

setup(
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
