"""_core.pyi says what the compiled core has: every public name, class, method
and attribute, no more and no fewer."""
import ast
import pathlib

import spatial_hash._core as core

STUB = pathlib.Path(core.__file__).with_name("_core.pyi")
KEPT_DUNDERS = {"__len__", "__contains__", "__init__"}


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            classes[node.name] = members
            top.add(node.name)
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top, classes


def runtime_members(cls):
    """The class's members and those of the private classes between it and its
    next public base (SpatialIndex is built in private layers)."""
    names = set()
    for layer in cls.__mro__:
        if layer is not cls and not layer.__name__.startswith("_"):
            break
        names |= set(vars(layer))
    return {name for name in names if not name.startswith("_") or name in KEPT_DUNDERS} - {"__init__"}


def test_the_stub_names_exactly_what_the_core_has():
    top, classes = stub_names()
    public = {name for name in dir(core) if not name.startswith("_") and name != "np"}
    assert top == public
    for name, members in classes.items():
        assert members - {"__init__"} == runtime_members(getattr(core, name)), name


def is_final(cls):
    """Does the class refuse subclasses?"""
    try:
        type("Sub", (cls,), {})
    except TypeError:
        return True
    return False


def test_the_stub_marks_final_exactly_the_final_core_classes():
    # The grids are final so that their batch moves call their own hooks
    # directly; the stub tells type checkers the same.
    stub_final = {node.name for node in ast.parse(STUB.read_text()).body
                  if isinstance(node, ast.ClassDef)
                  and any(isinstance(d, ast.Name) and d.id == "final" for d in node.decorator_list)}
    _, classes = stub_names()
    assert stub_final == {name for name in classes if is_final(getattr(core, name))}
    assert stub_final == {"UniformGrid", "HierarchicalGrid"}
