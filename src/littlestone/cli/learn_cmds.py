"""``littlestone learn`` (CSV in, model JSON out, privacy budget printed) and ``littlestone predict``."""

from __future__ import annotations

import csv
import io
from enum import Enum
from pathlib import Path
from typing import Any, List, Optional

import numpy as np
import typer

from ..errors import LittlestoneError
from ..io import atomic_write_json, atomic_write_text, check_output_file, is_stdout
from ._common import (
    BACKEND_OPTION,
    CLUSTER_OPTION,
    JOBS_OPTION,
    SEED_OPTION,
    BackendKind,
    console,
    console_for,
    err_console,
    load_class,
    note_seed_under_secure,
    tracking,
    with_cluster,
    working,
)
from .csvdata import read_csv, split_columns
from .ledger import LEDGER_BUDGET_OPTION, LEDGER_OPTION, claim_of, open_ledger

LEARN_EPILOG = """Examples:

  littlestone learn train.csv --class thresholds:100 --learner generic --epsilon 1 --out model.json

  littlestone learn train.csv --class thresholds:100 --learner erm --out erm.json --label y

  littlestone learn train.csv --class matrix.csv --learner blm20 --epsilon 1 --delta 1e-6 --out model.json

  littlestone learn train.csv -c thresholds:64 -l blm20 -o m.json -p n_batches=200 -p aux_size=6 -p cap=6 -p n_generic=200

  littlestone learn train.csv -c thresholds:64 -l polyprilearn -o m.json -p n=200 -p m=400 -p K=3

The CSV has a header row; the label column is 'label' (or 'y', or the last column); the other columns form the point (one column: scalar points; several: tuple points). Labels may be 0/1, -1/+1 or any two values. BLM20's and GGKM21's theorem sizes are huge: -p overrides them (privacy holds for every setting)."""

PREDICT_EPILOG = """Examples:

  littlestone predict model.json test.csv

  littlestone predict model.json test.csv --out predictions.csv"""


class LearnerKind(str, Enum):
    generic = "generic"
    blm20 = "blm20"
    blm20_agnostic = "blm20-agnostic"
    polyprilearn = "polyprilearn"
    polypriproplearn = "polypriproplearn"
    agnostic_proper = "agnostic-proper"
    soa = "soa"
    erm = "erm"


#: the (ε, δ)-DP learners (they take --delta)
APPROX_DP = {"blm20", "blm20-agnostic", "polyprilearn", "polypriproplearn", "agnostic-proper"}
#: --learner choice → estimator name in littlestone.pac, for the (ε, δ)-DP learners
_APPROX_ESTIMATORS = {
    "blm20": "BLM20Classifier",
    "blm20-agnostic": "AgnosticBLM20Classifier",
    "polyprilearn": "PolyPriLearnClassifier",
    "polypriproplearn": "PolyPriPropLearnClassifier",
    "agnostic-proper": "AgnosticPolyPriPropLearnClassifier",
}


class Mode(str, Enum):
    realizable = "realizable"
    agnostic = "agnostic"


