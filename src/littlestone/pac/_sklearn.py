"""scikit-learn base for littlestone's offline learners: validation through the hypothesis class, labels kept as given,
JSON save/load of the learned hypothesis."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from typing import Any, Callable, TypeVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from .._labels import LabelCoding, encode_declared, encode_labels
from .._random import as_generator
from ..classes.base import Hypothesis, HypothesisClass, PatchedHypothesis, as_python_point
from ..classes.finite import FiniteClass, FiniteDomain, VectorHypothesis
from ..classes.resolve import resolve_class as _resolve
from ..classes.thresholds import Threshold
from ..errors import BudgetExceededError, ClassSpecError, DomainError, LabelError, LittlestoneError

JSON_FORMAT = "littlestone-model/1"


# --------------------------------------------------------------------------------------------------------------------
# Class specs
# --------------------------------------------------------------------------------------------------------------------


def resolve_class(spec: HypothesisClass | str | Path) -> HypothesisClass:
    """A HypothesisClass from an object, a spec string (``thresholds:1000``) or a CSV path
    (:func:`littlestone.classes.resolve_class`, the one resolver)."""
    return _resolve(spec)


def class_to_json(hclass: HypothesisClass | str | None) -> Any:
    """A JSON form of a class: its spec string, or an inline matrix for explicit finite classes."""
    if hclass is None or isinstance(hclass, str):
        return hclass
    if isinstance(hclass.spec, str):  # HypothesisClass.spec: the spec string that rebuilds the class
        return hclass.spec
    if isinstance(hclass, FiniteClass):
        labels = None if hclass.domain._index is None else [point_to_json(p) for p in hclass.domain.points]
        return {
            "kind": "finite",
            "name": hclass.name,
            "points": labels,
            "matrix": ["".join(map(str, row)) for row in hclass.matrix.tolist()],
        }
    if math.isfinite(hclass.domain_size):
        try:  # a small structured class is saved as its explicit twin (same functions, same domain order)
            twin = importlib.import_module("littlestone.classes.ops").to_finite(hclass, name=hclass.name)
        except (ImportError, AttributeError, LittlestoneError, TypeError):
            twin = None
        if isinstance(twin, FiniteClass):
            return class_to_json(twin)
    raise LittlestoneError(
        f"cannot save a model over {hclass.name}: give the class as a spec string (e.g. 'thresholds:1000') to save it"
    )


def class_from_json(obj: Any) -> HypothesisClass | str | None:
    if obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, dict) and obj.get("kind") == "finite":
        M = np.array([[int(c) for c in row] for row in obj["matrix"]], dtype=np.uint8)
        pts = None if obj["points"] is None else [point_from_json(p) for p in obj["points"]]
        return FiniteClass(M, points=pts, name=obj.get("name"))
    raise LittlestoneError(f"unrecognised class description in model file: {obj!r}")


# --------------------------------------------------------------------------------------------------------------------
# Hypothesis codecs
# --------------------------------------------------------------------------------------------------------------------


def point_to_json(x: Any) -> Any:
    """Points are Python scalars, strings or tuples; tuples become lists (and come back as tuples)."""
    x = as_python_point(x)
    if isinstance(x, tuple):
        return [point_to_json(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return {"float": repr(x)}
    return x


def point_from_json(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(point_from_json(v) for v in x)
    if isinstance(x, dict) and "float" in x:
        return float(x["float"])
    return x


H = TypeVar("H", bound=Hypothesis)
Encoder = Callable[[H], dict]
Decoder = Callable[[dict, "HypothesisClass | None"], Hypothesis]
_CODECS: dict[str, tuple[type, Callable[[Any, "HypothesisClass | None"], dict], Decoder]] = {}


def register_hypothesis_codec(kind: str, cls: type[H], encode: Encoder[H], decode: Decoder) -> None:
    """Teach model JSON a hypothesis type: ``encode(h) -> dict`` and ``decode(dict, hclass) -> h``."""
    _CODECS[kind] = (cls, lambda h, hclass: encode(h), decode)


def _register_with_class(
    kind: str, cls: type[H], encode: Callable[[H, "HypothesisClass | None"], dict], decode: Decoder
) -> None:
    """Like :func:`register_hypothesis_codec`, for wrappers whose parts need the class (patched hypotheses)."""
    _CODECS[kind] = (cls, encode, decode)


def hypothesis_to_json(h: Hypothesis, hclass: HypothesisClass | None = None) -> dict:
    """A JSON form of h: a registered codec, else its value table on the class's finite domain."""
    for kind, (cls, enc, _) in _CODECS.items():
        if type(h) is cls:
            return {"kind": kind, **enc(h, hclass)}
    if hclass is not None and math.isfinite(hclass.domain_size) and hclass.domain_size <= 1 << 22:
        pts = hclass.domain_points()
        return {"kind": "table", "values": "".join(map(str, h.predict(hclass.validate_points(pts)).tolist()))}
    raise LittlestoneError(
        f"cannot save hypothesis of type {type(h).__name__}: no JSON codec registered and the domain is not finite"
    )


