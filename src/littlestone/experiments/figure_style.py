"""How the report's figures are drawn so that they read on a phone as on a desktop.

One panel per figure, FIG_WIDTH_IN wide at DPI, every text at ≥ MIN_FONT_PT: shown at its natural width on a desktop
(≈ 15 px text) and scaled to a 390 px phone's 356 px column, the smallest text stays ≥ 10 px
(10 pt · 110/72 px · 356/506 ≈ 10.7 px). The report marks each image with that smallest size in PNG pixels
(``data-min-text-px``), which ``report_check`` scales by the displayed width. Coinciding curves are named as such in
the legend and drawn with markers over dashes so both stay visible; ε axes are ticked at the tested values only.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

FIG_WIDTH_IN = 4.6
DPI = 110
MIN_FONT_PT = 10.0
#: the smallest text of a figure drawn here, in PNG pixels
MIN_TEXT_PX = MIN_FONT_PT * DPI / 72.0


def legible() -> Any:
    """A matplotlib rc context: every text at MIN_FONT_PT or more (titles a little larger)."""
    import matplotlib

    size = MIN_FONT_PT
    return matplotlib.rc_context(
        {
            "font.size": size,
            "axes.titlesize": size + 1,
            "axes.labelsize": size,
            "xtick.labelsize": size,
            "ytick.labelsize": size,
            "legend.fontsize": size,
            "legend.title_fontsize": size,
            "figure.titlesize": size + 1,
        }
    )


def epsilon_ticks(ax: Any, epsilons: Sequence[float]) -> None:
    """Ticks of a log ε axis at exactly the tested values (no minor ticks, plain numbers; slanted when many)."""
    from matplotlib.ticker import NullFormatter, NullLocator

    eps = sorted(set(float(e) for e in epsilons))
    ax.set_xticks(eps, [f"{e:g}" for e in eps], rotation=45 if len(eps) > 5 else 0)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())


def coinciding(series: Mapping[str, Any], atol: float = 5e-4) -> dict[str, str]:
    """name → the earlier series it coincides with (same length, every value within ``atol``)."""
    out: dict[str, str] = {}
    names = list(series)
    for i, b in enumerate(names):
        vb = np.asarray(series[b], dtype=float)
        for a in names[:i]:
            va = np.asarray(series[a], dtype=float)
            if a not in out and va.shape == vb.shape and np.allclose(va, vb, rtol=0, atol=atol):
                out[b] = a
                break
    return out
