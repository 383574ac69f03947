"""The code examples of the README and the manual (docs/**/*.md), as fenced
blocks: ```python blocks are doctest sessions (`>>>` lines and the output they
print), ```gdscript blocks name their dialect after the language
(```gdscript godot4 or ```gdscript godot3), ```sh blocks are commands."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^(?P<indent>[ ]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ ]*$",
                   re.S | re.M)


class Block:
    def __init__(self, page, line, info, text):
        self.page, self.line, self.text = page, line, text
        words = info.split()
        self.language = words[0] if words else ""
        self.dialect = words[1] if len(words) > 1 else None

    @property
    def where(self):
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(language=None, pages=PAGES):
    """Every fenced block of the pages (of `language`, if given), in order."""
    found = []
    for page in pages:
        text = page.read_text()
        for match in FENCE.finditer(text):
            body = "".join(line[len(match.group("indent")):] + "\n"
                           for line in match.group("body").splitlines())
            block = Block(page, text.count("\n", 0, match.start()) + 1, match.group("info"), body)
            if language in (None, block.language):
                found.append(block)
    return found