def hypothesis_from_json(obj: dict, hclass: HypothesisClass | None = None) -> Hypothesis:
    kind = obj.get("kind")
    if kind == "table":
        if hclass is None:
            raise LittlestoneError("a value-table hypothesis needs its class to be loaded")
        pts = hclass.domain_points()
        dom = hclass.domain if isinstance(hclass, FiniteClass) else FiniteDomain(len(pts), pts)
        return VectorHypothesis(np.array([int(c) for c in obj["values"]], dtype=np.uint8), dom)
    if kind not in _CODECS:
        raise LittlestoneError(f"unknown hypothesis kind {kind!r} in model file")
    return _CODECS[kind][2](obj, hclass)


def _vector_decode(obj: dict, hclass: HypothesisClass | None) -> Hypothesis:
    vals = np.array([int(c) for c in obj["values"]], dtype=np.uint8)
    if isinstance(hclass, FiniteClass):
        dom = hclass.domain
    elif hclass is not None and math.isfinite(hclass.domain_size):
        pts = hclass.domain_points()
        dom = FiniteDomain(len(pts), pts)
    else:
        dom = FiniteDomain(len(vals))
    return VectorHypothesis(vals, dom)


register_hypothesis_codec(
    "vector", VectorHypothesis, lambda h: {"values": "".join(str(b) for b in h.values)}, _vector_decode
)
register_hypothesis_codec("threshold", Threshold, lambda h: {"t": h.t}, lambda o, c: Threshold(int(o["t"])))
_register_with_class(
    "patched",
    PatchedHypothesis,
    lambda h, c: {"base": hypothesis_to_json(h.base, c), "patches": [[point_to_json(x), int(y)] for x, y in h.patches]},
    lambda o, c: PatchedHypothesis(
        hypothesis_from_json(o["base"], c), tuple((point_from_json(x), int(y)) for x, y in o["patches"])
    ),
)


# --------------------------------------------------------------------------------------------------------------------
# The estimator base
# --------------------------------------------------------------------------------------------------------------------


def _to_generator(random_state: Any) -> np.random.Generator:
    if isinstance(random_state, np.random.RandomState):  # sklearn-style RandomState → a derived Generator
        return np.random.default_rng(int(random_state.randint(0, 2**31 - 1)))
    return as_generator(random_state)


def _refuse_non_numeric(X: np.ndarray, names: Any, estimator: str) -> None:
    """One line naming the first feature that is not a number (the default classes cut features on a numeric grid)."""
    for j in range(X.shape[1]):
        for v in X[:, j]:
            try:
                float(v)
            except (TypeError, ValueError):
                name = f"feature {j}" if names is None else f"feature {j} ({names[j]!r})"
                raise DomainError(
                    f"{name} holds a non-numeric value (a {type(v).__name__}): {estimator}'s default class "
                    "(decision stumps on a numeric grid) needs numbers — encode it with public categories (e.g. "
                    "OrdinalEncoder with categories= given) or pass hypothesis_class for a domain of such points"
                ) from None


def _refuse_missing_labels(y: np.ndarray) -> None:
    """NaN / None / infinite labels: one LabelError (before scikit-learn's checks, which add a RuntimeWarning)."""
    if y.dtype.kind == "f":
        missing = ~np.isfinite(y)
    elif y.dtype == object:
        missing = np.array([v is None or (isinstance(v, float) and not math.isfinite(v)) for v in y], dtype=bool)
    else:
        return
    if missing.any():
        raise LabelError(
            f"y has {int(missing.sum())} missing or infinite label(s) (NaN, None or inf), first at row "
            f"{int(np.argmax(missing))}: drop those rows or fill them with one of the two labels before fitting"
        )


