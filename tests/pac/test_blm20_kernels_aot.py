"""The ahead-of-time build of the BLM20 tournament kernels (littlestone.pac._kernels_build): a run on it never
imports Numba, its entry points agree with the JIT on every input and refuse arguments they would misread. (The
pinned G and M outputs run on both paths in test_blm20_kernel_pins.py; staleness is tested in core/test_aot.py.)"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone._aot import ENV, load
from littlestone.pac import _kernels as jit
from littlestone.pac._kernels_build import KERNELS

aot = load(KERNELS)
needs_build = pytest.mark.skipif(
    aot is None,
    reason="ahead-of-time kernels not built for the current source: python -m littlestone.pac._kernels_build",
)

RUN = """
import sys
from littlestone import Thresholds
from littlestone.bounds.blm20 import theorem1
from littlestone.pac import tournament
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.sources import RealizableStream, UniformIntegers
rep = theorem1(1, 0.1, 1.0, 1e-6, 0.05)
H = Thresholds(2)
src = RealizableStream(H.hypothesis(2), UniformIntegers(0, 2), rep.total, seed=4)
res = blm20_learn(H, src, epsilon=1.0, delta=1e-6, alpha=0.1, beta=0.05, backend="seeded", seed=4)
print(repr(res.chosen), tournament._KERNELS.__name__, "numba" in sys.modules)
"""


def run_blm20(mode: str) -> list[str]:
    env = {**os.environ, ENV: mode}
    return subprocess.run(
        [sys.executable, "-c", RUN], capture_output=True, text=True, check=True, env=env
    ).stdout.split()


@needs_build
def test_aot_run_does_not_import_numba():
    assert run_blm20("aot") == ["Threshold(2,)", KERNELS.module_name(), "False"]
    assert run_blm20("auto") == ["Threshold(2,)", KERNELS.module_name(), "False"]


def test_jit_run_still_works():
    assert run_blm20("jit") == ["Threshold(2,)", KERNELS.source, "True"]


@needs_build
@settings(max_examples=60, deadline=None)
@given(
    xs=st.lists(st.tuples(st.integers(-3, 12), st.booleans()), max_size=40),
    lo=st.integers(-2, 12),
    width=st.integers(0, 12),
    n_points=st.integers(1, 12),
)
def test_aot_matches_jit(xs, lo, width, n_points):
    hi = lo + width
    X = np.array([x for x, _ in xs], dtype=np.int64)
    y = np.array([b for _, b in xs], dtype=np.int8)
    assert aot.soa_threshold(lo, hi, n_points) == jit.soa_threshold(lo, hi, n_points)
    assert aot.soa_threshold(hi, lo - 1, n_points) == jit.soa_threshold(hi, lo - 1, n_points)
    a, b = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    assert aot.restrict_thresholds(X, y, lo, hi, a) == jit.restrict_thresholds(X, y, lo, hi, b)
    assert a.tolist() == b.tolist()
    n = max(1, len(xs) // 4)
    R = len(xs) // (2 * n)
    for start in range(R + 1):
        a, b = np.zeros(6, dtype=np.int64), np.zeros(6, dtype=np.int64)
        ra = aot.level1_first_round(X, y, n, R, start, lo, hi, n_points, a)
        assert ra == jit.level1_first_round(X, y, n, R, start, lo, hi, n_points, b)
        assert a.tolist() == b.tolist()


@needs_build
def test_aot_refuses_arguments_it_would_misread():
    X, out = np.arange(3, dtype=np.int64), np.zeros(2, dtype=np.int64)
    for y in (np.ones(3, dtype=np.int64), np.ones(3, dtype=bool), np.ones(6, dtype=np.int8)[::2]):
        with pytest.raises(TypeError, match="argument 1 must be a 1-d C-contiguous int8 array"):
            aot.restrict_thresholds(X, y, 0, 5, out)  # the raw entry point reads int64 labels as bytes (or crashes)
    with pytest.raises(TypeError, match="argument 4 must be a 1-d C-contiguous writeable int64 array"):
        aot.restrict_thresholds(X, np.ones(3, dtype=np.int8), 0, 5, np.zeros(2, dtype=np.int32))
    with pytest.raises(TypeError):
        aot.soa_threshold(0, 5.5, 6)
