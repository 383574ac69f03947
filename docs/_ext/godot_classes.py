"""The GDScript class reference of the nodes, from Godot's own doc XML.

Godot 4 writes a class's reference from the script's `##` comments
(`godot --doctool`, see `write_xml`); the XML is committed under docs/godot/,
since CI has no Godot 4. This module reads it (`read_class`), renders it as
reStructuredText (`to_rst`, used by the `godot-class` directive), and reads the
same comments straight from a face (`doc_comments`), so that a test can hold
the committed XML to the faces. Sphinx is imported only by `setup`.
"""
import pathlib
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET

CHECKOUT = pathlib.Path(__file__).resolve().parents[2]
XML_FOLDER = CHECKOUT / "docs" / "godot"
FACES = CHECKOUT / "addons" / "spatial_hash" / "godot4"
CLASSES = {"SpatialHash2D": "spatial_hash_2d.gd", "SpatialHash3D": "spatial_hash_3d.gd"}
KINDS = ("method", "member", "signal", "constant")


def squeeze(text):
    """Text with every run of whitespace as one space, none after a [br]: Godot
    joins a comment's lines so."""
    return " ".join((text or "").split()).replace("[br] ", "[br]")


def public(name):
    return not name.startswith("_")


def read_class(path):
    """{"name", "inherits", "brief", "description", "method": [...], "member": [...],
    "signal": [...], "constant": [...]} of a class's XML, public members only. Each
    member is a dict with "name", "description" and what its kind has: a method's
    "returns" and "params" (name, type, default or None), a signal's "params", a
    property's "type" and "default", a constant's "value"."""
    root = ET.parse(path).getroot()
    cls = {"name": root.get("name"), "inherits": root.get("inherits"),
           "brief": squeeze(root.findtext("brief_description")),
           "description": squeeze(root.findtext("description"))}

    def params(node):
        return [(p.get("name"), p.get("type"), p.get("default")) for p in node.findall("param")]

    readers = {
        "method": lambda n: {"returns": n.find("return").get("type"), "params": params(n)},
        "member": lambda n: {"type": n.get("type"), "default": n.get("default")},
        "signal": lambda n: {"params": params(n)},
        "constant": lambda n: {"value": n.get("value")},
    }
    for kind in KINDS:
        cls[kind] = [dict(readers[kind](node), name=node.get("name"),
                          description=squeeze(node.findtext("description") if kind in ("method", "signal")
                                              else node.text))
                     for node in root.iter(kind) if public(node.get("name"))]
    return cls


_DECLARATION = re.compile(
    r"^(?:func (?P<method>\w+)|signal (?P<signal>\w+)|const (?P<constant>\w+)"
    r"|(?:@export\w*(?:\(.*?\))? )?var (?P<member>\w+))")


def doc_comments(face):
    """The `##` comments of a face as Godot reads them: {"brief", "description",
    (kind, name): text} for the class and each public declaration a comment
    stands right above, whitespace squeezed."""
    lines = pathlib.Path(face).read_text().splitlines()
    found, block, in_class_doc = {}, [], None
    for line in lines:
        if line.startswith("##"):
            block.append(line[2:].strip())
            continue
        if in_class_doc is None and block and not line.strip():
            in_class_doc = False                 # the comment under `extends` is the class's
            text = "\n".join(block)
            brief, _, description = text.partition("\n\n")
            found["brief"], found["description"] = squeeze(brief), squeeze(description)
            block = []
            continue
        match = _DECLARATION.match(line)
        if match and block:
            kind = match.lastgroup
            if public(match.group(kind)):
                found[(kind, match.group(kind))] = squeeze("\n".join(block))
        block = []
    return found


def documented(cls):
    """The same shape as doc_comments, from read_class's result: what the XML says."""
    found = {"brief": cls["brief"], "description": cls["description"]}
    for kind in KINDS:
        for member in cls[kind]:
            if member["description"]:
                found[(kind, member["name"])] = member["description"]
    return found


