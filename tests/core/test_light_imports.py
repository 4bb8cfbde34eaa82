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
