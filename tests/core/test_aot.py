"""Ahead-of-time kernel builds (littlestone._aot): a build is found only for the source it was built from — an edit
makes it stale and the JIT runs instead — the environment variable forces a path, and the compiled entry points
reject arguments they would misread (they do not check types themselves)."""

from __future__ import annotations

import importlib
import shutil
import uuid

import numpy as np
import pytest

from littlestone._aot import ENV, AotModule, Export, _checked, load, load_kernels
from littlestone.errors import LittlestoneError

KERNEL_SOURCE = """
from numba import njit


@njit
def _twice(x):
    return 2 * x


@njit
def twice(x):
    return _twice(x)


@njit
def fill(a, v):
    for i in range(a.shape[0]):
        a[i] = v
    return a.shape[0]
"""


def JIT():
    return "jit"


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A fresh package with a two-kernel module, and its spec."""
    pkg = f"aot_tiny_{uuid.uuid4().hex[:8]}"
    (tmp_path / pkg).mkdir()
    (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / pkg / "k.py").write_text(KERNEL_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    exports = (Export("twice", "i8(i8)"), Export("fill", "i8(i8[::1], i8)", writes=(0,)))
    return AotModule(f"{pkg}.k", exports, builder=f"{pkg}.build"), tmp_path / pkg


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler to build with")
def test_build_loads_and_an_edit_makes_it_stale(tiny, tmp_path, monkeypatch):
    spec, pkg = tiny
    monkeypatch.delenv(ENV, raising=False)
    assert load(spec) is None and load_kernels(spec, JIT) == "jit"
    path = spec.build(tmp_path / "build.log")
    assert path.parent == pkg and path.name.startswith(f"k_aot_{spec.key()}")
    aot = load(spec)
    assert aot is not None and load_kernels(spec, JIT).__name__ == spec.module_name()
    assert aot.twice(21) == 42
    a = np.zeros(4, dtype=np.int64)
    assert aot.fill(a, 7) == 4 and a.tolist() == [7] * 4
    for bad in (
        np.zeros(4, dtype=np.int32),
        np.zeros(8, dtype=np.int64)[::2],
        np.zeros((2, 2), dtype=np.int64),
        [0, 0],
    ):
        with pytest.raises(TypeError, match="argument 0 must be a 1-d C-contiguous writeable int64 array"):
            aot.fill(bad, 7)
    a.flags.writeable = False
    with pytest.raises(TypeError, match="writeable"):
        aot.fill(a, 7)
    with pytest.raises(TypeError):
        aot.twice(2.5)  # the raw entry point would truncate it
    with pytest.raises(OverflowError):
        aot.twice(2**63)
    with pytest.raises(TypeError, match="takes 1 positional argument"):
        aot.twice(1, 2)

    (pkg / "k.py").write_text(KERNEL_SOURCE.replace("2 * x", "3 * x"))  # a developer edits the kernels
    importlib.invalidate_caches()
    assert path.exists() and load(spec) is None, "a build of the old source was used"
    assert load_kernels(spec, JIT) == "jit"
    monkeypatch.setenv(ENV, "aot")
    with pytest.raises(LittlestoneError, match=f"run `python -m {spec.builder}`"):
        load_kernels(spec, JIT)


def test_signature_change_changes_the_key(tiny):
    spec, _ = tiny
    other = AotModule(spec.source, (Export("twice", "i4(i4)"),) + spec.exports[1:], spec.builder)
    assert spec.key() != other.key()


def test_environment_variable_forces_or_is_rejected(tiny, monkeypatch):
    spec, _ = tiny
    monkeypatch.setenv(ENV, "jit")
    assert load_kernels(spec, JIT) == "jit"
    monkeypatch.setenv(ENV, "aot")
    with pytest.raises(LittlestoneError, match="not built for its current source"):
        load_kernels(spec, JIT)
    monkeypatch.setenv(ENV, "fast")
    with pytest.raises(LittlestoneError, match="must be jit, aot or auto, not 'fast'"):
        load_kernels(spec, JIT)


def test_unsupported_signature_is_refused():
    with pytest.raises(ValueError, match="unsupported argument type"):
        Export("f", "i8(i8[:, ::1])").arguments()
    assert Export("f", "f8(u1[::1], b1, f8)").arguments() == [
        (np.dtype(np.uint8), True),
        (np.dtype(bool), False),
        (np.dtype(np.float64), False),
    ]


def test_argument_checks_of_every_kind():
    f = _checked(Export("f", "i8(i1[::1], f8[::1], i4, u1, i8, f8)", writes=(1,)), lambda *a: a)
    x, out = np.zeros(3, dtype=np.int8), np.zeros(2)
    assert f(x, out, -(2**31), np.uint8(255), True, 0.5)[2:] == (-(2**31), 255, 1, 0.5)
    with pytest.raises(TypeError, match="argument 0 must be a 1-d C-contiguous int8 array"):
        f(x.astype(">i2"), out, 0, 0, 0, 0.0)
    with pytest.raises(TypeError, match="argument 1 must be a 1-d C-contiguous writeable float64 array"):
        f(x, out.astype(np.float32), 0, 0, 0, 0.0)
    with pytest.raises(OverflowError, match="argument 2 = 2147483648 does not fit int32"):
        f(x, out, 2**31, 0, 0, 0.0)
    with pytest.raises(OverflowError, match="argument 3 = -1 does not fit uint8"):
        f(x, out, 0, -1, 0, 0.0)
    with pytest.raises(TypeError):
        f(x, out, 0, 0, 1.0, 0.0)
