"""Data use declared once: one object slices a learner's sample into parts AND composes the claims of the steps the
parts feed (issue 19 item 3), and the data are read only through the parts it handed out (issue 26 item 3).

A :class:`DataSplit` over n records (n public) hands out :class:`Part` objects — consecutive blocks
(:meth:`DataSplit.block`, :meth:`DataSplit.blocks`) or a secret subsample (:meth:`DataSplit.subsample`). Each part
records the steps it feeds (:meth:`DataSplit.feed`). :meth:`DataSplit.compose` then derives the claim from the index sets
handed out and the mechanism claims of the steps: under replace-one, a replaced record changes the input of exactly the
steps that read it, and every other step sees the same data (later steps may read earlier outputs: adaptive
composition), so the claim is the max over records r of the basic composition of the claims of the steps reading r
(Dwork–Roth Thm 3.16; with disjoint parts this is the max over parts — "parallel composition" — and with one part
feeding several steps it is their sum — "sequential composition"). Nothing is assumed about disjointness: an overlap of
one record between two parts fed to two steps raises the claim, so a learner that charges the composed claim against
its requested (ε, δ) refuses to run.

Reads are bound to the declaration: the data are bound to the split (``DataSplit(n, what, source=…)`` or
:meth:`DataSplit.bind`) and a step gets them only as a :class:`PartReader` of one part (:meth:`DataSplit.reader`),
opened for a step the part feeds. A reader gives the records of its own part and nothing else: a read of one record
before or after the part raises :class:`~littlestone.errors.SplitReadError` naming the part, the step and the range; a
part opened for a step it does not feed (e.g. S₁ for the generic learner that S₂ feeds), a claim-only stand-in, or a
second opening of one user's part for a user-level step (one record counted for two users) is refused the same way. A
reader is a view: ``batch(start, stop)`` in the source's own positions, forwarded to the source (lazy streams stay lazy;
nothing is copied or materialised). So the claim computed from the declared parts covers every record a step reads.

Claims that are not a composition (amplification by a secret subsample, a theorem about several steps together such
as LWY25 Claim D.5) are declared with :meth:`DataSplit.amplify` and :meth:`DataSplit.joint`, which check the parts
the claim is about. The index sets of secret parts never leave the object (:meth:`DataSplit.describe` gives sizes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import PrivacyParameterError, SplitReadError
from .mechanism import Mechanism, PrivacyClaim, claim_of, compose, subsampled


#: the record-level relation of a user-level one (each record belongs to one user's part)
_RECORD = {"replace-one-user": "replace-one", "add/remove-user": "add/remove"}


@dataclass(frozen=True, eq=False)
class Part:
    """A set of record positions of a :class:`DataSplit`: a block [start, stop) or explicit (secret) indices. A part
    holds no data: a step reads its records through :meth:`DataSplit.reader`."""

    name: str
    start: int = 0
    stop: int = 0
    indices: np.ndarray | None = field(default=None, repr=False)
    secret: bool = False
    #: a stand-in of :meth:`DataSplit.claim_subsample` (the claim only): never read
    claim_only: bool = False

    @property
    def size(self) -> int:
        return int(self.indices.size) if self.indices is not None else self.stop - self.start

    def intervals(self) -> list[tuple[int, int]]:
        """The part as disjoint half-open intervals, sorted."""
        if self.indices is None:
            return [(self.start, self.stop)] if self.stop > self.start else []
        idx = np.unique(self.indices)
        if idx.size == 0:
            return []
        cut = np.flatnonzero(np.diff(idx) != 1) + 1
        starts = np.concatenate([[idx[0]], idx[cut]])
        stops = np.concatenate([idx[cut - 1] + 1, [idx[-1] + 1]])
        return [(int(a), int(b)) for a, b in zip(starts, stops)]


class PartReader:
    """The records of one part of the data bound to a :class:`DataSplit`, for the step it was opened for
    (:meth:`DataSplit.reader`). An example source in the bound source's own positions: ``batch(start, stop)`` is
    forwarded only when [start, stop) lies inside the part (else :class:`~littlestone.errors.SplitReadError`);
    :meth:`read` gives the whole part (in blocks on request), :meth:`rows` the records of an index-set part.
    ``start``/``stop`` are the part's bounds, ``len()`` the bound source's (positions are the source's: a learner
    handed a reader, e.g. PolyPriLearn inside PolyPriPropLearn, declares its own split over them), ``block_size`` the bound source's (a blocked stream's readers peek up to its block boundaries, as on the source)."""

    __slots__ = ("_source", "part", "step", "what", "start", "stop", "block_size")

    def __init__(self, source: Any, part: Part, step: str, what: str):
        self._source, self.part, self.step, self.what = source, part, step, what
        if part.indices is None:
            self.start, self.stop = int(part.start), int(part.stop)
        else:
            self.start = int(part.indices.min()) if part.indices.size else 0
            self.stop = int(part.indices.max()) + 1 if part.indices.size else 0
        self.block_size = getattr(source, "block_size", 0)

    def __reduce__(self) -> tuple:  # workers get the reader, never the bare source
        return (PartReader, (self._source, self.part, self.step, self.what))

    def __len__(self) -> int:
        return len(self._source)

    def __repr__(self) -> str:
        return f"PartReader({self.part.name!r} of {self.what} for {self.step!r}, {self.part.size:,} records)"

    def _outside(self, start: Any, stop: Any) -> SplitReadError:
        p = self.part
        where = f"[{p.start}, {p.stop})" if p.indices is None else f"an index set of {p.size}"
        return SplitReadError(
            f"{self.what}: step {self.step!r} read records [{start}, {stop}) outside its part {self.part.name!r} = "
            f"{where}; the claim composed from the declared parts does not cover that read"
        )

    def batch(self, start: int, stop: int) -> tuple[Any, np.ndarray]:
        """Records [start, stop) — inside the part, else :class:`~littlestone.errors.SplitReadError`."""
        part = self.part  # checked against the declared part itself, not the reader's copies of its bounds
        if part.indices is not None or not part.start <= start <= stop <= part.stop:
            raise self._outside(start, stop)
        return self._source.batch(start, stop)

    def read(self, block: int | None = None) -> Any:
        """The whole part: one batch, or an iterator of batches of at most ``block`` records (a block part)."""
        if self.part.indices is not None:
            return self.rows()
        if block is None:
            return self.batch(self.start, self.stop)
        return (self.batch(a, min(self.stop, a + block)) for a in range(self.start, self.stop, block))

    def rows(self) -> tuple[Any, np.ndarray]:
        """The part's records in position order (an index-set part: its indices; a block: the block)."""
        if self.part.indices is None:
            return self.batch(self.start, self.stop)
        return read_rows(self._source, self.part.indices)


