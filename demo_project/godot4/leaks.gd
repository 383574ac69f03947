extends Node
# Does the Python plugin leak on the calls SpatialHash2D makes every frame?
# One candidate (one way of passing numbers between GDScript and Python,
# alone) is called `--calls=N` times a frame for `--frames=F` frames; the
# process's resident memory at frame 239 (after warm-up) and at the last frame
# gives kB per call. A flat candidate shows 0.00; any real per-call leak adds
# up to megabytes over the run. Use it on a new plugin release:
#   godot --headless --path . res://leaks.tscn -- --candidate=read_vec2 --calls=20 --frames=3000
# `--candidate=list` prints the candidates (one per run: they share the
# process's memory). `--size=N` sets the elements per packed array (10100
# by default, as in bullet_hell). The Python half is leaks_probe.py.

const MemoryWatch := preload("res://memory_watch.gd")
const WARMUP := MemoryWatch.FIRST_FRAME

# candidate -> [probe method, argument]; the argument names a value made in
# _ready ("" for none, "size" for --size).
const CANDIDATES := {
	"nothing": ["nothing", ""],                     # the bare call: the baseline
	"arg_int32": ["take", "int32"], "arg_int64": ["take", "int64"],
	"arg_float32": ["take", "float32"], "arg_float64": ["take", "float64"],
	"arg_byte": ["take", "bytes"], "arg_vec2": ["take", "vec2"], "arg_vec3": ["take", "vec3"],
	"arg_string": ["take", "string"], "arg_int": ["take", "int"], "arg_float": ["take", "float"],
	"arg_dict": ["take", "dict"], "arg_array": ["take", "array"],
	# read: the argument's bytes through a memory view, as the node reads update_batch's
	"read_int32": ["read", "int32"], "read_int64": ["read", "int64"],
	"read_float32": ["read", "float32"], "read_float64": ["read", "float64"],
	"read_byte": ["read", "bytes"], "read_vec2": ["read", "vec2"], "read_vec3": ["read", "vec3"],
	# the same as the node reads them: giving back the reference too many that
	# py4godot 4.6-alpha17 adds to a memory view (the vector arrays' bytes keep theirs)
	"read_int32_fixed": ["read_fixed", "int32"], "read_float64_fixed": ["read_fixed", "float64"],
	"read_vec2_fixed": ["read_fixed", "vec2"], "read_vec3_fixed": ["read_fixed", "vec3"],
	"read_byte_fixed": ["read_fixed", "bytes"],
	"size": ["size", "int32"],      # an int from a builtin method
	# returns: a packed array as the node builds one (kept array + slice), stats
	"ret_packed": ["ret_packed", "size"],
	"ret_dict": ["ret_dict", ""], "ret_dict_int_keys": ["ret_dict_int_keys", ""],
	"ret_int": ["ret_int", ""], "ret_float": ["ret_float", ""], "ret_string": ["ret_string", ""],
	# an array both sides keep, handed over once: does Python see GDScript's writes?
	"shared": ["peek", ""],
	# an array Python keeps and writes, handed over once: does GDScript see Python's writes?
	"written": ["write", ""],
	# the same array returned by every call: whole, current, and kept without a leak?
	"ret_kept": ["write_and_return", ""],
}

var candidate := "nothing"
var calls := 10
var frames := 2000
var size := 10100
var probe: RefCounted
var method: String
var argument: Variant
var values := {}
var shared := PackedByteArray()
var shared_seen := 0
var written := PackedInt32Array()
var start_rss := 0
var call_usec := 0
var frame := 0


func _ready() -> void:
	for arg in OS.get_cmdline_user_args():
		var parts: PackedStringArray = arg.trim_prefix("--").split("=")
		match parts[0]:
			"candidate": candidate = parts[1]
			"calls": calls = int(parts[1])
			"frames": frames = int(parts[1])
			"size": size = int(parts[1])
	if candidate == "list" or not CANDIDATES.has(candidate):
		print("leaks: candidates: %s" % ", ".join(CANDIDATES.keys()))
		set_process(false)
		get_tree().quit(0 if candidate == "list" else 1)
		return
	probe = RefCounted.new()
	probe.set_script(load("res://leaks_probe.py"))     # as the node does: py4godot's script has no new()
	if not probe.has_method("take"):
		push_error("leaks: res://leaks_probe.py did not load (no Python plugin?)")
		set_process(false)
		get_tree().quit(1)
		return
	var int32 := PackedInt32Array()
	var int64 := PackedInt64Array()
	var float32 := PackedFloat32Array()
	var float64 := PackedFloat64Array()
	var vec2 := PackedVector2Array()
	var vec3 := PackedVector3Array()
	for i in size:
		int32.append(i)
		int64.append(i)
		float32.append(i * 0.5)
		float64.append(i * 0.5)
		vec2.append(Vector2(i, -i))
		vec3.append(Vector3(i, -i, 0.5 * i))
	var stats := {}
	for key in ["objects", "cells", "cell_size", "last_update_ms", "last_pairs_ms",
			"pairs", "narrow_phase_checks", "largest_cell", "mean_cell", "rebuilds"]:
		stats[key] = 1.5
	values = {"": null, "size": size, "int32": int32, "int64": int64, "float32": float32,
		"float64": float64, "bytes": vec2.to_byte_array(), "vec2": vec2, "vec3": vec3,
		"string": "last_update_ms", "int": 123456789, "float": 1.5, "dict": stats,
		"array": [1, 2.5, 3, 4.5, 5, 6.5, 7, 8.5, 9, 10.5]}
	method = CANDIDATES[candidate][0]
	argument = values[CANDIDATES[candidate][1]]
	if candidate == "shared":
		shared.resize(size)
		probe.share(shared)
	if candidate == "written":
		written = probe.written_array()
	probe.set_size(size)


func _process(_delta: float) -> void:
	var start := Time.get_ticks_usec()
	if candidate == "shared":
		shared[0] = frame % 256     # Python would see this if both held one array
		if probe.peek() == frame % 256:
			shared_seen += 1
	elif candidate == "written":
		for i in calls:
			probe.write(frame * calls + i)
			shared_seen += int(written[0] == frame * calls + i)
	elif candidate == "ret_kept":
		for i in calls:
			var value := frame * calls + i
			var got: PackedInt32Array = probe.write_and_return(value)
			shared_seen += int(got.size() == size and got[0] == value and got[size - 1] == value)
	elif CANDIDATES[candidate][1] == "":
		for i in calls:
			probe.call(method)
	else:
		for i in calls:
			probe.call(method, argument)
	if frame >= WARMUP:
		call_usec += Time.get_ticks_usec() - start
	frame += 1
	if frame == WARMUP:
		start_rss = MemoryWatch.resident_kb()
	if frame >= frames:
		_report()
		get_tree().quit()


func _report() -> void:
	var measured := frame - WARMUP
	var per_frame := 1 if candidate == "shared" else calls
	var end_rss := MemoryWatch.resident_kb()
	print("leaks %s: %d calls a frame, size %d, frames %d..%d: rss %d kB -> %d kB (%+d kB): %.3f kB per call, %.1f us per call%s" % [
		candidate, per_frame, size, WARMUP, frame, start_rss, end_rss, end_rss - start_rss,
		float(end_rss - start_rss) / (measured * per_frame), float(call_usec) / (measured * per_frame),
		"; Python saw GDScript's write in %d of %d frames" % [shared_seen, frame] if candidate == "shared"
		else "; GDScript saw Python's write in %d of %d calls" % [shared_seen, frame * calls] if candidate in ["written", "ret_kept"]
		else ""])

