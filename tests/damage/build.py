"""Compile the damage helper (plant.pyx) against the core's declared interface
into a folder of the caller's, and import it."""
import importlib.util
import pathlib

from Cython.Build import cythonize
from setuptools import Distribution, Extension

HERE = pathlib.Path(__file__).resolve().parent
INTERFACE = HERE.parents[1] / "cython_src" / "generated" / "d2"   # spatial_hash/_core.pxd, as setup.py rendered it


def build(folder):
    """The helper module, compiled in `folder` (a pathlib.Path)."""
    extension = Extension("plant", [str(HERE / "plant.pyx")])
    distribution = Distribution({"ext_modules": cythonize(
        [extension], include_path=[str(INTERFACE)], build_dir=str(folder / "c"), quiet=True)})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(folder)
    command.build_temp = str(folder / "objects")
    command.ensure_finalized()
    command.run()
    spec = importlib.util.spec_from_file_location("plant", command.get_ext_fullpath("plant"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