def build_learner(
    kind: LearnerKind,
    hclass: Any,
    *,
    epsilon: float,
    delta: float,
    alpha: float,
    beta: float,
    mode: Mode,
    backend: BackendKind,
    seed: int | None,
    jobs: int,
) -> Any:
    """The estimator behind each ``--learner`` choice."""
    from .. import pac

    if kind == LearnerKind.generic:
        return pac.GenericLearnerClassifier(
            hypothesis_class=hclass,
            epsilon=epsilon,
            mode=mode.value,
            alpha=alpha,
            beta=beta,
            backend=backend.value,
            random_state=seed,
        )
    if kind.value in APPROX_DP:
        try:
            cls = getattr(pac, _APPROX_ESTIMATORS[kind.value])
        except ImportError as exc:
            raise LittlestoneError(f"the {kind.value} learner is not available in this installation ({exc})") from None
        return cls(
            hypothesis_class=hclass,
            epsilon=epsilon,
            delta=delta,
            alpha=alpha,
            beta=beta,
            backend=backend.value,
            random_state=seed,
            n_jobs=jobs,
        )
    if kind == LearnerKind.soa:
        return pac.SOAClassifier(hypothesis_class=hclass, random_state=seed)
    return pac.ERMClassifier(hypothesis_class=hclass, random_state=seed)


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the user set option ``name`` on the command line (not its default)."""
    from typer._click.core import ParameterSource

    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)


#: learner parameters that are sizes or counts (None = the theorem's value): integers ≥ 1 when given
COUNT_PARAMS = frozenset({"n_batches", "aux_size", "n_generic", "n", "m", "K", "K_req", "n_inner", "subsample_size"})


def _check_param_value(what: str, value: Any, default: Any, count: bool = False) -> Any:
    """A --param / --set value must have the type of the parameter's default: numbers where the default is a
    number or None (the "theory" setting), integers where it is an integer (≥ 1 where the default is a positive
    count, or where ``count`` says the parameter is a size), finite and non-negative numbers; lists of such numbers
    where the default is a list."""
    if count and default is None and not isinstance(value, list):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise LittlestoneError(f"{what} must be an integer ≥ 1, got {value!r}")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise LittlestoneError(f"{what} expects true or false, got {value!r}")
        return value
    if isinstance(default, str):
        return value if isinstance(value, str) else str(value)
    if isinstance(default, (list, tuple)):
        items = value if isinstance(value, list) else [value]
        inner = default[0] if len(default) else None
        return [_check_param_value(what, v, inner) for v in items]
    if isinstance(value, list) and default is None:
        return [_check_param_value(what, v, None) for v in value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        kind = "an integer" if isinstance(default, int) else "a number"
        raise LittlestoneError(f"{what} expects {kind}, got {value!r}")
    if isinstance(default, int) and not isinstance(value, int):
        raise LittlestoneError(f"{what} expects an integer, got {value!r}")
    if value != value or value in (float("inf"), float("-inf")):
        raise LittlestoneError(f"{what} expects a finite number, got {value!r}")
    if isinstance(default, int) and default > 0 and value < 1:  # a count
        raise LittlestoneError(f"{what} must be ≥ 1, got {value!r}")
    if value < 0:
        raise LittlestoneError(f"{what} must be ≥ 0, got {value!r}")
    return value


def privacy_spent(est: Any) -> tuple[float, float] | None:
    """(ε, δ) a fitted private estimator reports as spent (None for non-private baselines)."""
    res = getattr(est, "result_", None)
    for obj in (res, getattr(res, "budget", None), getattr(est, "budget_", None)):
        spent = getattr(obj, "spent", None)
        if spent is not None:
            return float(spent[0]), float(spent[1])
    return None


def parse_classes(text: str) -> tuple:
    """``NEG,POS`` → a label pair; integers and decimal numbers are read as numbers, anything else as text."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise LittlestoneError(f"--classes needs two labels NEG,POS (e.g. 0,1 or ham,spam), got {text!r}")

    def value(p: str) -> Any:
        for conv in (int, float):
            try:
                return conv(p)
            except ValueError:
                pass
        return p

    neg, pos = (value(p) for p in parts)
    if neg == pos:
        raise LittlestoneError(f"--classes needs two distinct labels, got {text!r}")
    return (neg, pos)


