"""The Python reference: a page per class, each member documented once.

reference/python.rst lists the classes in autosummary tables, from which
autosummary writes a stub per class (reference/generated/, through
_templates/autosummary/class.rst); each stub is one ``api-class`` directive,
which puts on the page the class's docstring, a table of every public method
and property it has (its own and its bases'), and the documentation of the
members whose home the page is. A member's home is the page of the class that
defines it; a member defined by a private base (object_hashes._ObjectIndex,
say) is at home on the first class of CLASSES that has it from that base. The
tables of the other pages link to the home. Sphinx is imported only by `setup`.
"""
import importlib
import inspect

# Every class with a page, by the name it is documented under, in the
# reference's order (reference/python.rst lists the same, a test checks).
CLASSES = [
    "spatial_hash.SpatialHash", "spatial_hash.OptimizedSpatialHash",
    "spatial_hash.HierarchicalSpatialHash", "spatial_hash.SpatialHash3D",
    "spatial_hash.OptimizedSpatialHash3D", "spatial_hash.HierarchicalSpatialHash3D",
    "spatial_hash.SpatialHashCollisionSystem", "spatial_hash.CollisionObject",
    "spatial_hash.SpatialHashCollisionSystem3D", "spatial_hash.CollisionObject3D",
    "spatial_hash._core.SpatialIndex", "spatial_hash.UniformGrid", "spatial_hash.HierarchicalGrid",
    "spatial_hash._core3d.SpatialIndex3D", "spatial_hash.UniformGrid3D",
    "spatial_hash.HierarchicalGrid3D", "spatial_hash.BruteForce", "spatial_hash.BruteForce3D",
]


# The methods' tables: a table per group, each in this order (a test checks
# that every method of every page has a group).
GROUPS = [
    ("Objects", ["insert", "insert_rect", "insert_box", "insert_circle", "insert_sphere", "add_object",
                 "update", "update_rect", "update_box", "update_bounds", "update_circle", "update_sphere",
                 "update_object_position", "remove", "remove_object", "clear", "set_static",
                 "is_static", "set_filter", "filter_of", "handle", "id_of", "bounds", "circle_of",
                 "sphere_of", "shape"]),
    ("Queries", ["query_nearby", "query_nearby_at", "query_range", "query_rect", "query_box",
                 "query_point", "query_radius", "query_swept", "query_along_path", "query_nearest",
                 "raycast", "raycast_all"]),
    ("Pairs", ["pairs", "pair_ids", "pair_events", "pair_event_ids", "end_pairs_of", "is_colliding",
               "check_collisions", "candidate_ids"]),
    ("Batch calls, on numpy arrays", [
        "insert_rects", "insert_boxes", "insert_circles", "insert_spheres", "update_rects",
        "update_packed", "update_boxes", "update_aabbs", "update_circles", "update_spheres", "remove_many",
        "set_statics", "set_filters", "query_rects", "query_boxes", "query_nearest_many",
        "raycast_many"]),
    ("The whole index", ["ids", "stats", "cell_counts", "cell_of", "cells_of", "is_large",
                         "level_of_id", "check_hash_distribution", "last_pair_pass", "last_phase_ms",
                         "copy_into", "validate"]),
]


def group_of(name):
    """The heading of the methods' table that lists method `name`."""
    for heading, names in GROUPS:
        if name in names:
            return heading
    return "Other methods"


def resolve(name):
    """The object a dotted name documents."""
    module, _, attribute = name.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def kind_of(value):
    """"method", "property" (a property or a C-level attribute descriptor) or
    None for anything else (class data, nested classes)."""
    if isinstance(value, (staticmethod, classmethod)) or inspect.isroutine(value):
        return "method"
    if isinstance(value, property) or inspect.isgetsetdescriptor(value) \
            or inspect.ismemberdescriptor(value):
        return "property"
    return None


def members(cls):
    """{name: (kind, defining class)} of every public method and property of
    cls, its bases' first (in the order they define them), then its own."""
    found = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        for name, value in vars(klass).items():
            kind = kind_of(value)
            if not name.startswith("_") and kind:
                found[name] = (kind, klass)      # an override keeps its place
    return found


def documented_names():
    """{class: the name it is documented under} for the classes of CLASSES."""
    return {resolve(name): name for name in CLASSES}


def home(cls, name):
    """The documented name of the class whose page documents member `name`
    of cls."""
    names = documented_names()
    definer = members(cls)[name][1]
    if definer in names:
        return names[definer]
    for candidate in CLASSES:
        found = members(resolve(candidate)).get(name)
        if found and found[1] is definer:
            return candidate
    raise LookupError(f"{cls.__qualname__}.{name}: no page documents {definer.__qualname__}")


def page_lines(fullname):
    """The reStructuredText of a class's page."""
    cls = resolve(fullname)
    module, _, short = fullname.rpartition(".")
    title = short
    tables = {"Attributes": []}
    tables.update((heading, []) for heading, _ in GROUPS + [("Other methods", ())])
    own = []
    for name, (kind, _) in members(cls).items():
        where = home(cls, name)
        # autosummary wants names relative to the page's module
        tables["Attributes" if kind == "property" else group_of(name)].append(
            "~" + f"{where}.{name}".removeprefix(module + "."))
        if where == fullname:
            own.append((kind, name))
    lines = [title, "=" * len(title), "", f".. currentmodule:: {module}", "",
             f".. autoclass:: {short}", "   :no-members:"]
    bases = [b for b in cls.__bases__ if b in documented_names()]
    if bases:
        lines += ["   :show-inheritance:"]
    lines += [""]
    order = {name: k for _, names in GROUPS for k, name in enumerate(names)}
    for heading, targets in tables.items():
        if heading != "Attributes":
            targets.sort(key=lambda target: order.get(target.rpartition(".")[2], len(order)))
        if targets:
            lines += [f"   .. rubric:: {heading}", "", "   .. autosummary::", ""]
            lines += [f"      {target}" for target in targets] + [""]
    directive = {"method": "automethod", "property": "autoproperty"}
    for kind, name in own:
        value = inspect.getattr_static(cls, name)
        chosen = "autoattribute" if kind == "property" and not isinstance(value, property) \
            else directive[kind]
        lines += [f"   .. {chosen}:: {name}", ""]
    return lines


def setup(app):
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class ApiClass(SphinxDirective):
        """``.. api-class:: spatial_hash.UniformGrid``: the class's page."""
        required_arguments = 1

        def run(self):
            section = nodes.section()
            nested_parse_with_titles(self.state, StringList(page_lines(self.arguments[0]),
                                                            self.env.docname), section)
            return section.children

    def inherited_member(app, env, node, contnode):
        """`pairs` in a docstring of a class that inherits it: the link goes
        to the page that documents it."""
        target, owner = node.get("reftarget", ""), node.get("py:class")
        if node.get("refdomain") != "py" or not owner or "." in target:
            return None
        fullname = f"{node.get('py:module')}.{owner}"
        if fullname not in CLASSES or target not in members(resolve(fullname)):
            return None
        where = home(resolve(fullname), target)
        return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                                 f"{where}.{target}", node, contnode)

    app.add_directive("api-class", ApiClass)
    app.connect("missing-reference", inherited_member)
    return {"parallel_read_safe": True}
