"""The benchmark's scenes move every object as a plain per-object loop would:
forward by velocity * dt, bounced off the world's walls (mirrored back inside,
velocity reversed on that axis)."""
import numpy as np
import pytest

from spatial_hash.bench import scenes


def stepped_one_by_one(scene, dt):
    """The oracle: each coordinate of each object moved in plain Python."""
    pos, vel = scene.pos.tolist(), scene.vel.tolist()
    world = scene.world
    for i, (p, v) in enumerate(zip(pos, vel)):
        for axis in (0, 1):
            wall = world[axis] - (scene.extent[i][axis] if scene.kind == "box" else 0.0)
            x = p[axis] + v[axis] * dt
            if x < 0.0:
                x, v[axis] = -x, -v[axis]
            elif x > wall:
                x, v[axis] = 2.0 * wall - x, -v[axis]
            p[axis] = x
    return np.array(pos), np.array(vel)


@pytest.mark.parametrize("make", [scenes.uniform, scenes.mixed, scenes.clustered, scenes.bullets])
def test_a_step_moves_and_bounces_every_object_as_a_loop_would(make):
    scene = make(300, seed=5) if make is not scenes.bullets else make(seed=5)
    scene.vel *= 40.0       # fast enough that many objects meet a wall each frame
    bounced = 0
    for _ in range(30):
        want_pos, want_vel = stepped_one_by_one(scene, 1.0 / 60.0)
        bounced += int((np.sign(want_vel) != np.sign(scene.vel)).sum())
        scene.step()
        assert np.array_equal(scene.pos, want_pos)
        assert np.array_equal(scene.vel, want_vel)
    assert bounced > 0