def write_xml(godot, out):
    """Write both classes' XML into `out` with `godot` (a command list starting a
    Godot 4 editor build, e.g. ["godot", "--headless"]), from a scratch project
    holding the faces; returns {class name: path}."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out) as scratch:
        project = pathlib.Path(scratch)
        faces = project / "addons" / "spatial_hash" / "godot4"
        faces.mkdir(parents=True)
        (project / "project.godot").write_text('config_version=5\n\n[application]\n\n'
                                               'config/name="spatial_hash docs"\n')
        for name in list(CLASSES.values()) + ["missing_engine.gd"]:
            (faces / name).write_text((FACES / name).read_text())
        (faces.parent / "icon.svg").write_text((FACES.parent / "icon.svg").read_text())
        xml_out = project / "xml"
        subprocess.run(godot + ["--path", str(project), "--doctool", str(xml_out),
                                "--gdscript-docs", "res://addons/spatial_hash/godot4"],
                       check=True, capture_output=True, timeout=300)
        written = {}
        for name in CLASSES:
            target = out / f"{name}.xml"
            target.write_bytes((xml_out / f"{name}.xml").read_bytes())
            written[name] = target
    return written


# BBCode of Godot's doc comments -> reStructuredText.
def _anchor(cls, kind, name):
    return f"godot-{cls}-{kind}-{name}".lower().replace("_", "-")


def bbcode_to_rst(text, cls):
    """One paragraph's worth of a doc comment as reStructuredText: references to
    the class's own members become links, others literal text."""
    own = {(kind, m["name"]) for kind in KINDS for m in cls[kind]}
    markup = []             # inline markup, kept out of the escaping as placeholders

    def keep(rst):
        markup.append(rst)
        return f"\x00{len(markup) - 1}\x00"

    def reference(match):
        kind, name = match.group(1), match.group(2)
        if kind == "param":
            return keep(f"*{name}*")
        label = f"{name}()" if kind == "method" else name
        if (kind, name) in own:
            return keep(f":ref:`{label} <{_anchor(cls['name'], kind, name)}>`")
        return keep(f"``{label.split('.')[-1]}``")

    text = re.sub(r"\[code\](.*?)\[/code\]", lambda m: keep(f"``{squeeze(m.group(1))}``"), text,
                  flags=re.S)
    text = re.sub(r"\[(method|member|signal|constant|param) ([\w@.]+)\]", reference, text)
    text = re.sub(r"\[b\](.*?)\[/b\]", lambda m: keep(f"**{m.group(1)}**"), text)
    text = re.sub(r"\[i\](.*?)\[/i\]", lambda m: keep(f"*{m.group(1)}*"), text)
    text = re.sub(r"\[([A-Z]\w*)\]", lambda m: keep(f"``{m.group(1)}``"), text)   # a class name
    text = re.sub(r"([\\*`|_])", r"\\\1", text)

    def put_back(match):
        # Inline markup glued to a word needs an escaped space on that side.
        before = "\\ " if match.start() and text[match.start() - 1].isalnum() else ""
        after = "\\ " if match.end() < len(text) and text[match.end()].isalnum() else ""
        return before + markup[int(match.group(1))] + after
    return re.sub("\x00(\\d+)\x00", put_back, text)


def _paragraphs(text, cls):
    return [bbcode_to_rst(p.strip(), cls) for p in re.split(r"\[br\]\s*(?:\[br\])?", text)
            if p.strip()]


def _escape(text):
    """Plain text as reStructuredText: its markup characters escaped."""
    return re.sub(r"([\\*`|_])", r"\\\1", text)


def godot_type(type_):
    """A type as reStructuredText: a link into Godot's class reference for the
    engine's classes the manual's inventory lists (docs/_ext/inventories.py),
    plain text for the others (int, Variant, Array...)."""
    from inventories import GODOT
    if type_ in {name for name, *_ in GODOT}:
        return f":class:`{type_} <godot:{type_}>`"
    return _escape(type_)


def _signature(params):
    shown = []
    for name, type_, default in params:
        shown.append(f"{_escape(name)}: {godot_type(type_)}"
                     + (f" = {_escape(default)}" if default is not None else ""))
    return ", ".join(shown)


def to_rst(cls, heading="="):
    """The class reference as reStructuredText lines: a section per kind."""
    lines = [cls["name"], heading * len(cls["name"]), "",
             f"*Inherits:* {godot_type(cls['inherits'])}", "", bbcode_to_rst(cls["brief"], cls), ""]
    for paragraph in _paragraphs(cls["description"], cls):
        lines += [paragraph, ""]
    titles = {"member": "Properties", "method": "Methods", "signal": "Signals",
              "constant": "Constants"}
    sub = "-"
    for kind in ("member", "method", "signal", "constant"):
        if not cls[kind]:
            continue
        lines += [titles[kind], sub * len(titles[kind]), ""]
        for m in cls[kind]:
            name = _escape(m["name"])
            if kind == "method":
                shown = f"{name}({_signature(m['params'])}) -> {godot_type(m['returns'])}"
            elif kind == "signal":
                shown = f"signal {name}({_signature(m['params'])})"
            elif kind == "member":
                shown = f"{name}: {godot_type(m['type'])}" \
                    + (f" = {_escape(m['default'])}" if m["default"] else "")
            else:
                shown = f"{name} = {_escape(m['value'])}"
            # A rubric in code's font (docs/_static/spatial_hash.css), its types links.
            lines += [f".. _{_anchor(cls['name'], kind, m['name'])}:", "",
                      f".. rubric:: {shown}", "   :class: godot-signature", ""]
            for paragraph in _paragraphs(m["description"], cls) or ["*(undocumented)*"]:
                lines += [paragraph, ""]
    return lines


def setup(app):
    from docutils.parsers.rst import directives
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class GodotClass(SphinxDirective):
        """``.. godot-class:: godot/SpatialHash2D.xml`` (relative to the docs folder)."""
        required_arguments = 1
        option_spec = {"heading": directives.unchanged}

        def run(self):
            path = pathlib.Path(self.env.srcdir) / self.arguments[0]
            self.env.note_dependency(str(path))
            lines = to_rst(read_class(path), self.options.get("heading", "="))
            container = __import__("docutils.nodes", fromlist=["section"]).section()
            nested_parse_with_titles(self.state, StringList(lines, str(path)), container)
            return container.children

    app.add_directive("godot-class", GodotClass)
    return {"parallel_read_safe": True}
