"""Ahead-of-time builds of Numba kernels: the same Python functions, compiled once into an extension module.

A module of ``@njit_cached`` kernels stays the only kernel code. :class:`AotModule` describes which of its functions
to export and with which Numba signatures (data); :meth:`AotModule.build` compiles them with ``numba.pycc`` for this
machine's CPU into ``<module>_aot_<key>`` next to the module, and :func:`load_kernels` imports that extension —
without importing Numba — or falls back to the JIT module.

The key hashes the kernel module's source bytes, the installed Numba's version file, the signatures and this CPU's
feature flags: after an edit of the kernels, a Numba upgrade or a move to another CPU the key changes, the old build
is simply not found and the JIT runs (a stale binary is never used). ``LITTLESTONE_KERNELS=jit|aot|auto`` (default
auto) forces a path. The extension's entry points convert their arguments without checking them (an array of the
wrong dtype or layout is read as raw memory), so :func:`load` wraps each one in a check that raises ``TypeError``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import operator
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator

import numpy as np

from .errors import LittlestoneError

ENV = "LITTLESTONE_KERNELS"
#: bumped when the way a build is made or keyed changes
_FORMAT = b"littlestone-aot-1"
#: Numba type codes the argument checks understand (1-d C-contiguous arrays ``t[::1]`` and scalars ``t``)
_DTYPES = {c: np.dtype(t) for c, t in [("b1", "bool"), ("f4", "float32"), ("f8", "float64")]}
_DTYPES.update({f"{k}{b // 8}": np.dtype(f"{'int' if k == 'i' else 'uint'}{b}") for k in "iu" for b in (8, 16, 32, 64)})
_SIGNATURE = re.compile(r"^\s*(\w+)\s*\((.*)\)\s*$")


@dataclass(frozen=True)
class Export:
    """One exported kernel: the name of an ``@njit`` function of the module, its Numba signature (e.g.
    ``"i8(i8[::1], i1[::1], i8)"``; arrays 1-d C-contiguous, scalars integer, float or bool) and the positions of
    the array arguments it writes into (checked writeable)."""

    name: str
    signature: str
    writes: tuple[int, ...] = ()

    def arguments(self) -> list[tuple[np.dtype, bool]]:
        """(dtype, is_array) per argument, parsed from the signature."""
        m = _SIGNATURE.match(self.signature)
        if m is None or m.group(1) not in _DTYPES:
            raise ValueError(f"{self.name}: unsupported signature {self.signature!r}")
        args = []
        for token in (t.strip() for t in m.group(2).split(",") if t.strip()):
            code, is_array = (token[:-5], True) if token.endswith("[::1]") else (token, False)
            if code not in _DTYPES:
                raise ValueError(f"{self.name}: unsupported argument type {token!r} in {self.signature!r}")
            args.append((_DTYPES[code], is_array))
        return args


@dataclass(frozen=True)
class AotModule:
    """The kernels of module ``source`` (dotted name) to build ahead of time; ``builder`` is the command that
    builds them (named in messages)."""

    source: str
    exports: tuple[Export, ...]
    builder: str

    def _source_file(self) -> Path:
        spec = importlib.util.find_spec(self.source)  # imports the parent package, not the kernel module
        if spec is None or spec.origin is None:
            raise ImportError(f"cannot find the kernel module {self.source}")
        return Path(spec.origin)

    def key(self) -> str:
        """Hash of everything the binary depends on (see the module docstring); read without importing Numba."""
        h = hashlib.sha256(_FORMAT)
        h.update(self._source_file().read_bytes())
        h.update(_numba_version_bytes())
        h.update(_cpu_fingerprint())
        for e in self.exports:
            h.update(f"\0{e.name}:{e.signature}".encode())
        return h.hexdigest()[:16]

    def module_name(self) -> str:
        """Dotted name of the extension built for the current key."""
        return f"{self.source}_aot_{self.key()}"

    def build(self, log: Path | None = None) -> Path:
        """Compile the exports with ``numba.pycc`` (target CPU "host") and install the extension atomically next to
        the kernel module, removing builds for other keys; returns its path. Compiler output goes to ``log``."""
        import tempfile
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba.pycc's pending-deprecation warning
            from numba.pycc import CC

        kernels = importlib.import_module(self.source)
        target = self._source_file().parent
        name = self.module_name().rpartition(".")[2]
        cc = CC(name, source_module=kernels)
        cc.target_cpu = "host"
        for e in self.exports:
            e.arguments()  # the checks in load() must understand every signature
            cc.export(e.name, e.signature)(getattr(kernels, e.name).py_func)
        with tempfile.TemporaryDirectory(dir=target, prefix=f".{name}.") as tmp:
            cc.output_dir = tmp
            with _redirect_output(log):
                cc.compile()
            built = Path(tmp) / cc.output_file
            final = target / cc.output_file
            os.replace(built, final)
        importlib.invalidate_caches()  # this process may load it next
        stem = self.source.rpartition(".")[2]
        for old in target.glob(f"{stem}_aot_*"):
            if old != final and old.is_file():
                old.unlink()
        return final


def load(spec: AotModule) -> SimpleNamespace | None:
    """The ahead-of-time kernels of ``spec`` built for its current key, each behind an argument check; None if there
    is no such build (never built, or built from another source, Numba or CPU)."""
    try:
        name = spec.module_name()
        ext = importlib.import_module(name)
    except (ImportError, OSError):
        return None
    fns = {e.name: _checked(e, getattr(ext, e.name)) for e in spec.exports}
    return SimpleNamespace(__name__=name, __file__=ext.__file__, **fns)


def load_kernels(spec: AotModule, jit: Callable[[], Any]) -> Any:
    """The kernels to run: ``load(spec)`` if it is available, else ``jit()`` (the Numba JIT module) — unless the
    environment variable ``LITTLESTONE_KERNELS`` says ``jit`` or ``aot`` (``aot`` without a build is an error)."""
    mode = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if mode not in ("auto", "aot", "jit"):
        raise LittlestoneError(f"{ENV} must be jit, aot or auto, not {os.environ[ENV]!r}")
    if mode != "jit":
        aot = load(spec)
        if aot is not None:
            return aot
        if mode == "aot":
            raise LittlestoneError(
                f"{ENV}=aot, but the ahead-of-time kernels of {spec.source} are not built for its current source, "
                f"Numba and CPU: run `python -m {spec.builder}`"
            )
    return jit()


def _checked(export: Export, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` behind a check of its arguments against ``export``'s signature (TypeError / OverflowError).

    The check is generated as straight-line code (it runs on every kernel call, ~10⁵ per BLM20 run at d = 3): an
    array must be an ndarray of the exact dtype, 1-d, C-contiguous (and writeable if the kernel writes into it); an
    integer scalar must be an integer (``operator.index``: a float is refused, not truncated) that fits its type."""
    args = export.arguments()
    name = export.name
    params = ", ".join(f"a{i}" for i in range(len(args)))
    env: dict[str, Any] = {"fn": fn, "ndarray": np.ndarray, "index": operator.index}
    body = []
    for i, (dt, is_array) in enumerate(args):
        a = f"a{i}"
        if is_array:
            writes = i in export.writes
            env[f"D{i}"] = dt
            env[f"E{i}"] = TypeError(
                f"{name}(): argument {i} must be a 1-d C-contiguous{' writeable' if writes else ''} {dt} array"
            )
            flags = f"not (f := {a}.flags).c_contiguous or not f.writeable" if writes else f"not {a}.flags.c_contiguous"
            body.append(
                f"    if type({a}) is not ndarray or {a}.ndim != 1 or ({a}.dtype is not D{i} and {a}.dtype != D{i}) "
                f"or {flags}:\n        raise E{i}"
            )
        elif dt.kind in "iu":
            body.append(f"    if type({a}) is not int:\n        {a} = index({a})")
            if dt != np.int64:  # the extension refuses an int64 overflow itself (OverflowError)
                lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
                body.append(
                    f"    if not {lo} <= {a} <= {hi}:\n"
                    f"        raise OverflowError(f'{name}(): argument {i} = {{{a}}} does not fit {dt}')"
                )
    src = f"def {name}({params}):\n" + "\n".join(body) + f"\n    return fn({params})\n"
    exec(compile(src, f"<aot check of {name}>", "exec"), env)
    call = env[name]
    call.__doc__ = f"{name}{export.signature[export.signature.index('(') :]}: ahead-of-time build, arguments checked"
    return call


