"""What to say when a setting of LWY25 / GL21 cannot be allocated: the size it needs, the limit, and the smallest
setting the learner accepts — one text for Python (``setting=LWY25Setting(...)``) and the CLI (``--setting ...``)."""

from __future__ import annotations


def too_large_message(learner: str, d: int, setting: object, *, cli: bool = False) -> str:
    """``learner`` "lwy25…" or "gl21…"; ``setting`` the LWY25Setting / GL21Setting that failed; ``cli`` chooses how
    the way out is spelled (``--setting …`` or ``setting=…Setting(…)``)."""
    from .gl21 import MAX_FOREST, GL21Setting
    from .lwy25 import MAX_N0, LWY25Setting

    name = getattr(setting, "name", "custom")
    if learner.startswith("lwy25"):
        n0 = int(getattr(setting, "N0"))
        why = (
            "2^(11+6(d-1)) = " if name == "practical" else ""
        )  # the practical rule; the theory's N0 comes from Thm 3.1 ('littlestone bounds lwy25')
        small = 2 ** (d + 1)
        way = f"--setting N0={small},m_exp=…" if cli else f"setting=LWY25Setting(N0={small}, m_exp=…)"
        practical = LWY25Setting.practical(d).N0
        if name != "practical" and practical <= MAX_N0:
            way = (
                "no --setting" if cli else "setting='practical' (the default)"
            ) + f" for N0 = {practical:,}, or {way}"
        return (
            f"Ldim {d}: the {name} setting needs N0 = {why}{n0:,} sequences, which cannot be allocated (limit "
            f"{MAX_N0:,}; 'littlestone bounds lwy25' prints the theorem's N0); the smallest N0 the learner accepts at "
            f"all is 2^(d+1) = {small} (each layer pairs its sequences): pass {way} to run one (privacy holds for "
            "every setting)"
        )
    k1, k2 = int(getattr(setting, "k1")), int(getattr(setting, "k2"))
    way = "--setting k2=…,c=…" if cli else f"setting=GL21Setting(k1={k1}, k2=…, eta=1.0, c=…)"
    p = GL21Setting.practical(d)
    if name != "practical" and p.k1 * p.k2 <= MAX_FOREST:
        way = ("no --setting" if cli else "setting='practical' (the default)") + f" for k2 = {p.k2:,}, or {way}"
    return (
        f"Ldim {d}: the {name} setting needs a forest of k1·k2 = {k1}·{k2:,} leaves, which cannot be allocated (limit "
        f"{MAX_FOREST:,}; 'littlestone bounds gl21' prints the theorem's sizes); the smallest forest is one tree of "
        f"k1 = 2^(d+1) = {k1} leaves: pass {way} to run one (privacy holds for every setting)"
    )
