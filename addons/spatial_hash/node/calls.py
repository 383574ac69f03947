"""The engine boundary of every GDScript-facing method: any argument count, no
exception escaping, errors reported and kept."""
import functools
import sys
import time


def report_to_stderr(message):
    print("ERROR: " + message, file=sys.stderr, flush=True)


def gdcall(default):
    """Make a method safe to call from GDScript with any arguments: a wrong count
    and any exception become a reported message and `default` (a fresh copy
    for lists and dicts). Each call starts with no error."""
    def wrap(method):
        code = method.__code__
        most = code.co_argcount - 1
        least = most - len(method.__defaults__ or ())
        names = ", ".join(code.co_varnames[1:most + 1])

        @functools.wraps(method)
        def call(self, *args):
            self.last_error = ""
            if not least <= len(args) <= most:
                count = str(most) if least == most else f"{least} to {most}"
                return self._fail(f"{method.__name__}({names}) takes {count} arguments, "
                                  f"got {len(args)}", default)
            try:
                return method(self, *args)
            except Exception as error:      # the engine boundary: report, never raise
                return self._fail(f"{method.__name__}: {error}", default)
        call.gd_default = default
        return call
    return wrap


def timed(run):
    """run()'s result and how long it took, in ms."""
    start = time.perf_counter()
    result = run()
    return result, 1e3 * (time.perf_counter() - start)
