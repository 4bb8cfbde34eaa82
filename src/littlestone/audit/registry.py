"""The one audit registry: every built-in audit and every broken twin, by name (issue 10 item 1).

An entry is a :class:`~littlestone.audit.builtin.BuiltinAudit`: a mechanism, an adversarial neighbouring pair and
the claim it is audited against; ``broken=True`` marks a deliberately broken twin (one classic bug, the real claim),
which the audit must catch. ``builtin_audits()`` and ``broken_audits()`` are views of this registry.
"""

from __future__ import annotations

import dataclasses

from ..errors import LittlestoneError

_REGISTRY: dict = {}


def all_audits() -> dict:
    """Name -> audit for every built-in audit and broken twin (built once)."""
    if not _REGISTRY:
        from .broken import _broken_audits
        from .builtin import _builtin_audits

        entries = list(_builtin_audits().values()) + [dataclasses.replace(a, broken=True)
                                                     for a in _broken_audits().values()]
        from .threshold_label import _threshold_label_audits

        entries += list(_threshold_label_audits().values())
        names = [a.name for a in entries]
        clash = {n for n in names if names.count(n) > 1}
        if clash:
            raise LittlestoneError(f"audit names must be unique; repeated: {sorted(clash)}")
        _REGISTRY.update((a.name, a) for a in entries)
    return dict(_REGISTRY)


def select(*, broken: bool) -> dict:
    """The real audits (``broken=False``) or the broken twins (``broken=True``), in registration order."""
    return {n: a for n, a in all_audits().items() if a.broken == broken}
