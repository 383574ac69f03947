"""Compile the damage helper for a dimension (plant.pyx or plant3d.pyx) against
that core's declared interface (cython_src/spatial_hash/_core.pxd or
_core3d.pxd) into a folder of the caller's, and import it."""
import importlib.util
import pathlib

from Cython.Build import cythonize
from setuptools import Distribution, Extension

HERE = pathlib.Path(__file__).resolve().parent
CORE_SOURCES = HERE.parents[1] / "cython_src"


def build(folder, dimension=2):
    """The helper module for the 2D or 3D core, compiled in `folder` (a pathlib.Path)."""
    name = "plant" if dimension == 2 else "plant%dd" % dimension
    # C++ and the kernels' headers, as setup.py builds the core: the interface
    # declares the kernels' classes.
    extension = Extension(name, [str(HERE / (name + ".pyx"))], language="c++",
                          include_dirs=[str(CORE_SOURCES / "kernels")],
                          define_macros=[("SPATIAL_HASH_DIMENSION", str(dimension))],
                          extra_compile_args=["-std=c++17"])
    distribution = Distribution({"ext_modules": cythonize(
        [extension], include_path=[str(CORE_SOURCES)], build_dir=str(folder / "c"), quiet=True)})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(folder)
    command.build_temp = str(folder / "objects")
    command.ensure_finalized()
    command.run()
    spec = importlib.util.spec_from_file_location(name, command.get_ext_fullpath(name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
