"""AboveThreshold's integer-grid path (the secure backend) adds its query noise: a mutation run found that dropping
ν from ``v̄ + ν ≥ T̄ + ρ`` left the suite green. Far below the threshold (v = T − 10 at Δ = 1, ε = 1) a ⊤ needs the
query noise Lap(4Δ/ε): P[⊤] = P[ν − ρ ≥ 10] ≈ 0.06 with it, P[ρ ≤ −10] = e^{−5}/2 ≈ 0.003 without it."""

from __future__ import annotations

from littlestone.privacy import SecureBackend
from littlestone.privacy.above_threshold import AboveThreshold


def test_grid_path_adds_the_query_noise():
    backend = SecureBackend()
    runs = 2000
    hits = sum(AboveThreshold(0.0, 1.0, backend=backend).test(-10.0) for _ in range(runs))
    # with ν: Binomial(2000, ≈0.06), mean ≈ 120; without: mean ≈ 7 (each side's tail past 40 is < 1e-9)
    assert hits > 40, hits
