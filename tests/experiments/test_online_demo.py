"""The demo's online section: private online learners on a stream of the breast-cancer data."""

from __future__ import annotations

import numpy as np
from typer.testing import CliRunner

from littlestone.classes.thresholds import Thresholds
from littlestone.cli.main import app
from littlestone.experiments.demo import load_data
from littlestone.experiments.online_demo import LEARNER_NAMES, run_online, soa_restarted
from littlestone.online import SOA


def test_soa_restarted_restarts_only_on_a_contradiction():
    H = Thresholds(4)
    X = np.array([3, 0, 1, 1, 2, 2, 2])
    y = np.array([1, 0, 1, 0, 1, 1, 1], dtype=np.int8)  # (1, 0) then (1, 1) contradicts every threshold left
    p = soa_restarted(H, X, y)
    realizable = soa_restarted(H, X[:3], y[:3])
    assert p[:3].tolist() == realizable.tolist() == [SOA(H).predict_one(3), *p[1:3].tolist()]
    assert len(p) == 7 and set(p.tolist()) <= {0, 1}
    # after the restart at round 4 the SOA knows only (1, 0): it predicts like a fresh SOA that learned it
    fresh = SOA(H)
    fresh.learn_one(1, 0)
    assert p[4] == fresh.predict_one(2)


def test_online_section_rows(tmp_path):
    data = load_data(4, (27,))
    res = run_online(data, tmp_path, T=600, backend="seeded", seed=0)
    assert [r["learner"] for r in res.rows] == list(LEARNER_NAMES)
    assert res.figure.read_bytes()[:4] == res.regret_figure.read_bytes()[:4] == b"\x89PNG"  # two stacked panels
    for r in res.rows:
        assert r["regret"] == r["mistakes"] - res.best_mistakes
        private = r["privacy (ε, δ)"] != "not private"
        assert private == (r["learner"] not in LEARNER_NAMES[:2])
        if private:  # the claim each learner reports is within the budget given
            eps, dlt = (float(v) for v in r["privacy (ε, δ)"].strip("()").split(","))
            assert eps <= 1.0 + 1e-9 and dlt <= 1e-6
    assert res.best_mistakes <= min(r["mistakes"] for r in res.rows) + 600  # sanity: a count of the stream


def test_online_section_leads_with_the_practical_learners():
    """The practical pure ε-DP learners come first among the private ones (BisectAT, the one `play -l private` picks
    for thresholds, then ListAT); the papers' LWY25 and GL21 stay, under their names, after them."""
    private = [n for n in LEARNER_NAMES if "non-private" not in n]
    assert private[:2] == ["BisectAT (practical, pure ε-DP)", "ListAT (practical, pure ε-DP)"]
    assert private[-2:] == ["LWY25 (practical)", "GL21 (practical)"]


def test_demo_online_cli(tmp_path):
    r = CliRunner().invoke(
        app, ["demo", "--fast", "--online", "--out", str(tmp_path / "r"), "--backend", "seeded", "--jobs", "1"]
    )
    assert r.exit_code == 0, r.output
    html = (tmp_path / "r" / "index.html").read_text()
    assert "Online: private learning on a stream" in html and "2,000 rounds" in html
    assert html.index("BisectAT (practical, pure ε-DP)") < html.index("LWY25 (practical)")
    assert "<code>littlestone play -l private</code>" in html
    # the real-stream panel: river's Phishing, the noisy-stream learner beside the best in hindsight and the majority
    assert "A real stream: river's Phishing" in html and "SegmentedEM" in html and "majority class" in html
    assert html.count("data:image/png;base64,") == 5
