"""The benchmark's scenes move every object as a plain per-object loop would:
forward by velocity * dt, bounced off the world's walls (mirrored back inside,
velocity reversed on that axis), in 2D and 3D; the 3D scenes have the 2D ones'
coverage, and every method that races them finds the pairs a brute force finds."""
import json
import math

import numpy as np
import pytest

from spatial_hash import tuning
from spatial_hash.bench import peers, scenes
from test_batch import quick_bench


def stepped_one_by_one(scene, dt):
    """The oracle: each coordinate of each object moved in plain Python."""
    pos, vel = scene.pos.tolist(), scene.vel.tolist()
    world = scene.world
    for i, (p, v) in enumerate(zip(pos, vel)):
        for axis in range(scene.dim):
            wall = world[axis] - (scene.extent[i][axis] if scene.kind == "box" else 0.0)
            x = p[axis] + v[axis] * dt
            if x < 0.0:
                x, v[axis] = -x, -v[axis]
            elif x > wall:
                x, v[axis] = 2.0 * wall - x, -v[axis]
            p[axis] = x
    return np.array(pos), np.array(vel)


@pytest.mark.parametrize("name", list(scenes.SCENES))
def test_a_step_moves_and_bounces_every_object_as_a_loop_would(name):
    make = scenes.SCENES[name]
    scene = make(300, seed=5) if name != "bullets" else make(seed=5)
    scene.vel *= 40.0       # fast enough that many objects meet a wall each frame
    bounced = 0
    for _ in range(30):
        want_pos, want_vel = stepped_one_by_one(scene, 1.0 / 60.0)
        bounced += int((np.sign(want_vel) != np.sign(scene.vel)).sum())
        scene.step()
        assert np.array_equal(scene.pos, want_pos)
        assert np.array_equal(scene.vel, want_vel)
    assert bounced > 0


@pytest.mark.parametrize("name", [name for name in scenes.SCENES if name != "bullets"])
def test_ball_scenes_cover_a_fifth_of_a_square_or_cube_world(name):
    scene = scenes.SCENES[name](2000, seed=1)
    dim = scenes.dimension(name)
    assert scene.name == name and scene.dim == dim and scene.kind == "circle"
    assert scene.pos.shape == scene.vel.shape == (2000, dim) and scene.extent.shape == (2000,)
    assert len(scene.world) == dim and len(set(scene.world)) == 1
    ball = math.pi * scene.extent ** 2 if dim == 2 else 4.0 / 3.0 * math.pi * scene.extent ** 3
    assert math.isclose(ball.sum() / math.prod(scene.world), scenes.COVERAGE, rel_tol=1e-12)
    # tuning.suggest's cell for the small objects: 2 diameters in 2D, 1 in 3D.
    assert scene.cell_size == tuning.suggest(2.0 * scene.extent[:1], dimension=dim)["cell_size"]
    assert scene.cell_size == (4.0 if dim == 2 else 2.0) * scene.extent.min()
    assert ((scene.pos >= 0.0) & (scene.pos <= scene.world)).all()
    rows = scene.bounds()
    r = scene.extent[:, None]
    assert rows.shape == (2000, 2 * dim)
    assert np.array_equal(rows[:, :dim], scene.pos - r) and (rows[:, dim:] == 2.0 * r).all()


def test_3d_scenes_are_the_2d_builders_in_three_dimensions():
    assert list(scenes.SCENES_3D) == ["uniform3d", "clustered3d", "mixed3d"]
    assert [scenes.dimension(name) for name in scenes.SCENES] == [2, 2, 2, 2, 3, 3, 3]
    flat, deep = scenes.mixed(3000, seed=2), scenes.SCENES["mixed3d"](3000, seed=2)
    assert np.array_equal(flat.extent, deep.extent)    # the same 5% of large objects


def crowding(scene, cells_a_side=16):
    """The variance over the mean of the objects per cell, the world cut into
    cells_a_side**D cells: near 1 for objects spread at random, far above in crowds."""
    cells = np.minimum(scene.pos / scene.world * cells_a_side, cells_a_side - 1).astype(np.int64)
    flat = np.ravel_multi_index(tuple(cells.T), (cells_a_side,) * scene.dim)
    counts = np.bincount(flat, minlength=cells_a_side ** scene.dim)
    return counts.var() / counts.mean()


