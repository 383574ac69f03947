"""The index/cell-size advice of `python -m spatial_hash.bench --suggest`."""
import math

import numpy as np
import pytest

from spatial_hash import bench, tuning


def test_equal_objects_get_a_uniform_grid_of_twice_their_diameter():
    advice = tuning.suggest(np.full(1000, 3.0))
    assert advice["index"] == "uniform" and advice["cell_size"] == 6.0


def test_boxes_use_their_longest_side():
    advice = tuning.suggest(np.tile([[2.0, 5.0]], (100, 1)))
    assert advice["cell_size"] == 10.0


def test_one_boss_among_bullets_stays_on_the_large_list():
    sizes = np.array([4.0] * 10_000 + [500.0])
    advice = tuning.suggest(sizes)
    assert advice["index"] == "uniform" and advice["cell_size"] == 8.0
    assert "1 larger objects" in advice["reason"]


def test_many_large_objects_call_for_the_hierarchical_grid():
    sizes = np.array([2.0] * 950 + [100.0] * 50)      # 50 objects of ~14 x 14 cells
    advice = tuning.suggest(sizes)
    assert advice["index"] == "hierarchical" and advice["cell_size"] is None
    assert "50 objects would span more than 4 cells" in advice["reason"]


def test_the_benchmark_scenes_get_the_advice_their_timings_support():
    from spatial_hash.bench import scenes
    assert tuning.suggest(tuning.sizes_of_scene(scenes.uniform(2000)))["index"] == "uniform"
    assert tuning.suggest(tuning.sizes_of_scene(scenes.mixed(2000)))["index"] == "hierarchical"


def test_sizes_file_and_cli(tmp_path, capsys):
    path = tmp_path / "sizes.txt"
    path.write_text("# width height\n4 4\n4, 6\n6 4\n")
    assert tuning.load_sizes(path).shape == (3, 2)
    assert bench.main(["--suggest", str(path)]) == 0
    assert capsys.readouterr().out.startswith("use the uniform grid with cell_size=12")


@pytest.mark.parametrize("sizes,named", [([], "empty"), ([1.0, -2.0], "sizes[1]"),
                                         ([1.0, math.nan], "sizes[1]"), ([[1, 2, 3, 4]], "shape")])
def test_bad_sizes_are_named(sizes, named):
    with pytest.raises(ValueError, match=named.replace("[", r"\[")):
        tuning.suggest(sizes)


@pytest.mark.parametrize("text,message", [
    ("# sizes\n1 2\n\n3\n", "line 4: 1 numbers, but line 2 has 2: every line must be"),
    ("2\n3 4 5\n", "line 2: expected 'diameter' or 'width height', got '3 4 5'"),
    ("2\nwide 4\n", "line 2: 'wide 4' is not one or two numbers"),
    ("# nothing\n\n", "no sizes")])
def test_a_malformed_sizes_file_is_refused_naming_the_line(tmp_path, capsys, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        tuning.load_sizes(path)
    assert str(error.value).startswith(str(path)) and message in str(error.value)
    with pytest.raises(SystemExit) as stop:          # the command line: a usage error, no traceback
        bench.main(["--suggest", str(path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_three_dimensional_sizes_get_cells_of_one_diameter():
    boxes = tuning.suggest(np.tile([[2.0, 5.0, 3.0]], (100, 1)))
    assert boxes["index"] == "uniform" and boxes["cell_size"] == 5.0
    balls = tuning.suggest(np.full(100, 3.0), dimension=3)
    assert balls["cell_size"] == 3.0
    assert tuning.suggest(np.full(100, 3.0))["cell_size"] == 6.0


def test_a_dimension_that_does_not_fit_the_sizes_is_refused():
    with pytest.raises(ValueError, match="dimension"):
        tuning.suggest(np.ones((5, 3)), dimension=2)
    with pytest.raises(ValueError, match="dimension"):
        tuning.suggest(np.ones(5), dimension=4)
