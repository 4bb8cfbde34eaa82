"""Sample-size calculators: every stage's size with its constants written out (BLM20 in :mod:`.blm20`)."""

from .blm20 import BoundReport, corollary2, theorem1, theorem10, theorem17

__all__ = ["BoundReport", "corollary2", "theorem1", "theorem10", "theorem17"]