def read_rows(source: Any, indices: np.ndarray) -> tuple[Any, np.ndarray]:
    """The records at ``indices`` (sorted) of a source: its ``rows`` when it has one (in-memory arrays), else one
    ``batch`` per run of consecutive indices."""
    rows = getattr(source, "rows", None)
    if rows is not None:
        return rows(indices)
    idx = np.asarray(indices, dtype=np.int64)
    Xs: list = []
    ys: list = []
    if idx.size:
        cut = np.flatnonzero(np.diff(idx) != 1) + 1
        for a, b in zip(np.concatenate([[idx[0]], idx[cut]]), np.concatenate([idx[cut - 1] + 1, [idx[-1] + 1]])):
            X, y = source.batch(int(a), int(b))
            Xs.append(X)
            ys.append(np.asarray(y))
    if Xs and all(isinstance(X, np.ndarray) for X in Xs):
        return np.concatenate(Xs), np.concatenate(ys)
    return [x for X in Xs for x in X], (np.concatenate(ys) if ys else np.zeros(0, dtype=np.int8))


def group_privacy(claim: PrivacyClaim, k: int) -> PrivacyClaim:
    """An (ε, δ) claim for neighbours at distance k: (kε, k·e^{(k−1)ε}·δ) (Dwork–Roth / Vadhan, group privacy)."""
    import math

    eps = k * claim.epsilon
    dlt = min(1.0, k * math.exp((k - 1) * claim.epsilon) * claim.delta) if claim.delta else 0.0
    if dlt >= 1.0:
        raise PrivacyParameterError(f"{claim.what}: a record read by {k} users leaves no privacy claim (δ ≥ 1)")
    return PrivacyClaim(eps, dlt, claim.relation, f"{claim.what} (group of {k})", (claim,))


