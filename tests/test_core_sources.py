"""The compiled core's sources stay small enough to read whole: no file of
cython_src/ (the Cython front, its includes and the C++ kernels) over 400
lines."""
import pathlib

import pytest

SOURCES = pathlib.Path(__file__).resolve().parent.parent / "cython_src"
MOST_LINES = 400


def core_sources():
    return sorted(p for suffix in ("*.pyx", "*.pxi", "*.pxd", "*.hpp") for p in SOURCES.rglob(suffix))


def test_the_core_has_sources_to_check():
    names = {p.name for p in core_sources()}
    assert {"_core.pyx", "contract.pxi", "cell_pairs.hpp", "hierarchy_pairs.hpp"} <= names


@pytest.mark.parametrize("source", core_sources(), ids=lambda p: str(p.relative_to(SOURCES)))
def test_no_core_source_is_over_400_lines(source):
    lines = len(source.read_text().splitlines())
    assert lines <= MOST_LINES, f"{source.relative_to(SOURCES)} has {lines} lines"
