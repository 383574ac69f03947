# The docstrings of the files both dimensions share name what differs between
# 2D and 3D as $words ($insert_box: insert_rect in 2D, insert_box in 3D), and
# the shared methods' examples are written per dimension: each dimension's
# docstrings.pxi gives its words and examples to `_fill_docstrings`, which
# puts them in when the module is imported, before classes.pxi binds the
# functions as methods (a property takes its function's docstring then).


def _fill_docstrings(dict namespace, dict words, dict examples):
    """Put `words`' text for each word marked with a dollar sign into the
    docstrings of the module's functions, and end the docstring of each
    function named in `examples` with an Examples section holding its text."""
    import re
    import textwrap
    used = set()
    for name, value in list(namespace.items()):
        if isinstance(value, type) or not callable(value) or not isinstance(value.__doc__, str):
            continue
        doc = value.__doc__
        if name in examples:
            used.add(name)
            doc = (doc.rstrip() + "\n\n    Examples\n    --------\n"
                   + textwrap.indent(textwrap.dedent(examples[name]).strip("\n"), "    ") + "\n    ")
        if doc is not value.__doc__ or "$" in doc:
            value.__doc__ = re.sub(r"\$(\w+)", lambda word: words[word.group(1)], doc)
    if used != set(examples):
        raise LookupError(f"examples for no function: {sorted(set(examples) - used)}")
