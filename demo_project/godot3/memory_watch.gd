extends Reference
# The process's resident memory over a long run (`--frames=N`), to show that
# the node's per-frame work keeps nothing: read at FIRST_FRAME, once start-up
# has settled, and again as the scene quits, and printed as one line,
# "memory: rss frame 239 -> 19999: 103,632 -> 103,632 kB (+0 kB)". Linux only:
# elsewhere the readings are -1.

const FIRST_FRAME = 239

var _first_kb = -1


func at_frame(frame):
	if frame == FIRST_FRAME:
		_first_kb = resident_kb()


func report(last_frame):
	var last_kb = resident_kb()
	if _first_kb < 0 or last_kb < 0:
		return "memory: rss not measured (needs /proc and %d frames)" % (FIRST_FRAME + 1)
	return "memory: rss frame %d -> %d: %s -> %s kB (%+d kB)" % [
		FIRST_FRAME, last_frame, _thousands(_first_kb), _thousands(last_kb), last_kb - _first_kb]


# VmRSS of /proc/self/status, in kB; -1 where there is none.
static func resident_kb():
	var status = File.new()
	if status.open("/proc/self/status", File.READ) != OK:
		return -1
	var text = status.get_as_text()
	status.close()
	for line in text.split("\n"):
		if line.begins_with("VmRSS:"):
			return int(line.substr(6, line.length()).strip_edges().split(" ")[0])
	return -1


static func _thousands(n):
	var digits = str(n)
	var out = ""
	while digits.length() > 3:
		out = "," + digits.right(digits.length() - 3) + out
		digits = digits.left(digits.length() - 3)
	return digits + out