def _numba_version_bytes() -> bytes:
    """The installed Numba's version file (version and revision), found without importing Numba; b"" if absent."""
    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        return b""
    try:
        return (Path(next(iter(spec.submodule_search_locations))) / "_version.py").read_bytes()
    except OSError:
        return b""


def _cpu_fingerprint() -> bytes:
    """Machine and CPU feature flags (Linux: the first processor's entry of /proc/cpuinfo; elsewhere the machine
    name only): code built for the host CPU must not run on another."""
    fp = os.uname().machine.encode() if hasattr(os, "uname") else sys.platform.encode()
    with contextlib.suppress(OSError), open("/proc/cpuinfo", "rb") as f:
        for line in f:
            if not line.strip():
                break  # end of the first processor's entry
            if line.split(b":")[0].strip() in (b"flags", b"Features", b"model name", b"vendor_id", b"isa"):
                fp += b"\0" + line.strip()
    return fp


@contextlib.contextmanager
def _redirect_output(log: Path | None) -> Iterator[None]:
    """Send this process's stdout and stderr (file descriptors 1 and 2: the C compiler's output too) to ``log``."""
    if log is None:
        yield
        return
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        with open(log, "ab") as f:
            os.dup2(f.fileno(), 1)
            os.dup2(f.fileno(), 2)
            try:
                yield
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
