"""tools/build_wheels.py's choice of interpreters and compiler environment
(the wheels themselves are built and tested by .ci/run)."""
import importlib.util
import pathlib
import stat

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_wheels", ROOT / "tools" / "build_wheels.py")
build_wheels = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_wheels)


def fake_python(path, answer):
    """An executable that answers like an interpreter printing `answer`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\necho '%s'\n" % answer)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_one_python_per_version_from_38_and_no_found_shims(tmp_path):
    found = [fake_python(tmp_path / "a" / "python3.7", "3 7"),
             fake_python(tmp_path / "a" / "python3.8", "3 8"),
             fake_python(tmp_path / "b" / "python3.8", "3 8"),
             fake_python(tmp_path / "shims" / "python3.12", "3 12"),
             fake_python(tmp_path / "a" / "python3.13", "3 13"),
             str(tmp_path / "missing" / "python3.9")]
    assert build_wheels.find_pythons(found) == {(3, 8): found[1], (3, 13): found[4]}
    # A shim the user names is taken for the version it runs.
    assert build_wheels.find_pythons([found[3]], named=True) == {(3, 12): found[3]}


def test_a_named_python_that_does_not_run_is_refused_by_name(tmp_path, capsys):
    """Seen on this project's machine: another system's python3.14 (a newer
    glibc) was left out without a word, and the build went on without it."""
    broken = tmp_path / "python3.14"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    old = fake_python(tmp_path / "python3.7", "3 7")
    assert build_wheels.main(["--python", str(broken), "--out", str(tmp_path / "dist")]) == 2
    assert f"--python {broken} does not run here" in capsys.readouterr().err
    assert build_wheels.main(["--python", old]) == 2
    assert "is CPython 3.7, older than 3.8" in capsys.readouterr().err
    assert not (tmp_path / "dist").exists()


def test_zig_targets_glibc_217_and_finds_a_debian_pythons_multiarch_header(tmp_path):
    python = fake_python(tmp_path / "python3.99", "x86_64-linux-gnu python3.99")
    environment = build_wheels.zig_environment("/venv/bin/python", python, str(tmp_path))
    zig = "/venv/bin/python -m ziglang c++ -target x86_64-linux-gnu.2.17"
    assert environment["CC"] == environment["CXX"] == zig
    assert environment["LDSHARED"] == environment["LDCXXSHARED"] == environment["CC"] + " -shared"
    fallback = tmp_path / "include-fallback"
    assert ("-idirafter " + str(fallback)) in environment["CFLAGS"]
    assert (fallback / "crypt.h").read_text() == ""
    assert "-fno-slp-vectorize" in environment["CFLAGS"].split()     # see zig_environment
    assert " -I" not in environment["CFLAGS"]        # no /usr/include/x86_64-linux-gnu/python3.99
    assert environment["CXXFLAGS"].endswith(environment["CFLAGS"])     # the core is C++


def test_the_sdist_takes_every_source_the_core_is_built_from(monkeypatch):
    """MANIFEST.in, read as setuptools reads it, takes the modules' sources,
    every file they include, their .pxd files, every kernel header and the node
    package's helper (a wheel is built from the sdist)."""
    from setuptools._distutils.filelist import FileList
    monkeypatch.chdir(ROOT)
    files = FileList()
    files.findall()
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            files.process_template_line(line)
    taken = {pathlib.Path(f).as_posix() for f in files.files}
    needed = {p.relative_to(ROOT).as_posix() for p in (ROOT / "cython_src").rglob("*")
              if p.suffix in (".pxi", ".pxd", ".hpp", ".pyx")}
    for suffix in (".hpp", ".pxi", ".pxd", ".pyx"):
        assert any(name.endswith(suffix) for name in needed), suffix
    assert "cython_src/api3d/classes.pxi" in needed
    assert needed <= taken, sorted(needed - taken)
