"""Godot 4's custom monitors for a node's stats."""


# (monitor name, key of get_stats()) for Godot 4's custom monitors.
MONITORS = [
    ("total_objects", "objects"),
    ("active_cells", "active_cells"),
    ("avg_objects_per_cell", "avg_objects_per_cell"),
    ("large_objects", "large_objects"),
    ("broad_phase_pairs", "broad_phase_pairs"),
    ("narrow_phase_checks", "narrow_phase_checks"),
    ("last_query_ms", "last_query_ms"),
    ("last_pairs_ms", "last_pairs_ms"),
]


class MonitorSet:
    """Custom-monitor ids for one node: the first node registered gets the plain
    `spatial_hash/<name>` ids, later ones a distinct suffix (one slash only, so
    Godot keeps them in the spatial_hash category)."""

    def __init__(self, node, label, is_taken):
        self.node = node
        suffix = ""
        k = 1
        while any(is_taken(f"spatial_hash/{name}{suffix}") for name, _ in MONITORS):
            k += 1
            suffix = f" [{label} {k}]"
        self.ids = {f"spatial_hash/{name}{suffix}": key for name, key in MONITORS}

    def reader(self, monitor_id):
        """A callable returning the monitor's current value (never negative, never raises)."""
        key = self.ids[monitor_id]

        def read():
            try:
                return max(0.0, float(self.node.get_stats().get(key, 0.0)))
            except Exception:       # a monitor runs inside the engine's frame
                return 0.0
        return read