class LittlestoneClassifier(ClassifierMixin, BaseEstimator):
    """Base of littlestone's offline learners (sklearn estimator; labels as given: {0,1}, {−1,+1} or two strings).

    Subclasses define ``__init__`` (parameters only, sklearn rules) and ``_fit01(points, y01, rng) -> (hypothesis,
    result)``. X is a 2-D array: one column gives scalar points, several columns give tuple points (override
    :meth:`_points_from_X` to featurize differently). Fitted attributes: ``classes_``, ``hypothesis_``, ``result_``,
    ``hclass_``, ``n_features_in_``, ``row_points_`` (hypotheses take whole rows).
    """

    #: whether fitting without a hypothesis_class is an error (subclasses with a default set False)
    _requires_class: bool = True
    #: whether the default (no hypothesis_class) is decision stumps on a fixed public grid of cells
    #: (:mod:`littlestone.pac.default_class`): rows are mapped to cells before fitting and at predict
    _default_grid: bool = False
    #: private estimators take their label set from the ``classes`` parameter, never from the data (issue 9 item 2)
    _private: bool = False
    #: parameters that never change the fitted model, only what it reports (a grid varying only these trains
    #: identical candidates: PrivateGridSearchCV warns)
    _report_only_params: tuple[str, ...] = ()

    def __init__(self, hypothesis_class: HypothesisClass | str | None = None, random_state: Any = None):
        self.hypothesis_class = hypothesis_class
        self.random_state = random_state

    # ---------------------------------------------------------------- hooks
    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, Any]:
        raise TypeError(f"{type(self).__name__} must define _fit01(points, y01, rng)")

    def _resolve_class(self) -> HypothesisClass | None:
        if self.hypothesis_class is None and self._default_grid:
            return self._default_class()
        if self.hypothesis_class is None:
            if self._requires_class:
                raise ClassSpecError(
                    f"{type(self).__name__} needs hypothesis_class (a class or a spec string such as 'thresholds:1000')"
                )
            return None
        return resolve_class(self.hypothesis_class)

    def _default_class(self) -> HypothesisClass:
        """Stumps on the public grid for ``n_features_in_`` features (sets ``grid_edges_``; needs the number of
        features, known from fit)."""
        from .default_class import default_grid

        k = getattr(self, "n_features_in_", None)
        if k is None:
            raise ClassSpecError(
                f"{type(self).__name__}'s default class (stumps on a public grid) depends on the number of features: "
                "fit(X, y) first, or pass hypothesis_class"
            )
        self.grid_edges_, hclass = default_grid(int(k))
        return hclass

    def _the_class(self) -> HypothesisClass:
        """``hclass_`` of an estimator that needs its class (resolved by fit; ClassSpecError before)."""
        hclass = getattr(self, "hclass_", None)
        if hclass is None:  # not fitted yet (e.g. privacy() before fit): resolve without storing
            hclass = self._resolve_class()
        if hclass is None:
            raise ClassSpecError(
                f"{type(self).__name__} needs hypothesis_class (a class or a spec string such as 'thresholds:1000')"
            )
        return hclass

    def _wants_rows(self) -> bool:
        """Whether hypotheses take whole rows of X (2-D array) rather than scalar / tuple points."""
        return bool(getattr(getattr(self, "hclass_", None), "accepts_rows", False))

    def _points_from_X(self, X: np.ndarray) -> Any:
        """Rows of X as points of the class: 1 column → scalars (integral floats → ints); more → tuples."""
        edges = getattr(self, "grid_edges_", None)
        if edges is not None and self.hypothesis_class is None:  # the default class: rows → public grid cells
            from .default_class import to_grid_points

            return to_grid_points(X, edges)
        rows = getattr(self, "row_points_", None)
        if rows if rows is not None else self._wants_rows():
            return X
        if X.shape[1] == 1:
            col = X[:, 0]
            if (
                col.dtype.kind == "f"
                and np.all(np.isfinite(col))
                and np.all(col == np.round(col))
                and np.all(np.abs(col) < 2.0**63)
            ):  # integral and within int64 (1e300 stays a float)
                col = col.astype(np.int64)
            elif col.dtype == object:
                col = np.array([as_python_point(v) for v in col], dtype=object)
            return col
        if X.dtype.kind in "iu":  # integer rows: Python-int tuples in one pass (as the loop below gives them)
            return list(map(tuple, X.tolist()))
        if X.dtype.kind == "f" and np.all(np.isfinite(X)) and np.all(X == np.round(X)) and np.all(np.abs(X) < 2.0**63):
            return list(map(tuple, X.astype(np.int64).tolist()))
        rows = []
        for r in X:
            rows.append(
                tuple(int(v) if isinstance(v, float) and v.is_integer() else v for v in (as_python_point(u) for u in r))
            )
        return rows

    # ---------------------------------------------------------------- validation
    def _check_X(self, X: Any, *, reset: bool) -> np.ndarray:
        X = validate_data(self, X, reset=reset, dtype=None, ensure_all_finite=False)
        if X.dtype == object:
            try:
                X = X.astype(np.float64)
            except ValueError:  # genuinely non-numeric points (strings): kept as objects
                pass
        if X.dtype.kind == "b":
            X = X.astype(np.int64)
        if X.dtype.kind in "fc" and not np.all(np.isfinite(X)):
            raise DomainError("X contains NaN or infinity; points must lie in the class's domain")
        return X

    def _needs_numeric(self) -> bool:
        """Whether the class in use reads features as numbers: the default public grid or default stumps."""
        if self.hypothesis_class is not None:
            return False
        return self._default_grid or (not self._requires_class and getattr(self, "candidates", None) is None)

    def _validated_points(self, X: np.ndarray) -> Any:
        if X.dtype == object and self._needs_numeric():
            _refuse_non_numeric(X, getattr(self, "feature_names_in_", None), type(self).__name__)
        points = self._points_from_X(X)
        if self.hclass_ is None:
            return points
        return self.hclass_.validate_points(points)

    # ---------------------------------------------------------------- sklearn API
    def fit(self, X: Any, y: Any) -> "LittlestoneClassifier":
        """Learn from (X, y); y has two label values (kept as given in ``classes_``)."""
        if y is None:
            raise LabelError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        try:  # the budget is checked before any data is read ...
            charged, deferred = self._charge_accountant(X), None
        except BudgetExceededError:
            raise
        except LittlestoneError as exc:  # ... a bad setting is reported after the input checks, as scikit-learn's
            charged, deferred = None, exc
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        if y.ndim != 1:
            raise LabelError(f"y must be 1-D (one label per row), got shape {y.shape}")
        _refuse_missing_labels(y)
        X = self._check_X(X, reset=True)
        if y.shape[0] != X.shape[0]:
            raise LittlestoneError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels")
        check_classification_targets(y)
        if type_of_target(y) == "multiclass":
            raise LabelError(
                f"Only binary classification is supported: littlestone learns binary labels, got "
                f"{len(np.unique(y))} distinct labels"
            )
        y01, coding = self._encode_labels(y)
        self.grid_edges_ = None
        self.hclass_ = self._resolve_class()
        if self.hypothesis_class is None and self._default_grid:  # data-independent: the same warning for every input
            import warnings

            from .default_class import default_class_warning
            from .generic import DefaultCandidatesWarning

            warnings.warn(
                default_class_warning(type(self).__name__, self.n_features_in_), DefaultCandidatesWarning, stacklevel=2
            )
        self.row_points_ = self._wants_rows()
        points = self._validated_points(X)
        rng = _to_generator(self.random_state)
        self.coding_ = coding
        self.classes_ = np.array([coding.negative, coding.positive])
        if deferred is not None:  # never fit uncharged
            raise deferred
        from ..privacy.accountant import contained

        with contained():  # the learner functions it calls are inside the claim charged above
            self.hypothesis_, self.result_ = self._fit01(points, y01, rng)
        _check_charged(self, charged)
        return self

    # ---------------------------------------------------------------- the accountant
    def _fit_claim(self, n_rows: int) -> Any:
        """The claim a fit on ``n_rows`` examples will make, from the parameters only (default: ``privacy()``)."""
        return self.privacy()  # type: ignore[attr-defined]

    def _charge_accountant(self, X: Any) -> tuple[float, float] | None:
        """Charge this fit's claim to ``accountant`` (None = the default accountant) before any data is read: only
        the number of rows (public) and columns are looked at. Raises BudgetExceededError (nothing spent) when the
        claim does not fit. Non-private estimators charge nothing."""
        if not self._private:
            return None
        from ..privacy.accountant import charge_fit, check_fit, claim_pair
        from ..privacy.accountant_link import resolve_accountant

        shape = getattr(X, "shape", None)
        if shape is None and not hasattr(X, "__len__"):  # an array-like exposing neither: as NumPy converts it
            shape = np.asarray(X).shape
        n_rows = int(shape[0]) if shape is not None and len(shape) else len(X)
        if self._default_grid and self.hypothesis_class is None and shape is not None and len(shape) == 2:
            self.n_features_in_ = int(shape[1])  # the public grid class's size (validate_data sets it again)
        pair = claim_pair(self._fit_claim(n_rows))
        acc, what = resolve_accountant(self), f"{type(self).__name__}.fit on {n_rows:,} examples"
        check_fit(acc, pair, what)  # over budget: refused at once
        self._check_public_sizes(n_rows)  # too few rows for the sizes: refused, and nothing charged
        charge_fit(acc, pair, what)  # check and record, atomically
        return pair

    def _check_public_sizes(self, n_rows: int) -> None:
        """Refuse, before the charge, a fit the public sizes already rule out (InsufficientSampleError); learners
        that have such a check override this (default: nothing)."""

    def __getstate__(self) -> dict:
        """Pickled (a joblib worker): ``accountant=None`` names the parent's default accountant, a given accountant
        is a link to it (:mod:`littlestone.privacy.accountant_link`): the worker's fit charges the parent's."""
        state = super().__getstate__()
        if not self._private:
            return state
        from ..privacy.accountant_link import state_with_link

        return state_with_link(state)

    def _encode_labels(self, y: np.ndarray) -> tuple[np.ndarray, LabelCoding]:
        """Non-private baselines infer the label pair from y. Private estimators use ``classes`` (the declared
        (negative, positive) pair; a label outside it is an error); ``classes=None`` infers it from the private
        labels with a PrivacyLeakWarning — the fitted ``classes_`` then reveal which labels occur."""
        if not self._private:
            return encode_labels(y, allow_any_pair=True)
        classes = getattr(self, "classes", (0, 1))
        if classes is None:
            from .._labels import warn_inferred_labels

            warn_inferred_labels(type(self).__name__, "classes=None", "classes=(negative, positive)", stacklevel=4)
            return encode_labels(y, allow_any_pair=True)
        return encode_declared(y, classes)

    def predict(self, X: Any) -> np.ndarray:
        """Labels of the learned hypothesis, in the training label set."""
        check_is_fitted(self, "hypothesis_")
        X = self._check_X(X, reset=False)
        pts = self._validated_points(X)
        return self.coding_.decode(np.asarray(self.hypothesis_.predict(pts), dtype=np.int8))

    def decision_function(self, X: Any) -> np.ndarray:
        """0/1 value of the learned hypothesis (1 = ``classes_[1]``)."""
        check_is_fitted(self, "hypothesis_")
        X = self._check_X(X, reset=False)
        return np.asarray(self.hypothesis_.predict(self._validated_points(X)), dtype=np.float64)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.non_deterministic = False
        return tags

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict:
        """A JSON-ready description: estimator type, parameters, labels and the learned hypothesis."""
        check_is_fitted(self, "hypothesis_")
        params: dict[str, Any] = {}
        skipped: list[str] = []
        for k, v in self.get_params(deep=False).items():
            if k in ("hypothesis_class", "accountant"):  # the accountant is the user's, not the model's
                continue
            if k == "classes" and isinstance(v, (tuple, list)) and len(v) == 2:
                params[k] = [as_python_point(c) for c in v]
            elif v is None or isinstance(v, (bool, int, float, str)) and not isinstance(v, np.generic):
                params[k] = v
            elif isinstance(v, np.generic):
                params[k] = v.item()
            else:
                skipped.append(k)
        return {
            "format": JSON_FORMAT,
            "estimator": f"{type(self).__module__}.{type(self).__qualname__}",
            "hypothesis_class": None  # the default grid class is rebuilt from n_features_in on load
            if self.hypothesis_class is None and self._default_grid
            else class_to_json(self.hypothesis_class if _is_spec_string(self.hypothesis_class) else self.hclass_),
            "params": params,
            "unsaved_params": skipped,
            "classes": [as_python_point(c) for c in self.classes_],
            "n_features_in": int(self.n_features_in_),
            "row_points": bool(getattr(self, "row_points_", self._wants_rows())),
            "hypothesis": hypothesis_to_json(self.hypothesis_, self.hclass_),
            "result": _saved_result(self.result_),
        }

    def to_json(self, path: str | Path | None = None) -> str:
        """The model as JSON text; written atomically to ``path`` if given."""
        text = json.dumps(self.to_dict(), indent=2) + "\n"
        if path is not None:
            from ..io import atomic_write_text

            atomic_write_text(path, text)
        return text

    @classmethod
    def from_json(cls, source: str | Path) -> "LittlestoneClassifier":
        """Load a model saved with :meth:`to_json` (JSON text or a path to a file); ``result_`` comes back as the
        saved plain dict (non-JSON parameters such as candidate lists or backend objects are not restored)."""
        text = str(source)
        if isinstance(source, Path) or not text.lstrip().startswith("{"):
            try:
                text = Path(source).read_text(encoding="utf-8")
            except OSError as exc:
                raise LittlestoneError(f"cannot read model file {source}: {exc.strerror or exc}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LittlestoneError(f"model file is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        if not isinstance(obj, dict) or obj.get("format") != JSON_FORMAT:
            raise LittlestoneError(f"not a littlestone model file (expected format {JSON_FORMAT!r})")
        try:
            est = cls._from_dict(obj)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a damaged file: name it
            what = f"missing entry {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
            raise LittlestoneError(f"model file is malformed ({what})") from None
        _check_hypothesis_of_class(est.hypothesis_, est.hclass_)
        return est

    @classmethod
    def _from_dict(cls, obj: dict) -> "LittlestoneClassifier":
        est_cls = _import_estimator(obj["estimator"])
        if not (isinstance(est_cls, type) and issubclass(est_cls, cls)):
            raise LittlestoneError(f"model file holds a {obj['estimator']}, not a {cls.__name__}")
        hclass_desc = class_from_json(obj["hypothesis_class"])
        params = dict(obj["params"])
        if isinstance(params.get("classes"), list):
            params["classes"] = tuple(point_from_json(c) for c in params["classes"])
        est = est_cls(**params)
        est.hypothesis_class = hclass_desc
        classes = [point_from_json(c) for c in obj["classes"]]
        est.coding_ = LabelCoding(classes[0], classes[1])
        est.classes_ = np.array(classes)
        est.n_features_in_ = int(obj["n_features_in"])
        est.grid_edges_ = None
        est.hclass_ = est._resolve_class() if hclass_desc is None else resolve_class(hclass_desc)
        est.row_points_ = bool(obj.get("row_points", False))
        est.hypothesis_ = hypothesis_from_json(obj["hypothesis"], est.hclass_)
        est.result_ = obj.get("result")
        return est


def _check_charged(est: Any, charged: tuple[float, float] | None) -> None:
    """The fit's own claim (``result_.spent``) must be the one charged before it ran (a bug otherwise)."""
    spent = getattr(getattr(est, "result_", None), "spent", None)
    if charged is None or spent is None:
        return
    if spent[0] > charged[0] * (1 + 1e-9) + 1e-12 or spent[1] > charged[1] * (1 + 1e-9) + 1e-300:
        raise AssertionError(f"{type(est).__name__} spent {tuple(spent)} but was charged {charged} before the fit")


def _check_hypothesis_of_class(h: Hypothesis, hclass: HypothesisClass | None) -> None:
    """A loaded hypothesis must be made of its class's hypothesis types (``HypothesisClass.hypothesis_types``; a
    patched one by its base) or be a value vector over the class's finite domain; else the model file is rejected."""
    types = None if hclass is None else hclass.hypothesis_types()
    if types is None:
        return
    base = h
    while isinstance(base, PatchedHypothesis):
        base = base.base
    if isinstance(base, VectorHypothesis):
        if math.isfinite(hclass.domain_size) and len(base.values) == hclass.domain_size:  # type: ignore[union-attr]
            return
    elif isinstance(base, types):
        return
    raise LittlestoneError(
        f"model file is inconsistent: its hypothesis {h!r} is not a hypothesis of its class {hclass.name} "  # type: ignore[union-attr]
        f"(expected {' or '.join(t.__name__ for t in types)}, possibly patched, or a value vector on its domain)"
    )


def _is_spec_string(spec: Any) -> bool:
    """A spec that names a class by itself (a matrix file path does not: the model stores the matrix inline)."""
    return isinstance(spec, str) and not spec.strip().lower().endswith(".csv") and not Path(spec).exists()


def _import_estimator(dotted: str) -> Any:
    module, _, name = dotted.rpartition(".")
    if not module.startswith("littlestone."):
        raise LittlestoneError(f"refusing to load estimator {dotted!r}: not a littlestone estimator")
    try:
        obj: Any = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise LittlestoneError(f"model file names unknown estimator {dotted!r}") from None
    return obj


def _saved_result(result: Any) -> Any:
    """The fit result as saved in model JSON: non-private diagnostics are never saved, at any depth (issue 9 item 5,
    issue 19: an inner learner's result carries its own); a seeded run is labelled not private."""
    out = _without_diagnostics(_jsonable(result))
    if isinstance(out, dict):
        note = getattr(result, "privacy_note", "")
        if note:
            out["privacy_note"] = note
    return out


def _without_diagnostics(obj: Any) -> Any:
    """A JSON form with every ``diagnostics`` entry removed, at every depth."""
    if isinstance(obj, dict):
        return {k: _without_diagnostics(v) for k, v in obj.items() if k != "diagnostics"}
    if isinstance(obj, list):
        return [_without_diagnostics(v) for v in obj]
    return obj


def _jsonable(obj: Any) -> Any:
    """Best-effort JSON form of a fit result (dataclasses, dicts, numbers); opaque objects become their repr."""
    import dataclasses

    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else repr(obj)
    if isinstance(obj, np.generic):
        return _jsonable(obj.item())
    if isinstance(obj, np.ndarray):
        return _jsonable(obj.tolist()) if obj.size <= 10_000 else f"<array shape={obj.shape}>"
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj][:10_000]
    if hasattr(obj, "to_dict"):
        return _jsonable(obj.to_dict())
    return repr(obj)


