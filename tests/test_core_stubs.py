"""_core.pyi and _core3d.pyi say what the compiled cores have: every public
name, class, method and attribute, no more and no fewer."""
import ast
import pathlib

import pytest

import spatial_hash._core as core_2d
import spatial_hash._core3d as core_3d

CORES = {"2D": (core_2d, "_core.pyi", {"UniformGrid", "HierarchicalGrid"}),
         "3D": (core_3d, "_core3d.pyi", {"UniformGrid3D", "HierarchicalGrid3D"})}
KEPT_DUNDERS = {"__len__", "__contains__", "__init__"}


def stub_of(core, name):
    return pathlib.Path(core.__file__).with_name(name)


def stub_names(stub):
    tree = ast.parse(stub.read_text())
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
    """The class's own public members (what it inherits, its base's stub names)."""
    return {name for name in vars(cls) if not name.startswith("_") or name in KEPT_DUNDERS} - {"__init__"}


@pytest.mark.parametrize("dimension", CORES)
def test_the_stub_names_exactly_what_the_core_has(dimension):
    core, stub, _ = CORES[dimension]
    top, classes = stub_names(stub_of(core, stub))
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


@pytest.mark.parametrize("dimension", CORES)
def test_the_stub_marks_final_exactly_the_final_core_classes(dimension):
    # The grids are final so that their batch moves call their own hooks
    # directly; the stub tells type checkers the same.
    core, stub, grids = CORES[dimension]
    stub_final = {node.name for node in ast.parse(stub_of(core, stub).read_text()).body
                  if isinstance(node, ast.ClassDef)
                  and any(isinstance(d, ast.Name) and d.id == "final" for d in node.decorator_list)}
    _, classes = stub_names(stub_of(core, stub))
    assert stub_final == {name for name in classes if is_final(getattr(core, name))}
    assert stub_final == grids


@pytest.mark.parametrize("dimension", CORES)
def test_the_stubs_name_the_arguments_the_cores_take(dimension):
    """The stubs are written by hand, one per dimension: each function's and
    method's parameters are the compiled one's, in order."""
    import inspect
    core, stub, _ = CORES[dimension]
    checked = 0
    for node in ast.parse(stub_of(core, stub).read_text()).body:
        if not isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            continue
        owner = getattr(core, node.name)
        items = node.body if isinstance(node, ast.ClassDef) else [node]
        for item in items:
            if not isinstance(item, ast.FunctionDef) or item.name.startswith("__"):
                continue
            if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                continue
            runtime = getattr(owner, item.name) if isinstance(node, ast.ClassDef) else owner
            stubbed = [a.arg for a in item.args.posonlyargs + item.args.args + item.args.kwonlyargs]
            assert stubbed == list(inspect.signature(runtime).parameters), (node.name, item.name)
            checked += 1
    assert checked > 40
