"""`import littlestone` (and the core sub-packages) must not load scikit-learn, Numba or matplotlib: workers and the
CLI pay for them only where they are used."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("sklearn", "numba", "matplotlib")


def loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


@pytest.mark.parametrize(
    "code",
    [
        "import littlestone",
        "import littlestone; littlestone.__version__",
        "import littlestone.classes, littlestone.dimensions, littlestone.online",
        "from littlestone import FiniteClass, Intervals, SOA, ldim; ldim(FiniteClass([[0, 1], [1, 1]]))",
        "import littlestone.pac.global_stable, littlestone.pac.tournament, littlestone.pac.sources",
    ],
)
def test_import_does_not_load_heavy_libraries(code):
    assert loaded_after(code) == []


def test_lazy_names_resolve():
    import littlestone

    for name in littlestone.__all__:
        assert getattr(littlestone, name) is not None
    with pytest.raises(AttributeError):
        littlestone.no_such_name  # noqa: B018


def test_version_answers_without_loading_the_commands():
    code = (
        "import sys; sys.argv = ['littlestone', '--version']\nfrom littlestone.cli import main\nmain()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'typer', 'littlestone.classes')))[:1])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [f"littlestone {__import__('littlestone').__version__}", "[]"]


@pytest.mark.parametrize("package", ["littlestone.classes", "littlestone.privacy"])
def test_lazy_packages_export_every_name(package):
    """``littlestone.classes`` and ``littlestone.privacy`` import a name's module on first use; every name in
    ``__all__`` resolves to the object of its module, ``dir`` lists them, and a name shared with its module (e.g.
    ``privacy.stable_histogram``) is the function, not the module, whatever was imported first."""
    import importlib
    import types

    pkg = importlib.import_module(package)
    for name in pkg.__all__:
        value = getattr(pkg, name)
        assert not isinstance(value, types.ModuleType), name
    assert set(pkg.__all__) <= set(dir(pkg))
    with pytest.raises(AttributeError):
        pkg.no_such_name  # noqa: B018
    code = (
        "import littlestone.privacy.bounded_histogram, littlestone.privacy.stable_histogram\n"
        "from littlestone.privacy import bounded_histogram, stable_histogram, sparse_selection\n"
        "print(all(callable(f) and not hasattr(f, '__path__') and f.__class__.__name__ == 'function' "
        "for f in (bounded_histogram, stable_histogram, sparse_selection)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_a_learner_loads_only_the_classes_it_uses():
    """BLM20 on thresholds loads the thresholds class, not the other structured classes (each costs start-up time
    that every process pays once, serially, before any parallel work)."""
    code = (
        "from littlestone import Thresholds\nfrom littlestone.pac.blm20 import blm20_learn\nimport sys\n"
        "print(' '.join(m for m in ('littlestone.classes.intervals', 'littlestone.classes.affine', "
        "'littlestone.classes.conjunctions', 'littlestone.privacy.above_threshold') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == []
