"""The benchmark's level scenes (bench/level.py): the tiles' layout, every way
of holding the level against a brute force, Box2D's pairs where it installs,
and the report's verdicts."""
import numpy as np
import pytest

from spatial_hash.bench import level


def brute_force_pairs(lv):
    """Canonical pairs of the level: tiles never pair with each other."""
    dim, n_tiles = lv.dim, len(lv.tiles)
    pos, r = lv.movers.pos, level.MOVER_RADIUS
    pairs = set()
    for k, c in enumerate(pos):
        lo, hi = lv.tiles[:, :dim], lv.tiles[:, :dim] + lv.tiles[:, dim:]
        gap = c - np.clip(c, lo, hi)
        for t in np.flatnonzero((gap * gap).sum(axis=1) <= r * r):
            pairs.add((int(t), n_tiles + k))
        d = pos[k + 1:] - c
        for j in np.flatnonzero((d * d).sum(axis=1) <= (2 * r) ** 2):
            pairs.add((n_tiles + k, n_tiles + k + 1 + int(j)))
    return pairs


@pytest.mark.parametrize("dim", [2, 3])
def test_tiles_fill_a_grid_with_gaps_and_never_overlap(dim):
    lv = level.level_scene(100, dim, tiles=1000)
    assert lv.tiles.shape == (1000, 2 * dim)
    assert np.all(lv.tiles[:, dim:] == level.TILE)
    corners = lv.tiles[:, :dim] / level.TILE
    assert np.all(corners == np.round(corners))        # on the grid
    assert len(np.unique(corners, axis=0)) == 1000      # one tile a slot
    slots = int(corners.max()) + 1
    assert 1000 / slots ** dim == pytest.approx(level.FILLED, rel=0.2)


@pytest.mark.parametrize("dim", [2, 3])
def test_every_way_of_holding_the_level_finds_the_brute_force_pairs(dim):
    lv = level.level_scene(40, dim, tiles=800)
    ways = [level.Grid(lv, "static"), level.Grid(lv, None), level.Grid(lv, "resting")]
    times, copies, pairs, kinds = level.race(lv, ways, frames=4)
    expected = brute_force_pairs(lv)
    static, alone, resting = (w.name for w in ways)
    assert {tuple(p) for p in pairs[static].tolist()} == expected
    assert {tuple(p) for p in pairs[alone].tolist()} == {p for p in expected if p[0] >= 800}
    tile_pairs = {tuple(p) for p in pairs[resting].tolist()} - expected
    assert tile_pairs and all(b < 800 for _, b in tile_pairs)     # the tiles' own pairs, kept
    assert kinds[static] == kinds[resting] == "changed" and len(copies) == 4
    assert all(len(t) == 4 for t in times.values())


def test_the_report_says_what_was_met(capsys):
    records = level.level_costs(movers=(40,), dims=(2,), frames=2, with_box2d=False, tiles=500)
    (r,) = records
    assert r["static_agrees_with_resting"] and r["alone_agrees"] and r["tiles"] == 500
    text = level.report(records)
    assert "tiles static vs movers alone" in text and "same pairs: yes" in text
    if not level.box2d_available():
        assert "Box2D v3: skipped" in text


def test_the_crossover_times_both_ways():
    (r,) = level.crossover_costs(n=3000, shares=(0.01,), dims=(2,), rounds=2)
    assert set(r["pass_ms"]) == {"changed", "full"}
    assert "over what changed" in level.crossover_report([r])


@pytest.mark.skipif(not level.box2d_available(), reason="box2d-python installs on CPython 3.12 and 3.13 only")
def test_box2d_reports_the_same_pairs_but_for_float32_borderline_ones():
    lv = level.level_scene(80, 2, tiles=600)
    ways = [level.Grid(lv, "static"), level.Box2D(lv)]
    _, _, pairs, _ = level.race(lv, ways, frames=3)
    exact, borderline = level.compare(lv, pairs[ways[0].name], pairs[ways[1].name])
    assert borderline is not None and borderline <= 3
    (record,) = level.box2d_costs(sizes=(500,), frames=2)
    assert record["box2d"]["borderline"] is not None
