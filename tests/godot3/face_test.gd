extends Node2D
# The Godot 3 face of SpatialHash2D, in a real Godot 3 without a Python plugin,
# over a GDScript stand-in engine (stand_in_engine.gd): random per-object and
# batch calls on nodes and ints (static or not), nodes freed and taken out of
# the tree, checked
# against a model of what the node must hold; and no Object, freed or not, may
# ever reach the engine. Prints "FACE OK" and quits with 0 if every check passed.

const StandIn = preload("res://stand_in_engine.gd")
const STEPS = 3000

var hash_node
var engine
var model := {}             # object -> [x, y, w, h] or [x, y, radius, NAN]
var model_static := {}      # object -> true: the static ones, which never pair with each other
var nodes := []
var rng := RandomNumberGenerator.new()
var failures := 0
var checks := 0


func _ready():
	rng.seed = 11
	hash_node = load("res://addons/spatial_hash/godot3/spatial_hash_2d.gd").new()
	add_child(hash_node)
	_check(hash_node.insert(1, Vector2(), Vector2(1, 1)) == false and "no Python engine" in hash_node.get_last_error(),
		"without a Python engine every call says so: " + hash_node.get_last_error())
	engine = StandIn.new()
	hash_node._attach(engine)
	for k in 12:
		nodes.append(_node(k))
	for step in STEPS:
		_step(step)
	_check(engine.objects_handed == 0, "%d Objects reached the engine" % engine.objects_handed)
	_check(engine.calls.get("apply", 0) > 50 and engine.calls.get("apply", 0) < STEPS,
		"per-object calls are held and applied together: %d applies" % engine.calls.get("apply", 0))
	for node in nodes:      # the ones taken out of the tree are not freed with it
		if is_instance_valid(node) and not node.is_inside_tree():
			node.free()
	print("FACE %d checks, %d failed" % [checks, failures])
	if failures == 0:
		print("FACE OK")
	get_tree().quit(1 if failures else 0)


func _node(k):
	var node = Node2D.new()
	node.name = "N%d" % k
	add_child(node)
	return node


func _any_object():
	# Nodes (some freed, some out of the tree) and ints.
	if rng.randf() < 0.3:
		return rng.randi_range(0, 5)
	return nodes[rng.randi_range(0, nodes.size() - 1)]


