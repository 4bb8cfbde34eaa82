"""Rejected variants of SegmentedEM's selection and segments, kept to rerun the comparison (benchmarks/results/
real_streams_scorecard.md, "Tried in the session of 2026-11-29"); prototypes, not library learners.

* ``pf``: the selection by report-noisy-max with exponential noise (permute-and-flip; ε-DP at the same scale 2/ε as
  the exponential mechanism, never worse in expected score for one draw) over the enumerated candidates when they
  are at most ``PF_CAP``; intervals use their single-stage cells.
* ``cum``: SegmentedEM run at ε·(1 − CUM_SHARE) plus ``CUM_K`` selections over the *whole* history at the public
  doubling ends ≥ ``CUM_FROM``·T, each at ε·CUM_SHARE/CUM_K (its error release included) — what the Phishing cells
  whose halves disagree need (follow-the-leader reads everything). Privacy: a round is read by its own segment's
  mechanisms (≤ ε(1 − CUM_SHARE)) and by each later whole-history selection and its error release (ε·CUM_SHARE/CUM_K
  together), so ε in all.
* ``first``: the shortest public segment grown with the class size (public), so that the first selection can separate
  2·FIRST_K·(ln|H| + 1)/ε mistakes: ``first`` = 16·2^k, the smallest such value at least that.
* ``growth``: segments of public length max(first, GROWTH·start) instead of max(first, start) (the doubling is
  GROWTH = 1); the stay test runs when that length is at least stay_factor·τ. Privacy as SegmentedEM's: every end is a
  released ⊤ or a public length.

    PYTHONPATH=$PWD/src nice python benchmarks/prototypes_real_streams.py '{}' --cls pf --seeds 5
    CUM_SHARE=0.3 CUM_K=1 PYTHONPATH=$PWD/src nice python benchmarks/prototypes_real_streams.py '{}' --cls cum
    FIRST_K=3 … --cls first;   GROWTH=0.5 … --cls growth
"""

from __future__ import annotations

import importlib.util
import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from littlestone.bounds.agnostic_segments import class_size
from littlestone.privacy.cell_exponential import CellExponentialMechanism
from littlestone.private_online.segmented_em import SegmentedEM

PF_CAP = int(os.environ.get("PF_CAP", "100000"))
CUM_SHARE = float(os.environ.get("CUM_SHARE", "0.3"))
CUM_FROM = float(os.environ.get("CUM_FROM", "0.25"))
CUM_K = int(os.environ.get("CUM_K", "2"))
FIRST_K = float(os.environ.get("FIRST_K", "3"))
GROWTH = float(os.environ.get("GROWTH", "0.5"))


class PermuteAndFlipCells(CellExponentialMechanism):
    """Report-noisy-max with Exponential(2/ε) noise over the candidates of the cells (enumerated; the Gumbel draw of
    the exponential mechanism above ``PF_CAP`` candidates); returns the cell of the drawn candidate."""

    name = "permute-and-flip (cells, prototype)"

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        sizes, scores = data
        n = [int(s) for s in sizes]
        if sum(n) > PF_CAP:
            return super().__call__(data, backend=backend, budget=budget)
        self.charge_to(budget)
        arr = np.repeat(np.asarray(scores, dtype=float).ravel(), n)
        if arr.size == 1:
            return 0
        k = backend.noisy_argmax(arr, self.scale, "exponential")
        return int(np.searchsorted(np.cumsum(n), k, side="right"))


class SegmentedPF(SegmentedEM):
    def _second_stage(self, select: Any) -> Any:
        return None  # intervals: the single-stage cells

    def _selection_mechanism(self, eps: float) -> Any:
        m = self._selection_mechanisms.get(eps)
        if not isinstance(m, PermuteAndFlipCells):
            m = self._selection_mechanisms[eps] = PermuteAndFlipCells(eps, 1.0)
        return m


class SegmentedCumulative(SegmentedEM):
    def __init__(self, H: Any, *, T: int, epsilon: float = 1.0, **kw: Any):
        super().__init__(H, T=T, epsilon=epsilon * (1 - CUM_SHARE), **kw)
        ends, b = [], self.first
        while b < T:
            if b >= CUM_FROM * T:
                ends.append(b)
            b *= 2
        self._cum_times = ends[:CUM_K]
        # the whole-history selection and its error release (ε_err of the segments) share ε·CUM_SHARE/K
        self._eps_cum = epsilon * CUM_SHARE / max(1, len(self._cum_times)) - self.epsilon_error
        if self._eps_cum <= 0:
            raise ValueError("CUM_SHARE too small for the error release")
        self._hist_x: list[Any] = []
        self._hist_y: list[Any] = []
        self._cum_mode = False

    def _selection_examples(self) -> Any:
        if self._cum_mode:
            self._segment_examples()
            return np.concatenate(self._hist_x), np.concatenate(self._hist_y).astype(np.int8)
        return super()._selection_examples()

    def selection_epsilon(self, active: bool, next_active: bool) -> float:
        return self._eps_cum if self._cum_mode else super().selection_epsilon(active, next_active)

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        out, pos, total = [], 0, len(y)
        for c in [*self._cum_times, 1 << 62]:
            if c <= self.t:
                continue
            k = min(total - pos, c - self.t)
            if k <= 0:
                break
            out.append(super()._run01(X[pos : pos + k], y[pos : pos + k]))
            self._hist_x.append(np.asarray(X[pos : pos + k]))
            self._hist_y.append(np.asarray(y[pos : pos + k]))
            pos += k
            if self.t == c:
                self._cum_mode = True
                try:
                    self._end_segment(False)
                finally:
                    self._cum_mode = False
            if pos >= total:
                break
        return np.concatenate(out) if out else np.zeros(0, np.int8)


class SegmentedFirstBySize(SegmentedEM):
    def __init__(self, H: Any, *, T: int, epsilon: float = 1.0, **kw: Any):
        need, first = FIRST_K * 2 * (math.log(class_size(H)) + 1) / epsilon, 16
        while first < need:
            first *= 2
        super().__init__(H, T=T, epsilon=epsilon, first=first, **kw)


class SegmentedGrowth(SegmentedEM):
    def stay_active(self, start: int) -> bool:
        return self.uses_stay_test and max(self.first, int(start * GROWTH)) >= self.stay_factor * self.tau

    def _new_segment_buffers(self) -> None:
        super()._new_segment_buffers()
        self._cap = max(self.first, int(self._seg_start * GROWTH))


def main() -> None:
    path = Path(__file__).resolve().parent / "scorecard_real_streams.py"
    spec = importlib.util.spec_from_file_location("scorecard_real_streams", path)
    sc = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(sc)  # type: ignore[union-attr]
    sc.LEARNERS.update(
        {"pf": SegmentedPF, "cum": SegmentedCumulative, "first": SegmentedFirstBySize, "growth": SegmentedGrowth}
    )
    sc.main()


if __name__ == "__main__":
    main()
