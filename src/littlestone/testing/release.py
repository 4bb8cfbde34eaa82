"""One release policy, checked (issue 19 item 4).

Everything a fitted private estimator or online learner shows — its public attributes, its result's fields,
``summary()``, ``repr``, ``state()``, ``distribution()``, an online learner's ``release()`` and its saved model —
must be *public* (parameters, sizes fixed before the data), *computed only from mechanism outputs*, or a
*diagnostic* (present only with ``diagnostics=True``, never saved, never printed by default).
:func:`check_release` tests this on a :class:`ReleaseSubject` without knowing which field is which:

1. **Neighbours with the same noise.** The subject runs on D and on a neighbour D′ with the same seeded backend and
   seed, while every :class:`~littlestone.privacy.Mechanism` call is recorded. When every mechanism returned the same
   output on both, a release that is public or computed from mechanism outputs is the same too: any field that
   differs is flagged (a count of the private data, a label read from it, a diagnostic left on).
2. **Determinism.** The subject runs twice on D with the same seed: a field that differs is neither data nor noise
   (a timing).
3. **Diagnostics off by default.** With ``diagnostics`` False (the default) no surface may carry a non-empty
   ``diagnostics`` entry or a timing (``wall_time``, ``elapsed``, ``seconds``).
4. **Secret randomness.** Optionally, the subject runs twice on the SECURE backend with the same public seed while
   the secret parts handed out by :class:`~littlestone.privacy.partition.DataSplit` are recorded: equal secret index
   sets mean the secret randomness follows the user's (saved) seed.

A subject declares the fields allowed to differ on neighbours although the mechanism outputs agree (``allowed``:
an explicit whitelist with a reason, empty for every learner of this library).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

#: surface names that are timings, whatever their value
TIMING_KEYS = ("wall_time", "elapsed", "seconds", "duration")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class Finding:
    """One violation of the release policy: the surface path, the rule broken and the two values seen."""

    path: str
    rule: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.path}: {self.rule}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class ReleaseSubject:
    """What :func:`check_release` runs: ``make(backend)`` a fresh estimator/learner with a FIXED public seed on
    ``backend`` ("seeded" or "secure"), ``run(obj, data)`` fits or plays it (returns the fitted object or None for
    in-place), neighbouring datasets ``D`` and ``D_prime``; ``allowed`` maps release paths to the reason they may
    differ on neighbours; ``secret`` says whether the subject draws secret randomness (check 4); ``outputs`` are the
    declared mechanism outputs and their post-processing: regular expressions matched against "path = text" (when
    the mechanism outputs differ on D and D′, everything else must still be equal)."""

    name: str
    make: Callable[[str], Any]
    run: Callable[[Any, Any], Any]
    D: Any
    D_prime: Any
    allowed: dict = field(default_factory=dict)
    secret: bool = False
    outputs: tuple[str, ...] = ("hypothesis", "chosen", "bottom", "minimax", "𝒦", "f = ")


# ------------------------------------------------------------------------------------------ surfaces


def _text(value: Any) -> str:
    return _ADDRESS.sub("", repr(value))


def _flatten(prefix: str, value: Any, out: dict[str, str], depth: int = 0) -> None:
    if depth > 12:
        out[prefix] = _text(value)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _flatten(f"{prefix}.{f.name}", getattr(value, f.name), out, depth + 1)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}[{k!r}]", v, out, depth + 1)
        return
    if isinstance(value, (list, tuple)) and len(value) <= 64 and not hasattr(value, "_fields"):
        for i, v in enumerate(value):
            _flatten(f"{prefix}[{i}]", v, out, depth + 1)
        return
    if isinstance(value, np.ndarray):
        if value.size > 4096:  # a large array: its shape and a digest of its bytes
            import hashlib

            digest = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()[:16]
            out[prefix] = f"<array {value.shape} {value.dtype} sha256:{digest}>"
            return
        out[prefix] = _text(np.round(value, 12).tolist() if value.dtype.kind == "f" else value.tolist())
        return
    if isinstance(value, float) and not math.isfinite(value):
        out[prefix] = repr(value)
        return
    if isinstance(value, str) and "\n" in value:  # printed text: line by line
        for i, line in enumerate(value.splitlines()):
            out[f"{prefix}[line {i}]"] = line
        return
    out[prefix] = _text(value)


def _call(obj: Any, name: str) -> Any:
    fn = getattr(obj, name, None)
    if not callable(fn):
        return None
    try:
        return fn()
    except Exception as exc:  # a surface that cannot be shown is not a release
        return f"<{name} raised {type(exc).__name__}>"


def release_surfaces(obj: Any) -> dict[str, str]:
    """Every release surface of a fitted estimator / learner, flattened to path → canonical text."""
    out: dict[str, str] = {}
    for k, v in sorted(vars(obj).items()):
        if not k.startswith("_"):
            _flatten(k, v, out)
    result = getattr(obj, "result_", None)
    if result is not None and callable(getattr(result, "summary", None)):
        _flatten("result_.summary()", _ADDRESS.sub("", result.summary()), out)
    for name in ("summary", "state", "distribution", "release"):
        value = _call(obj, name)
        if value is not None:
            _flatten(f"{name}()", value, out)
    _flatten("repr", _text(obj), out)
    if callable(getattr(obj, "to_dict", None)) and hasattr(obj, "hypothesis_"):
        _flatten("saved", obj.to_dict(), out)
    return out


# ------------------------------------------------------------------------------------------ recorders


def _mechanism_classes() -> list[type]:
    from ..privacy import Mechanism

    seen: list[type] = []
    todo = [Mechanism]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.append(sub)
                todo.append(sub)
    return [c for c in seen if "__call__" in c.__dict__]


@contextlib.contextmanager
def record_mechanisms() -> Iterator[list[tuple[str, str]]]:
    """Record (mechanism class, output) for every Mechanism call inside the block, and every answer of an interactive
    :class:`~littlestone.privacy.AboveThreshold` (``test`` / ``test_count`` / ``first_above``)."""
    log: list[tuple[str, str]] = []
    patched = []
    for cls in _mechanism_classes():
        original = cls.__dict__["__call__"]

        def wrapper(self: Any, *args: Any, __original: Any = original, __cls: type = cls, **kwargs: Any) -> Any:
            out = __original(self, *args, **kwargs)
            if type(self) is __cls or "__call__" not in type(self).__dict__:
                log.append((type(self).__name__, _text(out)))
            return out

        cls.__call__ = wrapper  # type: ignore[method-assign]
        patched.append((cls, "__call__", original))
    # the interactive AboveThreshold's answers are mechanism outputs too (⊤ times decide segment learners' releases)
    from ..privacy.above_threshold import AboveThreshold

    for name in ("test", "test_count", "first_above"):
        original = AboveThreshold.__dict__[name]

        def answer(self: Any, *args: Any, __original: Any = original, __name: str = name, **kwargs: Any) -> Any:
            out = __original(self, *args, **kwargs)
            log.append((f"{type(self).__name__}.{__name}", _text(out)))
            return out

        setattr(AboveThreshold, name, answer)
        patched.append((AboveThreshold, name, original))
    try:
        yield log
    finally:
        for cls, name, original in patched:
            setattr(cls, name, original)


@contextlib.contextmanager
def record_secret_parts() -> Iterator[list[tuple[int, ...]]]:
    """Record the index sets of the secret parts :class:`DataSplit` hands out inside the block."""
    from ..privacy.partition import DataSplit

    log: list[tuple[int, ...]] = []
    original = DataSplit.subsample

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        part = original(self, *args, **kwargs)
        log.append(tuple(int(i) for i in part.indices))
        return part

    DataSplit.subsample = spy  # type: ignore[method-assign]
    try:
        yield log
    finally:
        DataSplit.subsample = original  # type: ignore[method-assign]


# ------------------------------------------------------------------------------------------ the check


def _played(subject: ReleaseSubject, data: Any, backend: str = "seeded") -> tuple[Any, list]:
    import warnings

    obj = subject.make(backend)
    with record_mechanisms() as log, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = subject.run(obj, data)
    return (obj if out is None else out), list(log)


def check_release(subject: ReleaseSubject) -> list[Finding]:
    """The violations of the release policy by ``subject`` (an empty list: none found). See the module doc."""
    findings: list[Finding] = []
    a, log_a = _played(subject, subject.D)
    a2, _ = _played(subject, subject.D)
    b, log_b = _played(subject, subject.D_prime)
    sa, sa2, sb = release_surfaces(a), release_surfaces(a2), release_surfaces(b)
    for path in sorted(set(sa) | set(sa2)):
        if sa.get(path) != sa2.get(path):
            findings.append(Finding(path, "differs between two runs on the same data and seed (a timing?)"))
    if log_a == log_b:
        for path in sorted(set(sa) | set(sb)):
            if sa.get(path) != sb.get(path) and path not in subject.allowed and sa.get(path) == sa2.get(path):
                findings.append(
                    Finding(
                        path,
                        "differs on neighbouring data although every mechanism output was equal",
                        f"{str(sa.get(path))[:80]} vs {str(sb.get(path))[:80]}",
                    )
                )
    else:
        outputs = [re.compile(p) for p in subject.outputs]
        for path in sorted(set(sa) | set(sb)):
            if sa.get(path) == sb.get(path) or path in subject.allowed or sa.get(path) != sa2.get(path):
                continue
            if not any(p.search(f"{path} = {sa.get(path)}") for p in outputs):
                findings.append(
                    Finding(
                        path,
                        "differs on neighbouring data and is not a declared mechanism output",
                        f"{str(sa.get(path))[:80]} vs {str(sb.get(path))[:80]}",
                    )
                )
    if not getattr(a, "diagnostics", False):
        for path, text in sa.items():
            low = path.lower()
            if "diagnostics" in low and text not in ("None", "False", "{}"):
                findings.append(Finding(path, "a diagnostic shown although diagnostics=False"))
            elif any(k in low for k in TIMING_KEYS):
                findings.append(Finding(path, "a timing in a release"))
            elif any(f"'{k}'" in text for k in TIMING_KEYS) and path.endswith("()"):
                findings.append(Finding(path, "a timing in a printed release"))
    if subject.secret:
        with record_secret_parts() as parts:
            _played(subject, subject.D, "secure")
            _played(subject, subject.D, "secure")
        if not parts:
            findings.append(Finding("<secret>", "no secret part drawn through DataSplit.subsample"))
        elif len(parts) % 2 == 0 and parts[: len(parts) // 2] == parts[len(parts) // 2 :]:
            findings.append(Finding("<secret>", "secret randomness follows the public seed on the secure backend"))
    return findings