func _step(step):
	var obj = _any_object()
	var x = rng.randf_range(-100, 100)
	var y = rng.randf_range(-100, 100)
	var w = [0.0, rng.randf_range(0, 30), 150.0][rng.randi_range(0, 2)]
	var h = rng.randf_range(0, 30)
	var usable = typeof(obj) == TYPE_INT or (is_instance_valid(obj) and obj.is_inside_tree())
	var as_static = rng.randf() < 0.3
	var action = rng.randf()
	if action < 0.3:
		var done = hash_node.insert(obj, Vector2(x, y), Vector2(w, h), as_static)
		_check(done == usable, "insert(%s) returned %s: %s" % [_name(obj), done, hash_node.get_last_error()])
		if usable:
			model[obj] = [float(x), float(y), float(w), float(h)]
			_set_model_static(obj, as_static)
	elif action < 0.4:
		var r = rng.randf_range(0, 20)
		var done = hash_node.insert_circle(obj, Vector2(x, y), r, as_static)
		_check(done == usable, "insert_circle(%s) returned %s" % [_name(obj), done])
		if usable:
			model[obj] = [float(x), float(y), r, NAN]
			_set_model_static(obj, as_static)
	elif action < 0.5:
		var done = hash_node.update_object(obj, Rect2(x, y, w, h))
		_check(done == _held(obj), "update_object(%s) returned %s" % [_name(obj), done])
		if done:
			model[obj] = [float(x), float(y), float(w), float(h)]
	elif action < 0.6:
		var done = hash_node.remove(obj)
		_check(done == _held(obj), "remove(%s) returned %s" % [_name(obj), done])
		model.erase(obj)
		model_static.erase(obj)
		if not usable:
			_check(not done, "a freed node is never removed")
	elif action < 0.65:
		_churn()
	elif action < 0.7:
		var found = hash_node.get_id(obj)
		_check((found >= 0) == _held(obj), "get_id(%s) = %d" % [_name(obj), found])
		_check(hash_node.has(obj) == _held(obj), "has(%s)" % _name(obj))
		_check(hash_node.is_static(obj) == model_static.has(obj), "is_static(%s)" % _name(obj))
	elif action < 0.75:
		var flag = as_static if rng.randf() < 0.8 else "yes"
		var done = hash_node.set_static(obj, flag)
		_check(done == (_held(obj) and typeof(flag) == TYPE_BOOL), "set_static(%s, %s) returned %s" % [_name(obj), flag, done])
		if done:
			_set_model_static(obj, flag)
		elif typeof(flag) != TYPE_BOOL and (typeof(obj) == TYPE_INT or is_instance_valid(obj)):
			_check(hash_node.get_last_error().ends_with('enabled must be true or false, got "yes"'), hash_node.get_last_error())
	elif action < 0.85:
		var q = Rect2(rng.randf_range(-120, 120), rng.randf_range(-120, 120), rng.randf_range(0, 80), rng.randf_range(0, 80))
		_check(_same(hash_node.query_range(q, true), _model_overlapping([q.position.x, q.position.y, q.size.x, q.size.y])),
			"step %d: query_range(%s)" % [step, q])
	elif action < 0.9:
		var found = hash_node.query_radius(Vector2(x, y), 10.0)
		_check(_same(found, _model_overlapping([x, y, 10.0, NAN])), "step %d: query_radius" % step)
	else:
		_check_pairs(step)


func _held(obj):
	return (typeof(obj) == TYPE_INT or is_instance_valid(obj)) and model.has(obj)


# Frees a node or takes it out of the tree, in place of a fresh one: the node
# leaves the index as it leaves the tree, before anything can hand it back.
func _churn():
	var k = rng.randi_range(0, nodes.size() - 1)
	var node = nodes[k]
	if not is_instance_valid(node):
		nodes[k] = _node(100 + rng.randi_range(0, 1000))
		return
	model.erase(node)
	model_static.erase(node)
	if node.is_inside_tree() and rng.randf() < 0.5:
		remove_child(node)
	else:
		node.free()


func _check_pairs(step):
	var got := []
	for pair in hash_node.get_collision_pairs():
		got.append(_key(pair[0], pair[1]))
	var expected := []
	var objects = model.keys()
	for i in objects.size():
		for j in range(i + 1, objects.size()):
			var both_static = model_static.has(objects[i]) and model_static.has(objects[j])
			if not both_static and engine._shapes_touch(model[objects[i]], model[objects[j]]):
				expected.append(_key(objects[i], objects[j]))
	_check(_same(got, expected), "step %d: pairs %d, model %d" % [step, got.size(), expected.size()])


func _set_model_static(obj, enabled):
	if enabled:
		model_static[obj] = true
	else:
		model_static.erase(obj)


func _key(a, b):
	var names = [_name(a), _name(b)]
	names.sort()
	return "%s|%s" % names


func _model_overlapping(query):
	var found := []
	for obj in model:
		if engine._shapes_touch(query, model[obj]):
			found.append(obj)
	return found


func _same(found, expected):
	if found.size() != expected.size():
		return false
	for item in expected:
		if not found.has(item):
			return false
	return true


func _name(obj):
	if typeof(obj) == TYPE_INT:
		return str(obj)
	return str(obj.name) if is_instance_valid(obj) else "<freed>"


func _check(ok, what):
	checks += 1
	if not ok:
		failures += 1
		if failures <= 20:
			printerr("FACE check failed: ", what)
