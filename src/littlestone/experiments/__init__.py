"""Reproducible experiments (each writes a CSV table and a PNG plot): ``REGISTRY`` maps a name to ``run(..., seed,
jobs, out_dir) -> ExperimentResult``; ``littlestone experiment --list`` shows them. An experiment's module is imported
when its entry is first read, so running one experiment (or the demo) loads only what that experiment uses."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Callable

from ._blm20_common import ExperimentResult

#: name -> (module of this package whose ``run`` is the experiment, what it reproduces)
_ENTRIES: dict[str, tuple[str, str]] = {
    "blm20_stability": ("blm20_stability", "BLM20 Lemma 12 / Theorem 10"),
    "blm20_generalization": ("blm20_generalization", "BLM20 Lemma 13"),
    "blm20_sample_cost": ("blm20_sample_cost", "BLM20 Lemma 14"),
    "blm20_accuracy": ("blm20_accuracy", "BLM20 Theorem 1: M's accuracy vs n and ε"),
    "agnostic_online": ("agnostic_online", "LWY25 §4 / App. E: regret vs T, slopes vs ¾ and ½"),
    "sanitizer_error": ("sanitizer_error", "LWY25 Def 2.7 / E.1: sanitizers' error vs n and ε"),
    "ggkm21_stability": ("ggkm21_stability", "GGKM21 Lemma 5.4 + pigeonhole, Claim 5.9"),
    "ggkm21_list_size": ("ggkm21_list_size", "GGKM21 Lemma 5.5"),
    "ggkm21_accuracy": ("ggkm21_accuracy", "GGKM21 Thms 5.7 / 6.4 vs BLM20, against n and ε"),
    "private_online": ("private_online", "LWY25 Thm 3.1 vs GL21 Thm 4.1/4.2: mistakes against T"),
    "real_streams": (
        "real_streams",
        "private online learners (LWY25 §4, App. F) on river's real streams vs the best in hindsight",
    ),
}


#: name -> the default run's wall time, measured with ``littlestone experiment NAME --seed 0 --jobs 1`` on the shared
#: 2-core machine (load in brackets: other jobs shared the cores, so an idle machine is faster); ``grid=full`` where an
#: experiment has a quick default grid
RUN_TIMES: dict[str, str] = {
    "sanitizer_error": "≈ 8 s (load 12)",
    "ggkm21_list_size": "≈ 12 s (load 13)",
    "ggkm21_stability": "≈ 12 s (load 13)",
    "ggkm21_accuracy": "≈ 30 s (load 14)",
    "blm20_stability": "≈ 30 s (load 14)",
    "blm20_generalization": "≈ 85 s (load 14)",
    "blm20_sample_cost": "≈ 11 s (load 13)",
    "blm20_accuracy": "≈ 2.5 min (load 13)",
    "private_online": "≈ 60 s (load 14); --set grid=full: many minutes (T up to 10⁶, d = 3)",
    "agnostic_online": "≈ 70–85 s (load 14–16); --set grid=full: several minutes (T up to 10⁵, panel D to 10⁶)",
    "real_streams": "≈ 40 s (load 8); --set grid=full: several minutes (five streams, Shuttle T = 49,097)",
}


def describe(name: str) -> str:
    """The experiment's description: what it reproduces, then the first paragraph of its ``run`` docstring, whole."""
    import inspect

    doc = inspect.getdoc(REGISTRY[name]) or ""
    return f"[{_ENTRIES[name][1]}] " + " ".join(doc.split("\n\n")[0].split())


class _Registry(Mapping[str, Callable[..., ExperimentResult]]):
    """A read-only mapping from an experiment's name to its ``run`` function, importing the module on first use."""

    def __getitem__(self, name: str) -> Callable[..., ExperimentResult]:
        module = importlib.import_module(f"{__name__}.{_ENTRIES[name][0]}")
        run: Callable[..., ExperimentResult] = module.run
        return run

    def __iter__(self) -> Iterator[str]:
        return iter(_ENTRIES)

    def __len__(self) -> int:
        return len(_ENTRIES)


REGISTRY: Mapping[str, Callable[..., ExperimentResult]] = _Registry()

__all__ = ["REGISTRY", "RUN_TIMES", "ExperimentResult", "describe"]
