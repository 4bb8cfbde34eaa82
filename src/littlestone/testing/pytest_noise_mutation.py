"""A pytest plugin running a whole test session under :func:`~littlestone.testing.noise_mutation.noise_under`: does a
learner's test suite notice when the noise its learner draws is halved? (issue 34 item 4)::

    pytest -p littlestone.testing.pytest_noise_mutation --halve-noise-under littlestone.private_online.bisect_at \\
        tests/private_online

Every SeededBackend noise call made with that module on the stack draws at half its scale for the whole session;
the summary line says how many calls were halved. A suite that stays green under it does not guard the noise.
"""

from __future__ import annotations

from typing import Any

from .noise_mutation import noise_under

_KEY = "_littlestone_noise_mutation"


def pytest_addoption(parser: Any) -> None:
    parser.addoption(
        "--halve-noise-under",
        action="append",
        default=[],
        metavar="MODULE",
        help="halve every seeded noise draw made while MODULE's code is on the stack (repeatable)",
    )


def pytest_configure(config: Any) -> None:
    modules = config.getoption("--halve-noise-under")
    if modules:
        ctx = noise_under(modules, 0.5)
        setattr(config, _KEY, (ctx, ctx.__enter__()))


def pytest_unconfigure(config: Any) -> None:
    state = getattr(config, _KEY, None)
    if state is not None:
        state[0].__exit__(None, None, None)


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    state = getattr(config, _KEY, None)
    if state is not None:
        log = state[1]
        terminalreporter.write_line(
            f"noise mutation: {log.hits} noise call(s) halved under {', '.join(log.modules)} "
            f"({log.outside} call(s) elsewhere untouched)"
        )