class DataSplit:
    """The parts of a sample of ``n`` records (n public) and the steps each part feeds (see the module doc)."""

    def __init__(self, n: int, what: str = "sample", *, source: Any = None):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise PrivacyParameterError(f"a data split needs a record count n >= 0, got {n!r}")
        self.n, self.what = int(n), what
        self.parts: list[Part] = []
        self._cursor = 0
        self._feeds: dict[int, list[str]] = {}
        self._joint: list[tuple[tuple[str, ...], PrivacyClaim]] = []
        self._user_of: dict[str, str] = {}
        self._source: Any = None
        self._opened: set[tuple[int, str]] = set()  # (part, user-level step): each user's part is read once
        if source is not None:
            self.bind(source)

    # ------------------------------------------------------------------ copies (copy, deepcopy, pickle)
    def __getstate__(self) -> dict[str, Any]:
        """The feeds and the opened parts are keyed by the parts' identities, which a copy does not keep: they travel
        by the parts' positions in :attr:`parts` and are keyed afresh by :meth:`__setstate__`."""
        state = dict(self.__dict__)
        pos = {id(p): i for i, p in enumerate(self.parts)}
        state["_feeds"] = [list(self._feeds[id(p)]) for p in self.parts]
        state["_opened"] = sorted((pos[i], step) for i, step in self._opened)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        feeds, opened = state.pop("_feeds"), state.pop("_opened")
        self.__dict__.update(state)
        self._feeds = {id(p): list(f) for p, f in zip(self.parts, feeds)}
        self._opened = {(id(self.parts[i]), step) for i, step in opened}

    # ------------------------------------------------------------------ the data, read through parts only
    def bind(self, source: Any) -> "DataSplit":
        """Bind the data (an example source with ``len`` ≥ n and ``batch(start, stop)``, position i = record i): from
        now on they are read only through :meth:`reader`. A split is bound once."""
        if self._source is not None:
            raise PrivacyParameterError(f"{self.what}: the split is already bound to its data")
        if len(source) < self.n:
            raise PrivacyParameterError(f"{self.what}: {len(source):,} records for a split of {self.n:,}")
        self._source = source
        return self

    def reader(self, part: Part, step: str) -> PartReader:
        """The records of ``part`` for ``step``, which the part must feed (:meth:`feed`, or as one user of a
        user-level step, :meth:`users`: then once only). The only way a step gets data (module doc)."""
        if self._source is None:
            raise PrivacyParameterError(f"{self.what}: no data bound to the split (DataSplit.bind)")
        fed = self._feeds.get(id(part))
        if fed is None:  # ids are unique: the split holds every part it handed out
            raise SplitReadError(f"{self.what}: part {part.name!r} was not handed out by this split")
        if part.claim_only:
            raise SplitReadError(f"{self.what}: part {part.name!r} is a claim-only stand-in, never read")
        as_user = any(self._user_of.get(s) == step for s in fed)
        if step not in fed and not as_user:
            raise SplitReadError(
                f"{self.what}: step {step!r} opened part {part.name!r}, which feeds {fed or 'no step'}: the claim "
                f"composed from the declared parts does not charge its records to {step!r}"
            )
        if as_user:
            if (id(part), step) in self._opened:
                raise SplitReadError(
                    f"{self.what}: part {part.name!r} was already read as one user's data of {step!r}; reading it "
                    "again would make its records count for two users"
                )
            self._opened.add((id(part), step))
        return PartReader(self._source, part, step, self.what)

    # ------------------------------------------------------------------ handing out parts
    def _add(self, part: Part) -> Part:
        for a, b in part.intervals():
            if not 0 <= a < b <= self.n:
                raise PrivacyParameterError(f"part {part.name!r} [{a}, {b}) lies outside the {self.n} records")
        self.parts.append(part)
        self._feeds[id(part)] = []
        return part

    def block(self, size: int, name: str) -> Part:
        """The next ``size`` records not yet handed out as a block (consecutive blocks are disjoint)."""
        size = int(size)
        if size < 0 or self._cursor + size > self.n:
            raise PrivacyParameterError(
                f"{self.what}: a block of {size} records for {name!r} does not fit ({self.n - self._cursor} left)"
            )
        part = self._add(Part(name, self._cursor, self._cursor + size))
        self._cursor += size
        return part

    def blocks(self, count: int, size: int, name: str) -> list[Part]:
        """``count`` consecutive blocks of ``size`` records, named ``name[i]``."""
        return [self.block(size, f"{name}[{i}]") for i in range(int(count))]

    def subsample(self, m: int, rng: np.random.Generator, name: str, within: Part | None = None) -> Part:
        """m records drawn uniformly without replacement (from ``within``, else all n), a SECRET part: ``rng`` must
        be :func:`~littlestone.privacy.secret_generator`'s (the OS CSPRNG on the secure backend)."""
        pool = self.n if within is None else within.size
        if not 0 <= int(m) <= pool:
            raise PrivacyParameterError(f"{self.what}: a subsample of {m} records from {pool}")
        idx = np.sort(rng.choice(pool, size=int(m), replace=False))
        if within is not None:
            idx = (within.indices[idx] if within.indices is not None else within.start + idx).astype(np.int64)
        return self._add(Part(name, indices=idx.astype(np.int64), secret=True))

    def claim_subsample(self, m: int, name: str, within: Part | None = None) -> Part:
        """A stand-in for :meth:`subsample` when only the claim is wanted (``privacy()`` before any data): some m
        records of the pool — which m does not change :meth:`compose` (the same sets of steps read a common record),
        so they are described as the pool's first m, without drawing (or allocating) an index array. Never used to
        read data: it is not secret-drawn, so :meth:`amplify` refuses it."""
        pool = self.n if within is None else within.size
        if not 0 <= int(m) <= pool:
            raise PrivacyParameterError(f"{self.what}: a subsample of {m} records from {pool}")
        if within is not None and within.indices is not None:
            raise PrivacyParameterError(f"{self.what}: a claim-only subsample needs a block to stand in")
        start = 0 if within is None else within.start
        return self._add(Part(name, start, start + int(m), claim_only=True))

    def feed(self, part: Part, *steps: str) -> Part:
        """Declare that ``part`` is read by each of ``steps`` (names of mechanism steps); returns the part."""
        if id(part) not in self._feeds:
            raise PrivacyParameterError(f"part {part.name!r} was not handed out by this split")
        self._feeds[id(part)].extend(s for s in steps if s not in self._feeds[id(part)])
        return part

    def users(self, step: str, parts: Iterable[Part]) -> None:
        """Declare ``step`` a user-level mechanism whose users' data are ``parts`` (e.g. sparse selection over the sets
        ReduceTree computes from PolyPriLearn's m datasets; the stable histogram over G's outputs on BLM20's batches):
        its claim holds when one record changes one user; a record in k users' parts costs group privacy over k."""
        for i, part in enumerate(parts):
            sub = f"{step}#user{i}"
            self._user_of[sub] = step
            self.feed(part, sub)

    # ------------------------------------------------------------------ who reads what
    def signatures(self) -> set[frozenset[str]]:
        """The distinct sets of steps that read a common record (one set per group of records; a sweep over the
        parts' intervals, so n may be 10⁹)."""
        events: list[tuple[int, int, str]] = []
        for part in self.parts:
            for step in self._feeds[id(part)]:
                for a, b in part.intervals():
                    events.append((a, 1, step))
                    events.append((b, -1, step))
        events.sort(key=lambda e: (e[0], e[1]))
        active: dict[str, int] = {}
        out: set[frozenset[str]] = set()
        i = 0
        while i < len(events):
            pos = events[i][0]
            while i < len(events) and events[i][0] == pos:
                _, delta, step = events[i]
                active[step] = active.get(step, 0) + delta
                if active[step] == 0:
                    del active[step]
                i += 1
            if active:
                out.add(frozenset(active))
        return out

    def check_disjoint(self, *steps: str) -> None:
        """Raise unless no record feeds two of ``steps`` (the condition of parallel composition; no steps: every
        step fed, a user-level step's users counting as separate steps)."""
        sigs = self.signatures()
        wanted = set(steps) or {s for sig in sigs for s in sig}
        for sig in sigs:
            both = sig & wanted
            if len(both) > 1:
                raise PrivacyParameterError(
                    f"{self.what}: a record feeds {sorted(both)}, whose claims were composed as disjoint"
                )

    # ------------------------------------------------------------------ claims
    def amplify(self, part: Part, claim: Mechanism | PrivacyClaim, *, what: str = "") -> PrivacyClaim:
        """The claim of steps that read only the secret subsample ``part`` (m of n, drawn without replacement):
        BBG18 Thm 9 at q = m/n."""
        if not part.secret or part.indices is None:
            raise PrivacyParameterError(f"part {part.name!r} is not a secret subsample: no amplification")
        return subsampled(claim, part.size / self.n, what=what or f"on the secret subsample {part.name}")

    def joint(self, steps: Iterable[str], claim: PrivacyClaim) -> None:
        """Declare one claim covering ``steps`` together (a theorem about them, e.g. LWY25 Claim D.5): in
        :meth:`compose` these steps count as one step with this claim."""
        self._joint.append((tuple(steps), claim))

    def compose(self, claims: Mapping[str, Mechanism | PrivacyClaim], *, what: str = "") -> PrivacyClaim:
        """The claim of the steps under replace-one, from the index sets handed out: the max over records of the
        basic composition of the claims of the steps reading that record (module doc). Every fed step needs a
        claim, every claim a step that read data."""
        given = {k: claim_of(v) for k, v in claims.items()}
        for k in set(self._user_of.values()) & set(given):  # a user-level claim, read at the level of records
            c = given[k]
            given[k] = PrivacyClaim(c.epsilon, c.delta, _RECORD.get(c.relation, c.relation), c.what, (c,))
        merged: dict[str, str] = {}
        for steps, claim in self._joint:
            key = " + ".join(steps)
            given[key] = claim
            merged.update((s, key) for s in steps)
        merged.update(self._user_of)
        fed = {self._user_of.get(s, s) for p in self.parts for s in self._feeds[id(p)]}
        missing = {merged.get(s, s) for s in fed} - set(given)
        if missing:
            raise PrivacyParameterError(f"{self.what}: no claim for the steps {sorted(missing)}")
        unused = set(claims) - fed
        if unused:
            raise PrivacyParameterError(f"{self.what}: claims for steps that read no data: {sorted(unused)}")
        relations = {c.relation for c in given.values()}
        relation = relations.pop() if len(relations) == 1 else "replace-one"
        if relations:
            raise PrivacyParameterError(f"{self.what}: claims under different neighbouring relations")
        eps, dlt = 0.0, 0.0
        parts: dict[tuple[str, float, float], PrivacyClaim] = {}
        for sig in self.signatures():
            hits: dict[str, int] = {}
            for s in sig:  # a user-level step read through k users' parts counts k times (group privacy)
                key = merged.get(s, s)
                hits[key] = hits.get(key, 0) + (1 if s in self._user_of else 0)
            claims_here = [given[k] if n <= 1 else group_privacy(given[k], n) for k, n in sorted(hits.items())]
            keys = sorted(hits)
            c = compose(claims_here, what=" + ".join(keys)) if len(keys) > 1 else claims_here[0]
            eps, dlt = max(eps, c.epsilon), max(dlt, c.delta)
            parts.setdefault((c.what, c.epsilon, c.delta), c)  # one entry per distinct claim (m datasets: one)
        return PrivacyClaim(eps, dlt, relation, what or f"{self.what} (composed over its parts)", tuple(parts.values()))

    def describe(self) -> list[tuple[str, int, tuple[str, ...]]]:
        """(part, size, steps) for every part: public sizes only (never the indices of a secret part)."""
        return [(p.name, p.size, tuple(self._feeds[id(p)])) for p in self.parts]