def _register_stump_codec() -> None:
    from .candidates import Stump

    register_hypothesis_codec(
        "stump",
        Stump,
        lambda h: {"feature": h.feature, "threshold": point_to_json(h.threshold), "above": h.above},
        lambda o, c: Stump(int(o["feature"]), float(point_from_json(o["threshold"])), bool(o["above"])),
    )


_register_stump_codec()


def _register_structured_codecs() -> None:
    """Codecs for the structured classes' hypotheses, so models over huge or infinite domains can be saved."""
    from ..classes.affine import AffineFlat, AffinePointSet
    from ..classes.conjunctions import Conjunction
    from ..classes.intervals import IntervalUnion
    from ..classes.points import CofiniteSet, FiniteSet

    def pts(h: Any) -> dict:
        return {"points": [point_to_json(x) for x in h.points]}

    register_hypothesis_codec(
        "finite-set", FiniteSet, pts, lambda o, c: FiniteSet(point_from_json(x) for x in o["points"])
    )
    register_hypothesis_codec(
        "cofinite-set", CofiniteSet, pts, lambda o, c: CofiniteSet(point_from_json(x) for x in o["points"])
    )
    register_hypothesis_codec(
        "intervals",
        IntervalUnion,
        lambda h: {"intervals": [list(iv) for iv in h.intervals]},
        lambda o, c: IntervalUnion(tuple(iv) for iv in o["intervals"]),
    )
    register_hypothesis_codec(
        "conjunction",
        Conjunction,
        lambda h: {"literals": None if h.literals is None else [list(lit) for lit in h.literals]},
        lambda o, c: Conjunction(None if o["literals"] is None else [tuple(lit) for lit in o["literals"]]),
    )
    register_hypothesis_codec(
        "affine-flat",
        AffineFlat,
        lambda h: {"q": h.q, "offset": list(h.offset), "basis": [list(b) for b in h.basis]},
        lambda o, c: AffineFlat(int(o["q"]), tuple(o["offset"]), tuple(tuple(b) for b in o["basis"])),
    )
    register_hypothesis_codec(
        "affine-set",
        AffinePointSet,
        lambda h: {"q": h.q, "points": [list(x) for x in h.points]},
        lambda o, c: AffinePointSet(int(o["q"]), (tuple(x) for x in o["points"])),
    )


_register_structured_codecs()
