extends Reference
# The plain GDScript spatial hash a game would write itself, to measure the
# node's per-object calls against: each object's cell keys, and an Array of
# objects per cell key (Vector2, so no two cells share a key).

var cell_size: float
var _cells := {}        # Vector2 -> Array of objects
var _object_cells := {} # object -> Array of its Vector2 keys
var _rects := {}        # object -> Rect2


func _init(size: float) -> void:
	cell_size = size


func insert(obj: Object, rect: Rect2) -> void:
	var keys := _keys(rect)
	_object_cells[obj] = keys
	_rects[obj] = rect
	for key in keys:
		var cell: Array = _cells.get(key, [])
		if cell.empty():
			_cells[key] = cell
		cell.append(obj)


func remove(obj: Object) -> void:
	for key in _object_cells[obj]:
		var cell: Array = _cells[key]
		cell.erase(obj)
		if cell.empty():
			_cells.erase(key)
	_object_cells.erase(obj)
	_rects.erase(obj)


func update(obj: Object, rect: Rect2) -> void:
	remove(obj)
	insert(obj, rect)


# The objects in the cells rect covers, each once.
func query_range(rect: Rect2) -> Array:
	var found := []
	var seen := {}
	for key in _keys(rect):
		for obj in _cells.get(key, []):
			if not seen.has(obj):
				seen[obj] = true
				found.append(obj)
	return found


# The objects whose box overlaps the disc.
func query_radius(center: Vector2, radius: float) -> Array:
	var found := []
	for obj in query_range(Rect2(center - Vector2(radius, radius), Vector2(2 * radius, 2 * radius))):
		var r: Rect2 = _rects[obj]
		var nearest := Vector2(clamp(center.x, r.position.x, r.end.x), clamp(center.y, r.position.y, r.end.y))
		if nearest.distance_squared_to(center) <= radius * radius:
			found.append(obj)
	return found


func _keys(rect: Rect2) -> Array:
	var keys := []
	var x0 := int(floor(rect.position.x / cell_size))
	var y0 := int(floor(rect.position.y / cell_size))
	var x1 := int(floor(rect.end.x / cell_size))
	var y1 := int(floor(rect.end.y / cell_size))
	for x in range(x0, x1 + 1):
		for y in range(y0, y1 + 1):
			keys.append(Vector2(x, y))
	return keys