@with_cluster
def learn(
    ctx: typer.Context,
    data: Path = typer.Argument(..., exists=False, metavar="DATA.csv", help="Training data (CSV with a header row)."),
    hclass: str = typer.Option(..., "--class", "-c", metavar="SPEC", help="Hypothesis class spec or matrix CSV."),
    out: Path = typer.Option(
        ..., "--out", "-o", metavar="MODEL.json", help="Where to write the model (atomically; '-' = standard output)."
    ),
    learner: LearnerKind = typer.Option(
        LearnerKind.generic,
        "--learner",
        "-l",
        help="generic (ε-DP), blm20 "
        "((ε,δ)-DP, realizable), blm20-agnostic ((ε,δ)-DP), polyprilearn and polypriproplearn ((ε,δ)-DP, "
        "realizable, poly(d) examples; the second proper), agnostic-proper ((ε,δ)-DP, proper, agnostic; explicit "
        "classes), soa or erm (non-private baselines).",
    ),
    label: Optional[str] = typer.Option(None, "--label", help="Label column (default: label / y / last column)."),
    features: Optional[str] = typer.Option(
        None, "--features", help="Comma-separated point columns (default: all but the label)."
    ),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy parameter ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy parameter 0 < δ < 1 (the (ε,δ)-DP learners)."),
    alpha: float = typer.Option(0.1, "--alpha", help="Target accuracy α (theory sizes)."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β (theory sizes)."),
    mode: Mode = typer.Option(Mode.agnostic, "--mode", help="generic learner's guarantee: realizable or agnostic."),
    classes: str = typer.Option(
        "0,1",
        "--classes",
        metavar="NEG,POS",
        help="The label pair of the private "
        "learners (declared, never read from the private labels), e.g. -1,1 or ham,spam.",
    ),
    params: Optional[List[str]] = typer.Option(
        None,
        "--param",
        "-p",
        metavar="KEY=VALUE",
        help="Extra estimator parameter, e.g. n_batches=200 for blm20 (repeatable).",
    ),
    backend: BackendKind = BACKEND_OPTION,
    seed: Optional[int] = SEED_OPTION,
    jobs: int = JOBS_OPTION,
    cluster: Optional[str] = CLUSTER_OPTION,
    checkpoint: Optional[str] = typer.Option(
        None,
        "--checkpoint",
        metavar="DIR",
        help="blm20: save G's batches to DIR in chunks and resume from them when rerun (needs --seed; bound to the "
        "data and parameters; DIR holds non-private intermediate outputs: keep it with the data, delete it after).",
    ),
    checkpoint_every: Optional[int] = typer.Option(
        None, "--checkpoint-every", metavar="K", help="G batches per saved chunk (default 2000)."
    ),
    checkpoint_cleanup: bool = typer.Option(
        False, "--checkpoint-cleanup", help="Delete the --checkpoint directory after a successful run."
    ),
    ledger: Optional[Path] = LEDGER_OPTION,
    ledger_budget: Optional[str] = LEDGER_BUDGET_OPTION,
) -> None:
    """Learn a hypothesis from a CSV file and save it as model JSON; prints the privacy budget spent."""
    check_output_file(out)  # fail before reading or fitting anything
    if checkpoint is not None or checkpoint_every is not None or checkpoint_cleanup:
        if learner != LearnerKind.blm20:
            raise LittlestoneError(f"--checkpoint applies to --learner blm20 only, not {learner.value}")
        if checkpoint is None:
            what = "--checkpoint-every" if checkpoint_every is not None else "--checkpoint-cleanup"
            raise LittlestoneError(f"{what} needs --checkpoint DIR")
        if seed is None:
            raise LittlestoneError("--checkpoint needs a fixed --seed (a resumed run must draw the same G coins)")
        from ..pac.checkpoint import check_checkpoint_dir

        check_checkpoint_dir(checkpoint)  # '' / missing parent / a file, FIFO, device or /proc: one line, exit 2
        if checkpoint_every is not None and checkpoint_every < 1:
            raise LittlestoneError(f"--checkpoint-every must be ≥ 1, got {checkpoint_every}")
    given = {name for name in ("delta", "mode") if _given(ctx, name)}
    if "delta" in given and learner.value not in APPROX_DP:
        raise LittlestoneError(
            f"--delta does not apply to --learner {learner.value}: "
            + (
                "the generic learner is pure ε-DP (δ = 0)"
                if learner == LearnerKind.generic
                else "it is a non-private baseline"
            )
        )
    if "mode" in given and learner != LearnerKind.generic:
        raise LittlestoneError(f"--mode applies to --learner generic only, not {learner.value}")
    book = open_ledger(ledger, ledger_budget, data)  # hashes the data file: nothing parsed yet
    spec_path = Path(hclass)
    H: Any = load_class(hclass) if spec_path.suffix.lower() == ".csv" and spec_path.exists() else hclass
    if isinstance(H, str):
        load_class(H)  # fail early with the parser's message
    est = build_learner(
        learner,
        H,
        epsilon=epsilon,
        delta=delta,
        alpha=alpha,
        beta=beta,
        mode=mode,
        backend=backend,
        seed=seed,
        jobs=jobs,
    )
    if "classes" in est.get_params(deep=False):
        est.set_params(classes=parse_classes(classes))
    if checkpoint is not None:
        est.set_params(checkpoint=checkpoint, checkpoint_every=checkpoint_every, checkpoint_cleanup=checkpoint_cleanup)
    if params:
        from .experiment_cmds import _parse_value

        valid = est.get_params(deep=False)
        extra = {}
        for item in params:
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or not key:
                raise LittlestoneError(f"--param needs KEY=VALUE, got {item!r}")
            if key not in valid:
                raise LittlestoneError(
                    f"{type(est).__name__} has no parameter {key!r} (parameters: {', '.join(sorted(valid))})"
                )
            extra[key] = _check_param_value(
                f"--param {key}", _parse_value(value.strip()), valid[key], count=key in COUNT_PARAMS
            )
        est.set_params(**extra)
    _ledger_claim(book, est, learner.value)  # refused here, before the data is parsed (checked again when charged)
    with working(f"reading {data}"):
        table = read_csv(data)
    names, label_col = split_columns(table, label, features)
    table.check_no_nan(label_col, "label")
    X = table.columns(names)
    y = table.column(label_col)
    if book is not None:  # the fit charges the ledger (file lock, re-read, check, write) after its public checks
        est.set_params(accountant=book.accountant_for("learn", f"learn --learner {learner.value} (ε = {epsilon:g})"))
    if learner not in (LearnerKind.soa, LearnerKind.erm):
        note_seed_under_secure(seed, backend)
    from .. import _progress

    notes = console_for(out)  # "resumed: k of N chunks read from DIR", the checkpoint's reminder or cleanup
    with (
        tracking(f"fitting {learner.value} on {len(y)} examples"),
        _progress.noting(lambda m: notes.print(m, markup=False)),
    ):
        est.fit(X, y)
    model = est.to_dict()
    model["cli"] = {"features": names, "label": label_col, "learner": learner.value, "trained_on": str(data)}
    atomic_write_json(out, model)
    say = console_for(out)  # with -o - the model is the standard output; messages go to stderr
    say.print(f"learned {est.hypothesis_!r} with {learner.value} from {len(y)} examples → {out}", markup=False)
    spent = privacy_spent(est)
    if spent is None:
        acc = float(np.mean(est.predict(X) == y))
        say.print(f"no privacy: {learner.value} is a non-private baseline (training accuracy {acc:.3f})")
    else:
        note = getattr(est.result_, "privacy_note", "")
        say.print(
            f"privacy budget spent: ε = {spent[0]:g}, δ = {spent[1]:g}" + (f" ({note})" if note else ""), markup=False
        )
        summary = getattr(est.result_, "summary", None)
        if callable(summary):
            say.print(summary(), markup=False)
        theory = getattr(est.result_, "theory_n", None)
        if theory is not None:
            say.print(
                f"theorem sample size for α = {alpha:g}, β = {beta:g} ({mode.value}): n ≥ {theory:,} "
                f"({'met' if len(y) >= theory else 'not met'}: n = {len(y):,}); stage by stage: "
                f"littlestone bounds generic --hypotheses {est.result_.candidates} --mode {mode.value} "
                f"--alpha {alpha:g} --epsilon {epsilon:g} --beta {beta:g}",
                markup=False,
            )

    if book is not None:
        say.print(book.summary(), markup=False)


def _ledger_claim(book: Any, est: Any, learner: str) -> tuple[float, float] | None:
    """The claim a ledgered call is charged (None: it depends on n, charged once the rows are counted); a
    non-private baseline has no finite claim and a ledger refuses it. Charged here when it is known already."""
    if book is None:
        return None
    if not getattr(est, "_private", False):
        raise LittlestoneError(f"--ledger refuses {learner}: a non-private baseline has no finite privacy claim")
    try:
        e, d = claim_of(est._fit_claim(None))
    except LittlestoneError:
        return None
    book.accountant.check(e, d, f"--ledger {book.path}: learn --learner {learner}")
    return e, d


def predict(
    model: Path = typer.Argument(..., metavar="MODEL.json", help="A model written by 'littlestone learn'."),
    data: Path = typer.Argument(..., metavar="DATA.csv", help="Points to label (CSV with the training columns)."),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        "-o",
        help="Write predictions here (CSV, atomically) instead of printing them ('-' = standard output).",
    ),
) -> None:
    """Label the points of a CSV file with a saved model (prints accuracy if the label column is present)."""
    import json

    for path in (model, data):  # fail fast, before importing scikit-learn
        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", str(path))
    if out is not None and is_stdout(out):
        out = None
    if out is not None:
        check_output_file(out)
    from ..pac import LittlestoneClassifier

    est = LittlestoneClassifier.from_json(model)
    meta = json.loads(Path(model).read_text(encoding="utf-8")).get("cli", {})
    with working(f"reading {data}"):
        table = read_csv(data)
    names = meta.get("features") or [h for h in table.header if h != meta.get("label")][: est.n_features_in_]
    _check_known_labels(table, meta.get("label"), est.classes_, data)  # before printing anything
    X = table.columns(names)
    with working(f"predicting {len(X)} points"):
        pred = est.predict(X)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*names, "prediction"])
    for row, p in zip(X.tolist(), pred.tolist()):
        writer.writerow([*row, p])
    if out is None:
        console.print(buf.getvalue(), end="", markup=False)
    else:
        atomic_write_text(out, buf.getvalue())
        console.print(f"{len(pred)} predictions → {out}", markup=False)
    label_col = meta.get("label")
    if label_col and label_col in table.header:
        y = table.column(label_col)
        acc = float(np.mean(pred.astype(object) == y.astype(object)))
        (console if out is not None else err_console).print(f"accuracy on {data}: {acc:.3f}", markup=False)


def _label_text(v: Any) -> str:
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def _check_known_labels(table: Any, label_col: str | None, classes: Any, data: Path) -> None:
    """Labels in the data must be the model's (an accuracy against other labels would be a meaningless 0)."""
    if not label_col or label_col not in table.header:
        return
    known = {_label_text(c) for c in np.asarray(classes).tolist()}
    foreign = sorted({_label_text(v) for v in table.column(label_col).tolist()} - known)
    if foreign:
        raise LittlestoneError(
            f"{data}: column {label_col!r} holds labels the model does not know "
            f"({', '.join(foreign[:5])}{', …' if len(foreign) > 5 else ''}; the model's labels "
            f"are {', '.join(sorted(known))}): no accuracy can be computed"
        )


def register(app: typer.Typer) -> None:
    app.command(epilog=LEARN_EPILOG)(learn)
    app.command(epilog=PREDICT_EPILOG)(predict)
