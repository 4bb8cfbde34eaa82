"""The ``littlestone`` command: typer app, one-line errors (exit 2), Ctrl-C → exit 130, tracebacks only with --debug."""

from __future__ import annotations

import os
import signal
import sys
import threading
import warnings
from typing import Any, Callable

import typer
from rich.text import Text
from typer.core import TyperGroup

from .. import _progress
from ..errors import LittlestoneError
from ._common import err_console, take_notes

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


class LittlestoneGroup(TyperGroup):
    """Root command group: turns every anticipated error into one red line and a documented exit code."""

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        end = argv.index("--") if "--" in argv else len(argv)
        debug = "--debug" in argv[:end] or os.environ.get("LITTLESTONE_DEBUG", "") not in ("", "0")
        argv = [a for a in argv[:end] if a != "--debug"] + argv[end:]  # --debug is accepted anywhere
        if debug:
            argv = ["--debug", *argv]
        code = EXIT_OK
        caught: list[warnings.WarningMessage] = []
        take_notes()  # (notes of an earlier command in this process are not this one's)
        restore = _catch_ctrl_c()
        try:
            try:
                with warnings.catch_warnings(record=True) as caught:
                    rv = super().main(
                        argv,
                        prog_name=prog_name or "littlestone",
                        complete_var=complete_var,
                        standalone_mode=False,
                        **extra,
                    )
                code = rv if isinstance(rv, int) and not isinstance(rv, bool) else EXIT_OK
                if _progress.interrupted():  # a Ctrl-C Python dropped (raised in a __del__): still an interrupt
                    code = EXIT_INTERRUPTED
                if code == EXIT_INTERRUPTED:  # typer turns Ctrl-C into Exit(130)
                    _error("interrupted")
            except Exception as e:  # click's usage errors here; everything else goes to the handlers below
                kind = _click_kind(e)
                if kind is None or (debug and kind != "no-args"):
                    raise
                if kind == "no-args":
                    e.show()  # type: ignore[attr-defined]
                elif kind == "usage":
                    ctx = getattr(e, "ctx", None)
                    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                    _error(f"{_one_line(e.format_message())}{hint}")  # type: ignore[attr-defined]
                else:
                    _error(_one_line(e.format_message()))  # type: ignore[attr-defined]
                code = EXIT_BAD_INPUT
        except typer.Exit as e:  # raised outside a command context
            code = e.exit_code
        except (typer.Abort, KeyboardInterrupt):
            if debug:
                raise
            _error("interrupted")
            code = EXIT_INTERRUPTED
        except (LittlestoneError, OSError, UnicodeDecodeError) as e:
            if debug:
                raise
            _error(_describe(e))
            code = EXIT_BAD_INPUT
        except MemoryError as e:  # an input too large for this machine: a bad input, not a crash
            if debug:
                raise
            detail = _one_line(str(e))
            _error(
                "not enough memory for this input" + (f" ({detail})" if detail else "") + ": try smaller sizes "
                "(rerun with --debug for the traceback)"
            )
            code = EXIT_BAD_INPUT
        except Exception as e:  # an unanticipated failure: still one line, with a pointer to --debug
            if debug:
                raise
            # e.g. Ctrl-C while a C extension was being imported, or an error of a cleanup Ctrl-C cut short (an
            # OpenDP object freed half-way: "no compiled object")
            if _caused_by_interrupt(e) or _progress.interrupted():
                _error("interrupted")
                code = EXIT_INTERRUPTED
            else:
                _error(
                    f"internal error: {type(e).__name__}: {_one_line(str(e))} (rerun with --debug for the traceback)"
                )
                code = EXIT_FAILED
        restore()
        if standalone_mode:
            # the command is over (its outputs are in place or cleaned up): a Ctrl-C from now on, e.g. during the
            # interpreter's shutdown, must not turn a finished run into a death by SIGINT
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        notes = take_notes()
        if code in (EXIT_OK, EXIT_FAILED) or debug:  # after a bad input or Ctrl-C: the error line alone
            for note in notes:
                err_console.print(note, markup=False, highlight=False, soft_wrap=True)
            _show_warnings(caught)
        if not standalone_mode:
            return code
        sys.exit(code)