@pytest.mark.parametrize("dim", [2, 3])
def test_clustered_scenes_crowd_where_uniform_ones_spread(dim):
    spread = crowding(scenes.uniform(20_000, dim=dim))
    assert 0.8 < spread < 1.2 and crowding(scenes.clustered(20_000, dim=dim)) > 4.0 * spread


def brute_force_pairs(scene):
    """Every pair i < j of balls whose centres are at most their radii's sum apart."""
    d = scene.pos[:, None, :] - scene.pos[None, :, :]
    reach = scene.extent[:, None] + scene.extent[None, :]
    i, j = np.nonzero(np.triu((d * d).sum(axis=2) <= reach * reach, k=1))
    return np.column_stack((i, j))


@pytest.mark.parametrize("name", list(scenes.SCENES_3D))
def test_every_3d_method_finds_the_brute_force_pairs(name):
    from spatial_hash.bench import peers
    methods = [m for m in peers.METHODS if 3 in m.dims]
    assert {peers.NaiveAllPairs, peers.KDTree, peers.BatchAPI, peers.HierarchicalBatchAPI} <= set(methods)
    scene = scenes.SCENES[name](600, seed=4)
    scene.vel *= 20.0       # objects change cells and meet walls between frames
    for method_cls in methods:
        method, own = method_cls.ready(scene)
        for _ in range(3):
            own.step()
            found = method.canonical(method.frame(own))
            expected = brute_force_pairs(own)
            assert len(expected) > 20
            assert np.array_equal(found, expected), method.name


def test_3d_grids_are_the_3d_core():
    from spatial_hash import HierarchicalGrid3D, UniformGrid3D
    from spatial_hash.bench import peers
    scene = scenes.SCENES["uniform3d"](300)
    assert isinstance(peers.BatchAPI.ready(scene)[0].index, UniformGrid3D)
    assert isinstance(peers.HierarchicalBatchAPI.ready(scene)[0].index, HierarchicalGrid3D)


def test_the_benchmark_races_3d_scenes_with_the_methods_that_have_a_3d_form():
    from spatial_hash import bench
    from spatial_hash.bench import peers
    sizes = {"uniform3d": [400], "clustered3d": [400], "mixed3d": [400], "uniform": [400]}
    records, problems = bench.run(sizes, peers.METHODS, frames=1, full=True)
    assert problems == []
    for name in sizes:
        raced = [r["method"] for r in records if r["scene"] == name]
        assert raced == [m.name for m in peers.METHODS if scenes.dimension(name) in m.dims]
    assert peers.STRTree.name not in {r["method"] for r in records if r["scene"] == "uniform3d"}
    assert all(r["pairs"] > 0 and not r["skipped"] for r in records)
    text = bench.table(records)
    assert "clustered3d" in text and text.count("best") == len(sizes)


