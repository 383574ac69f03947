"""Benchmark results kept as data: one JSON file per machine and date,
`<folder>/<machine>/<date>.json` (in a checkout, `bench/results/`), which the
manual's tables and plots are drawn from when it is built.

A stored file is the benchmark's own results.json with three more fields:
`"date"` (YYYY-MM-DD), `"machine"["name"]` (the folder it is in) and
`"provenance"` (how the figures were obtained). Figures transcribed from an
earlier report rather than written by the benchmark keep only what that
report gave: each record's fastest frame (`ms_per_frame`), no medians or
frame times; the phase split of its fastest frame is then
`"fastest_frame_phases_ms"`.

    python -m spatial_hash.bench --store bench/results --machine my-laptop

The Godot demo projects' timings (their own scenes, run by hand in each engine)
sit beside them as `<folder>/<machine>/godot/<date>.json`, with `"date"`,
`"machine"["name"]` and `"provenance"` too, and one section per demo scene.
"""
import datetime
import json
import pathlib

# Where a checkout keeps them (beside this module).
RESULTS = pathlib.Path(__file__).resolve().parent / "results"


def store(document, folder, machine, date=None):
    """Write `document` (the benchmark's results) as `<folder>/<machine>/<date>.json`,
    today's date unless given; returns the path. A file of the same machine and
    date is replaced: the day's last run stands."""
    date = date or datetime.date.today().isoformat()
    document = dict(document, date=date, provenance=document.get(
        "provenance", "written by python -m spatial_hash.bench --store"))
    document["machine"] = dict(document.get("machine", {}), name=machine)
    path = pathlib.Path(folder) / machine / f"{date}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n")
    return path


# Where each kind of result is filed under the folder.
PATTERNS = {"python": "*/*.json", "godot": "*/godot/*.json"}


def stored(folder=RESULTS, kind="python"):
    """Every stored result of a kind ("python": the benchmark's; "godot": the
    demo projects') under `folder`, oldest first (by date, then machine)."""
    documents = [json.loads(path.read_text()) for path in pathlib.Path(folder).glob(PATTERNS[kind])]
    return sorted(documents, key=lambda d: (d["date"], d["machine"]["name"]))


def latest(folder=RESULTS, machine=None, kind="python", section=None):
    """The newest stored result of a kind (of `machine`, and holding `section`,
    if given: a day's Godot runs may measure one scene); LookupError if none."""
    found = [d for d in stored(folder, kind) if machine in (None, d["machine"]["name"])
             and (section is None or section in d)]
    if not found:
        raise LookupError(f"no stored {kind} benchmark results in {folder}"
                          + (f" for machine {machine!r}" if machine else "")
                          + (f" with {section!r}" if section else ""))
    return found[-1]


def fastest_frame_phases(record):
    """{phase: ms} of a record's fastest frame (the core's phase split), or None."""
    if "fastest_frame_phases_ms" in record:
        return record["fastest_frame_phases_ms"]
    if "phases_ms" not in record:
        return None
    fastest = record["frame_ms"].index(record["ms_per_frame"])
    return {phase: times["frame_ms"][fastest] for phase, times in record["phases_ms"].items()}
