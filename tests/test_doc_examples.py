"""Every Python example of the README and the manual runs, and prints what the
page says it prints (doctest); so do the Examples sections of the package's
docstrings, the compiled grids' included. None of this needs Sphinx."""
import doctest
import importlib
import pkgutil

import pytest

import spatial_hash
from doc_examples import blocks

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_doctest(test):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = []
    runner.run(test, out=report.append, clear_globs=False)
    return runner.summarize(verbose=False), "".join(report)


PAGES = list(dict.fromkeys(block.page for block in blocks("python")))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name if p.name == "README.md"
                         else str(p.relative_to(p.parents[1])))
def test_python_examples_print_what_the_page_says(page):
    """A page's blocks are one session, in order, as a reader would type them."""
    session = {}
    for block in blocks("python", [page]):
        test = doctest.DocTestParser().get_doctest(block.text, session, block.where, str(page),
                                                   block.line)
        assert test.examples, f"{block.where}: a python block must be a doctest session (>>> lines)"
        (failed, _), report = run_doctest(test)
        assert failed == 0, report
        session = test.globs                # DocTest ran on a copy


def test_the_pages_with_python_examples_are_all_collected():
    assert sorted(str(page.relative_to(page.parents[1])) if page.name != "README.md" else page.name
                  for page in PAGES) == [
        "README.md", "getting-started/python.md", "guides/3d.md", "guides/batches.md",
        "guides/events.md", "guides/layers.md", "guides/nearest.md", "guides/rays.md",
        "guides/static.md", "guides/threads.md", "guides/tuning.md"]


MODULES = [spatial_hash] + [importlib.import_module(f"spatial_hash.{m.name}")
                            for m in pkgutil.iter_modules(spatial_hash.__path__)
                            if not m.name.startswith("_") or m.name in ("_core", "_core3d")]
DOCSTRING_TESTS = [t for module in MODULES for t in doctest.DocTestFinder().find(module) if t.examples]


@pytest.mark.parametrize("test", DOCSTRING_TESTS, ids=lambda t: t.name)
def test_docstring_example(test):
    (failed, _), report = run_doctest(test)
    assert failed == 0, report