def test_a_run_with_3d_scenes_writes_their_records_and_plot(tmp_path, monkeypatch, capsys):
    from spatial_hash import bench
    quick_bench(monkeypatch)
    argv = ["--scenes", "uniform,uniform3d", "--sizes", "500,1000", "--frames", "1", "--out", str(tmp_path)]
    assert bench.main(argv) == 0
    results = json.loads((tmp_path / "results.json").read_text())
    deep = [r for r in results["records"] if r["scene"] == "uniform3d"]
    assert {r["n"] for r in deep} == {500, 1000} and all(r["pairs"] > 0 for r in deep)
    assert all("phases_ms" in r for r in deep if r["method"] in bench.BATCH_METHODS)
    assert {r["scene"] for r in results["threads"]} <= {"uniform"}      # threads are timed in 2D
    targets = capsys.readouterr().out.split("Targets")[1]
    assert "uniform3d" not in targets
    png = (tmp_path / "scaling.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_scaling_plot_has_a_panel_per_dimension(tmp_path):
    from spatial_hash import bench

    def width(records):
        path = tmp_path / "scaling.png"
        bench.plot(records, path)
        return int.from_bytes(path.read_bytes()[16:20], "big")
    flat = [{"scene": "uniform", "n": n, "method": m, "ms_per_frame": t, "skipped": False}
            for n, t in ((1000, 1.0), (10000, 9.0)) for m in ("a", "b")]
    deep = [dict(r, scene="uniform3d", ms_per_frame=2 * r["ms_per_frame"]) for r in flat]
    assert width(flat + deep) == 2 * width(flat) == 2 * width(deep)


def test_the_dict_hash_survives_cells_of_one_object_that_share_a_key():
    """The mixed scene at 10,000 (which --full runs) has large objects two of
    whose cells share a prime-XOR key; the dict hash once removed such an object
    from that bucket twice (KeyError). It now moves them and finds the pairs."""
    scene = scenes.mixed(10_000)
    cell = scene.cell_size
    x0, y0 = np.floor((scene.pos - scene.extent[:, None]) / cell).astype(int).T
    x1, y1 = np.floor((scene.pos + scene.extent[:, None]) / cell).astype(int).T
    shared = [i for i in np.flatnonzero(scene.extent > 8.0)
              if len({(x * 73856093) ^ (y * 19349663) for x in range(x0[i], x1[i] + 1)
                      for y in range(y0[i], y1[i] + 1)})
              < (x1[i] - x0[i] + 1) * (y1[i] - y0[i] + 1)]
    assert shared, "the scene no longer has an object whose cells share a key"
    method, moved = peers.PlainPythonHash.ready(scene)
    batch, _ = peers.HierarchicalBatchAPI.ready(scene)
    _, pairs = method.timed_frame(moved)
    assert np.array_equal(method.canonical(pairs), batch.canonical(batch.frame(moved)))


def test_the_targets_hold_the_3d_uniform_grid_to_five_times_ckdtree():
    """The run's targets name the 3D scenes' ratio against cKDTree and judge it."""
    from spatial_hash import bench
    rows = {("uniform3d", 100_000): {peers.KDTree.name: 58.0, bench.UNIFORM: 14.0,
                                     bench.HIERARCHICAL: 10.0},
            ("uniform3d", 1_000_000): {peers.KDTree.name: 830.0, bench.UNIFORM: 160.0,
                                       bench.HIERARCHICAL: 170.0}}
    records = [{"scene": scene, "n": n, "method": method, "ms_per_frame": ms, "load": "idle",
                "skipped": False}
               for (scene, n), times in rows.items() for method, ms in times.items()]
    micro = {"update_same_cells_us": 0.1, "query_nearby_us": 0.5,
             "query_nearby_mean_results": 10.0, "query_nearby_warm_us": 0.2,
             "query_nearby_warm_results": 12}
    report = bench.targets_report(records, micro, []).splitlines()
    assert (f"  - {bench.UNIFORM} vs {peers.KDTree.name} at uniform3d N=100,000: 4.14x "
            f"(target at least 5x): NOT met") in report
    assert (f"  - {bench.HIERARCHICAL} vs {peers.KDTree.name} at uniform3d N=100,000: 5.80x "
            f"(target at least 5x): met") in report
    assert (f"  - {bench.UNIFORM} vs {peers.KDTree.name} at uniform3d N=1,000,000: 5.19x "
            f"(target at least 5x): met") in report


def test_memory_is_measured_per_index_in_fresh_processes():
    """Each index in each dimension gets its figure from a process of its own;
    a grid of 20,000 objects holds at least its shapes (4 or 6 doubles each)."""
    from spatial_hash.bench import memory
    records = memory.memory_costs(n=20_000)
    assert [(r["index"], r["dim"]) for r in records] == [
        (index, dim) for dim in (2, 3) for index in memory.INDEXES]
    for r in records:
        assert r["n"] == 20_000
        if r["index"] == "uniform grid":
            assert r["bytes_per_object"] >= 8 * 2 * r["dim"]
    text = memory.report(records)
    assert "2D uniform grid" in text and "3D scipy cKDTree" in text and "target at most 96 B" in text