def _catch_ctrl_c() -> Callable[[], None]:
    """For the command's run: Ctrl-C is remembered as well as raised (``_progress.on_sigint``; the main loop checks
    the flag between units of work, so an interrupt Python drops inside a ``__del__`` or weakref callback still stops
    the command), and such a dropped KeyboardInterrupt prints no "Exception ignored" trace. Returns the undo."""
    _progress.clear_interrupt()
    if threading.current_thread() is not threading.main_thread():
        return _progress.clear_interrupt
    previous_handler = signal.signal(signal.SIGINT, _progress.on_sigint)
    previous_hook = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and _progress.interrupted():
            return  # remembered: the command stops at its next check
        previous_hook(unraisable)

    sys.unraisablehook = hook

    def restore() -> None:  # (the flag too: library code run after the command must not see this Ctrl-C)
        _progress.clear_interrupt()
        sys.unraisablehook = previous_hook
        signal.signal(signal.SIGINT, previous_handler if previous_handler is not None else signal.default_int_handler)

    return restore


def _click_kind(e: BaseException) -> str | None:
    """ "no-args", "usage" or "click" for click's exceptions, None for any other. typer raises them from click or
    from its own vendored copy of click depending on its version, so they are recognised by class name rather than
    imported from a private module."""
    names = {c.__name__ for c in type(e).__mro__}
    for name, kind in (("NoArgsIsHelpError", "no-args"), ("UsageError", "usage"), ("ClickException", "click")):
        if name in names:
            return kind
    return None


def _show_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Warnings raised during the command, one line each (once per message), after its output."""
    seen: set[str] = set()
    for w in caught:
        text = f"{w.category.__name__}: {_one_line(str(w.message))}"
        if text not in seen:
            seen.add(text)
            err_console.print(Text("warning: ", style="yellow") + Text(text), soft_wrap=True, highlight=False)


def _caused_by_interrupt(e: BaseException) -> bool:
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


def _describe(e: BaseException) -> str:
    if isinstance(e, FileNotFoundError):
        return f"file not found: {e.filename}"
    if isinstance(e, IsADirectoryError):
        return f"is a directory, not a file: {e.filename}"
    if isinstance(e, PermissionError):
        return f"permission denied: {e.filename}"
    if isinstance(e, OSError) and e.filename:
        return f"cannot use {e.filename}: {e.strerror}"
    if isinstance(e, UnicodeDecodeError):
        return "file is not UTF-8 text"
    return _one_line(str(e))


def _error(message: str) -> None:
    """One red "error:" and the message as it is: no rich markup in it is interpreted (a bracketed word such as the
    extra in "pip install 'littlestone[dask]'" or a user's "[bold]" is printed)."""
    err_console.print(Text("error: ", style="bold red") + Text(message), soft_wrap=True, highlight=False)


app = typer.Typer(
    cls=LittlestoneGroup,
    name="littlestone",
    help="Online and differentially-private learning of Littlestone classes.\n\n"
    "Examples:  littlestone ldim --class thresholds:1000   ·   littlestone demo",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"littlestone {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: bool = typer.Option(False, "--debug", help="Show full tracebacks instead of one-line errors."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """Online and differentially-private learning of Littlestone classes."""


from . import audit_cmds, bounds_cmds, dimension_cmds, experiment_cmds, learn_cmds, online_cmds  # noqa: E402

for _module in (dimension_cmds, online_cmds, learn_cmds, bounds_cmds, audit_cmds, experiment_cmds):
    _module.register(app)


def _shield_workers_from_ctrl_c() -> None:
    """Ctrl-C at a terminal sends SIGINT to the whole foreground process group — to parallel workers too, which
    would each print a traceback (often while still importing). Child processes of the command are therefore
    started with SIGINT blocked (the signal mask is inherited across fork and exec): only this process sees Ctrl-C;
    it stops, shuts its workers down (the runner stops them) and leaves nothing behind.

    Every child process on POSIX is started through ``_posixsubprocess.fork_exec`` (subprocess, loky's workers,
    multiprocessing's spawn and forkserver); the wrapper blocks SIGINT in the calling thread for the duration of
    the call only, so this process keeps receiving it. The runner's own forked workers (``littlestone.parallel``'s
    fork backend, started by ``os.fork``, not ``fork_exec``) do the equivalent themselves: SIGINT blocked across
    the fork, then ignored in the worker; the interrupted command kills them."""
    import signal

    try:
        import _posixsubprocess
    except ImportError:  # not POSIX
        return
    if not hasattr(signal, "pthread_sigmask") or getattr(_posixsubprocess.fork_exec, "_littlestone", False):
        return
    original = _posixsubprocess.fork_exec

    def fork_exec(*args: Any, **kwargs: Any) -> Any:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return original(*args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    fork_exec._littlestone = True  # type: ignore[attr-defined]
    _posixsubprocess.fork_exec = fork_exec


def main() -> None:
    """Console-script entry point."""
    _shield_workers_from_ctrl_c()
    app()


if __name__ == "__main__":
    main()
