"""Audit of issue 26 hole 2 — a checkpoint that mixes datasets — and its broken twin.

The data owner runs BLM20 on dataset A with ``checkpoint=DIR``, then on dataset B (same length, same seed) with the
same DIR. B's release is claimed for B; about A it must say nothing: as a mechanism *of A* (B fixed and public), the
run on B is (0, 0)-DP — its output distribution may not depend on A at all. The audited mechanism is exactly that:
input A, output B's release (the released histogram of G's outputs, rounded counts).

* Honest (:class:`CheckpointReuse`): the library refuses to resume B from A's checkpoint (its manifest binds the
  data: "the data differ"); B then runs in a directory of its own, as the refusal says. Its release is a function
  of B and public coins: the same distribution for A and a neighbour A′ — nothing to find. (If the binding ever
  breaks, B resumes A's chunks and this honest audit fails: it is a regression test of the binding.)
* Twin (:class:`ResumedFromOtherData`): the old manifest, which bound class, sizes, length and seed but not the
  data — A's data identity in DIR replaced by B's, as if never recorded — so B resumes A's G outputs. B's released
  histogram is then A's, with fresh noise: one record of A moves one G output between items (a Fail more on A′ in
  the pair below), which the rounded counts show. Caught: ε_lb > 0 = the claim about A.

G's coins are public (BLM20 Thm 17: they need no secrecy), so both runs use one fixed seed (the checkpoint requires
it); the privacy noise comes from the audit's backend. A's checkpoint (and B's own) is computed once per process and
dataset and then resumed — legitimately: same data, same seed.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import weakref
from pathlib import Path
from typing import Any

import numpy as np

from ..privacy import Mechanism, PrivacyClaim
from .builtin import PUBLIC_SEED, BuiltinAudit

#: the BLM20 run of the audit (thresholds:8, tiny explicit sizes; ε large so that one G output shows in the counts)
SPEC = "thresholds:8"
RUN: dict[str, Any] = dict(epsilon=20.0, delta=1e-3, n_batches=12, aux_size=1, cap=2, n_generic=4)
_POINTS = (1, 6, 2, 5, 3, 7, 0, 4) * 5


def released_counts(result: Any) -> tuple:
    """The released histogram of a BLM20 result: (item, noisy count rounded to an integer), in release order."""
    return tuple((repr(h), int(round(c))) for h, c in result.released)


def neighbouring_pair() -> tuple[tuple, tuple]:
    """A: 40 points labelled by the threshold at 4; A′: record 3's label flipped (its G batch then fails: Fail's
    count is 8 on A and 9 on A′, with G's public seed)."""
    y = tuple(int(x >= 4) for x in _POINTS)
    return (_POINTS, y), (_POINTS, y[:3] + (1 - y[3],) + y[4:])


def public_dataset() -> tuple:
    """B: the same 40 points labelled by the threshold at 6 (public, fixed)."""
    return _POINTS, tuple(int(x >= 6) for x in _POINTS)


class CheckpointReuse(Mechanism):
    """Input: dataset A. Output: the released histogram of BLM20 on the public dataset B, run after a run on A in
    the same checkpoint directory (see the module docstring). Claim about A: (0, 0)."""

    name = "BLM20 on B after A in one checkpoint directory"

    def __init__(self) -> None:
        self._dirs: dict[Any, Path] = {}
        self._root: Path | None = None

    def __getstate__(self) -> dict:
        return {}  # a worker process builds its own checkpoints

    def __setstate__(self, state: dict) -> None:
        self.__init__()  # type: ignore[misc]

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(0.0, 0.0, "replace-one", "B's release, about the earlier run's dataset A")

    # -------------------------------------------------------------- helpers
    def _tmp(self) -> Path:
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix="littlestone-audit-checkpoint-"))
            weakref.finalize(self, shutil.rmtree, str(self._root), True)
        return self._root

    def learn(self, data: tuple, directory: Path | None, backend: Any) -> Any:
        from ..classes.spec import parse_class_spec
        from ..pac.blm20 import blm20_learn
        from ..pac.sources import ArraySource

        X, y = data
        return blm20_learn(
            parse_class_spec(SPEC),
            ArraySource(np.asarray(X, dtype=np.int64), np.asarray(y, dtype=np.int8)),
            seed=PUBLIC_SEED,
            backend=backend,
            checkpoint=None if directory is None else str(directory),
            checkpoint_every=4,
            **RUN,
        )

    def checkpoint_of(self, data: tuple, tag: str = "") -> Path:
        """A directory holding the checkpoint of a run on ``data`` (computed once, with a throw-away backend)."""
        from ..privacy import make_backend

        key = (tag, data)
        if key not in self._dirs:
            path = self._tmp() / f"run{len(self._dirs)}"
            self.learn(data, path, make_backend("seeded", seed=0))
            self._dirs[key] = path
        return self._dirs[key]

    # -------------------------------------------------------------- the mechanism
    def __call__(self, data: tuple, *, backend: Any) -> Any:
        from ..pac.checkpoint import CheckpointError

        shared = self.checkpoint_of(data)  # the run on A left its checkpoint here
        try:
            return self.learn(public_dataset(), shared, backend)  # B resumed there: must be refused
        except CheckpointError as exc:
            if "the data differ" not in str(exc):
                raise
        return self.learn(public_dataset(), self.checkpoint_of(public_dataset()), backend)  # B's own directory


class ResumedFromOtherData(CheckpointReuse):
    """BROKEN (issue 26 hole 2): the manifest does not bind the data (format-1 behaviour: class, sizes, length and
    seed only) — modelled by writing B's data identity over A's in A's checkpoint — so B resumes A's G outputs."""

    def __call__(self, data: tuple, *, backend: Any) -> Any:
        from ..pac.checkpoint import data_identity
        from ..pac.sources import ArraySource

        shared = self.checkpoint_of(data, "blind")
        man = json.loads((shared / "manifest.json").read_text())
        X, y = public_dataset()
        stop = RUN["n_batches"] * (RUN["cap"] + RUN["aux_size"])
        b_source = ArraySource(np.asarray(X, dtype=np.int64), np.asarray(y, dtype=np.int8))
        if man["binding"]["data"] != data_identity(b_source, stop):
            man["binding"]["data"] = data_identity(b_source, stop)
            (shared / "manifest.json").write_text(json.dumps(man))
        return self.learn(public_dataset(), shared, backend)


def checkpoint_reuse_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twin) of this module, for the one registry."""
    d, dp = neighbouring_pair()
    honest = BuiltinAudit(
        "checkpoint_bound_to_data",
        "BLM20 (thresholds:8, ε=20, 12 batches) on a public dataset B after a run on A in the same checkpoint "
        "directory: B's released histogram must not depend on A (claim about A: ε=0); A vs A with one label flipped "
        "(issue 26 hole 2)",
        CheckpointReuse(),
        d,
        dp,
        featurize=released_counts,
        runs=300,
    )
    twin = honest.twin(
        "checkpoint_resumed_with_other_data",
        "the same, with a checkpoint manifest that does not bind the data (the old format): B resumes A's G "
        "outputs; claims ε=0 about A",
        ResumedFromOtherData(),
    )
    return [(honest, [twin])]


__all__ = [
    "CheckpointReuse",
    "ResumedFromOtherData",
    "checkpoint_reuse_audits",
    "neighbouring_pair",
    "public_dataset",
    "released_counts",
]
