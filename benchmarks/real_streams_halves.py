"""Issue 33's real-stream target in its two halves, per learner, from the comparison's CSV (no rerun): on how many
cells the worst seed is within 2 points of the best hypothesis of the class in hindsight, and — on the cells whose
best hypothesis is the majority constant, where "never below the majority class" asks for zero regret — on how many
it is not below the majority. The non-private baselines (Hedge, follow-the-leader) stand in the same table.

    PYTHONPATH=$PWD/src python benchmarks/real_streams_halves.py [benchmarks/results/real_streams.csv]
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from littlestone.experiments.real_streams import target_halves

DEFAULT = Path(__file__).resolve().parent / "results" / "real_streams.csv"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    print(f"from {path.name}: worst seed per cell\n")
    print("| learner | within 2 points of the best | where the best is the majority: not below it | whole target |")
    print("|---|---:|---:|---:|")
    for k in target_halves(rows):
        print(
            f"| {k['learner']} | {k['within']} / {k['cells']} | {k['at_majority']} / {k['majority_cells']} | {k['target']} / {k['cells']} |"
        )


if __name__ == "__main__":
    main()
