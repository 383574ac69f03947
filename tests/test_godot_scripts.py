"""The two engine scripts, loaded against stand-in `godot` modules shaped like
the real plugins' (see GODOT_NOTES): they must only declare, convert and
forward, and nothing they are handed may make them raise."""
import importlib.util
import pathlib
import sys
import types

import pytest

ADDON = pathlib.Path(__file__).resolve().parent.parent / "addons" / "spatial_hash"


class Vector2:
    def __init__(self, x, y):
        self.x, self.y = x, y


class Rect2:
    def __init__(self, x, y, w, h):
        self.position, self.size = Vector2(x, y), Vector2(w, h)


class Node2D:
    """Records drawing; stands in for both engines' Node2D."""

    def __init_subclass__(cls, **kwargs):     # Godot 4: expose_all_methods=True
        pass

    name = "SpatialHash2D"
    drawn = None

    def get_viewport_rect(self):
        return Rect2(0, 0, 200, 100)

    def draw_line(self, *args):
        self.drawn.append(("line",) + args)

    def draw_rect(self, *args):
        self.drawn.append(("rect",) + args)

    def queue_redraw(self):
        pass

    def update(self):
        self.drawn.append("redraw")

    def add_child(self, child):
        self.child = child


class Performance:
    def __init__(self):
        self.monitors = {}

    def has_custom_monitor(self, monitor_id):
        return monitor_id in self.monitors

    def add_custom_monitor(self, monitor_id, reader):
        assert monitor_id not in self.monitors
        self.monitors[monitor_id] = reader

    def remove_custom_monitor(self, monitor_id):
        del self.monitors[monitor_id]


class Array(list):
    pass


class Dictionary(dict):
    pass


class PackedInts(list):
    pass


class Label:
    text = ""

    @classmethod
    def new(cls):
        return cls()


def load_script(monkeypatch, engine):
    if engine == 4:
        godot = types.ModuleType("godot")
        variant_types = types.ModuleType("godot.variant_types")
        variant_types.Color = lambda *c: c
        variant_types.PackedInt32Array = PackedInts
        variant_types.Rect2, variant_types.Vector2 = Rect2, Vector2
        godot.variant_types = variant_types
        godot.Node2D = Node2D
        godot.expose_script_class = lambda cls: cls
        godot.property = lambda default: default
        godot.Performance = Performance()
        monkeypatch.setitem(sys.modules, "godot.variant_types", variant_types)
    else:
        godot = types.ModuleType("godot")
        godot.Array, godot.Dictionary, godot.PoolIntArray = Array, Dictionary, PackedInts
        godot.Color = lambda *c: c
        godot.Label, godot.Node2D, godot.Rect2, godot.Vector2 = Label, Node2D, Rect2, Vector2
        godot.export = lambda kind, default: default
        godot.exposed = lambda cls: cls
    monkeypatch.setitem(sys.modules, "godot", godot)
    path = ADDON / f"godot{engine}" / "spatial_hash_2d.py"
    spec = importlib.util.spec_from_file_location(f"spatial_hash_2d_godot{engine}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, godot


@pytest.mark.parametrize("engine", [3, 4])
def test_scripts_import_harmlessly_without_their_engine(engine):
    spec = importlib.util.spec_from_file_location("plain", ADDON / f"godot{engine}" / "spatial_hash_2d.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)           # no godot module here: declares nothing
    assert not hasattr(module, "SpatialHash2D")


@pytest.mark.parametrize("engine", [3, 4])
def test_script_forwards_converts_and_never_raises(monkeypatch, capsys, engine):
    module, godot = load_script(monkeypatch, engine)
    node = module.SpatialHash2D()
    node.drawn = []
    node._ready()
    assert node.insert(1, Vector2(0, 0), Vector2(10, 10)) is True
    assert node.insert(2, Vector2(5, 5), Vector2(10, 10)) is True
    pairs = node.get_collision_pairs()
    assert pairs == [[1, 2]]
    ids = node.insert_batch([Vector2(8, 8)], [Vector2(1, 1)])
    assert type(ids) is PackedInts and ids == [2]
    packed = node.get_collision_pairs_packed()
    assert type(packed) is PackedInts and sorted(zip(packed[0::2], packed[1::2])) == [(0, 1), (0, 2), (1, 2)]
    stats = node.get_stats()
    assert stats["objects"] == 3
    if engine == 3:     # Godot 3 turns plain lists and dicts into null: all wrapped
        assert type(pairs) is Array and type(pairs[0]) is Array and type(stats) is Dictionary
    # Bad input and wrong argument counts: reported, falsy, never raised.
    assert node.insert(1, Vector2(float("nan"), 0), Vector2(1, 1)) is False
    assert node.update(1) is False and node.query_nearby() == []
    err = capsys.readouterr().err
    assert "nan" in err
    if engine == 3:     # *args: the node counts them
        assert "takes 2 arguments, got 1" in err and "takes 2 arguments, got 0" in err
    else:               # defaults of null: the node names the missing value
        assert "bounds must be a Rect2" in err and "pos must be a Vector2" in err
    assert sorted(node.query_range(Rect2(0, 0, 20, 20))) == [1, 2, 2]
    # Exported properties take effect on the next call.
    node.hierarchical = True
    assert node.get_stats()["index"] == "hierarchical"
    node.cell_size = -5.0
    node.hierarchical = False
    assert node.get_stats()["index"] == "hierarchical" and "cell_size" in capsys.readouterr().err
    node.cell_size = 16.0
    node.debug_draw = True
    node._process(0.016)
    node._draw()
    assert sum(1 for d in node.drawn if d[0] == "rect") == 3
    assert any(d[0] == "line" for d in node.drawn)


def test_godot4_monitors_are_distinct_per_node_and_removed(monkeypatch):
    module, godot = load_script(monkeypatch, 4)
    first, second = module.SpatialHash2D(), module.SpatialHash2D()
    first._ready()
    second._ready()
    monitors = godot.Performance.monitors
    assert len(monitors) == 16 and "spatial_hash/active_cells" in monitors
    first.insert(7, Vector2(0, 0), Vector2(1, 1))
    assert monitors["spatial_hash/total_objects"]() == 1.0
    second_ids = [i for i in monitors if i.endswith("]")]
    assert len(second_ids) == 8 and all(monitors[i]() == 0.0 for i in second_ids if "total" in i)
    first._exit_tree()
    assert sorted(monitors) == sorted(second_ids)
    second._exit_tree()
    assert monitors == {}


def test_godot3_overlay_shows_the_stats(monkeypatch):
    module, godot = load_script(monkeypatch, 3)
    node = module.SpatialHash2D()
    node.overlay = True
    node._ready()
    node.insert(1, Vector2(0, 0), Vector2(1, 1))
    node._process(0.016)
    assert "1 objects" in node.child.text
