"""Ahead-of-time build of the BLM20 tournament kernels (:mod:`littlestone.pac._kernels`): which functions, with which
signatures (``KERNELS``, data — add an :class:`~littlestone._aot.Export` to export another kernel), and the command
that builds them. ``make venv`` runs it; run it again after editing the kernels (until then the JIT is used):

    python -m littlestone.pac._kernels_build           # build; one line on stderr and exit 1 if it cannot
    python -m littlestone.pac._kernels_build --check   # say which kernels a run would use

Importing this module does not import Numba (the loader in :mod:`littlestone.pac.tournament` reads ``KERNELS``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .._aot import ENV, AotModule, Export, load

KERNELS = AotModule(
    source="littlestone.pac._kernels",
    exports=(
        Export("level1_first_round", "i8(i8[::1], i1[::1], i8, i8, i8, i8, i8, i8, i8[::1])", writes=(8,)),
        Export("restrict_thresholds", "i8(i8[::1], i1[::1], i8, i8, i8[::1])", writes=(4,)),
        Export("soa_threshold", "i8(i8, i8, i8)"),
        Export("level2_draw", "i8(i8[::1], i1[::1], i8, i8, i8, i8, i8, i8[::1], i8[::1])", writes=(8,)),
        Export(
            "same_extended_soa",
            "i8(i8, i8, i8, i8[::1], i1[::1], i8[::1], i1[::1], i8, i8, i8, i8[::1], i1[::1], i8[::1], i1[::1], i8)",
        ),
    ),
    builder=__name__,
)


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(prog=f"python -m {__name__}", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report whether a build for the current source exists")
    args = parser.parse_args(argv)
    if args.check:
        aot = load(KERNELS)
        if aot is None:
            print(f"no ahead-of-time build of {KERNELS.source} for its current source: the Numba JIT is used")
            return 1
        mode = os.environ.get(ENV, "auto")
        print(f"ahead-of-time kernels: {aot.__file__}" + (f" (but {ENV}={mode})" if mode.strip() == "jit" else ""))
        return 0
    fd, name = tempfile.mkstemp(prefix="littlestone-kernels-", suffix=".log")
    os.close(fd)
    log = Path(name)
    try:
        path = KERNELS.build(log)
    except Exception as exc:  # any failure (no C compiler, numba.pycc gone, ...) leaves the JIT in place
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0].split(". ")[0][:200]
        fallback = "the Numba JIT is used" if load(KERNELS) is None else "the existing build for this source is used"
        print(f"littlestone: compiled kernels not built ({reason}; log {log}); {fallback}", file=sys.stderr)
        return 1
    log.unlink(missing_ok=True)
    print(f"littlestone: built the ahead-of-time kernels {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
