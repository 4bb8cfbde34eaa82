"""Reproducible experiments (each writes a CSV table and a PNG plot): ``REGISTRY`` maps a name to ``run(..., seed,
jobs, out_dir) -> ExperimentResult``; ``littlestone experiment --list`` shows them."""

from __future__ import annotations

from typing import Callable

from . import agnostic_online, blm20_accuracy, blm20_generalization, blm20_sample_cost, blm20_stability, sanitizer_error
from . import ggkm21_accuracy, ggkm21_list_size, ggkm21_stability
from ._blm20_common import ExperimentResult

REGISTRY: dict[str, Callable[..., ExperimentResult]] = {
    "blm20_stability": blm20_stability.run,            # Lemma 12 / Theorem 10
    "blm20_generalization": blm20_generalization.run,  # Lemma 13
    "blm20_sample_cost": blm20_sample_cost.run,        # Lemma 14
    "blm20_accuracy": blm20_accuracy.run,              # Theorem 1: M's accuracy vs n and ε
    "agnostic_online": agnostic_online.run,            # LWY25 §4 / App. E: regret vs T, slopes vs ¾ and ½
    "sanitizer_error": sanitizer_error.run,            # LWY25 Def 2.7 / E.1: sanitizers' error vs n and ε
    "ggkm21_stability": ggkm21_stability.run,          # GGKM21 Lemma 5.4 + pigeonhole, Claim 5.9
    "ggkm21_list_size": ggkm21_list_size.run,          # GGKM21 Lemma 5.5
    "ggkm21_accuracy": ggkm21_accuracy.run,            # GGKM21 Thms 5.7 / 6.4 vs BLM20, against n and ε
}

__all__ = ["REGISTRY", "ExperimentResult"]
