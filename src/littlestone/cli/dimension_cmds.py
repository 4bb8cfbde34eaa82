"""``littlestone ldim`` and ``littlestone tree``: dimensions of a class and its deepest shattered mistake tree."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from ..errors import LittlestoneError, SearchBudgetError
from ..io import check_output_file, write_figure_atomically
from ._common import CLASS_OPTION, console_for, load_class, need, working

LDIM_EPILOG = """Examples:

  littlestone ldim --class thresholds:1000

  littlestone ldim --class points --vc --dual

  littlestone ldim --class conjunctions:5,2 --tree tree.png

  littlestone ldim --class intervals:16 --vc --dual --max-nodes 1000000

  littlestone ldim --class matrix.csv          (rows = hypotheses, columns = points)"""

TREE_EPILOG = """Examples:

  littlestone tree --class thresholds:15

  littlestone tree --class intervals:8 --out tree.png --max-depth 4"""


def ldim(
    hclass: str = CLASS_OPTION,
    tree: Optional[Path] = typer.Option(
        None, "--tree", metavar="PNG", help="Draw a witness mistake tree to this PNG ('-' = standard output)."
    ),
    vc: bool = typer.Option(False, "--vc", help="Also print the VC dimension."),
    dual: bool = typer.Option(
        False, "--dual", help="Also print the dual Littlestone (and with --vc, dual VC) dimension."
    ),
    threshold: bool = typer.Option(False, "--threshold", help="Also print the threshold dimension."),
    max_nodes: Optional[str] = typer.Option(
        None,
        "--max-nodes",
        metavar="N|none",
        help="Cap on the exact searches of --vc / --dual --vc (candidate sets, default 5,000,000) and --threshold "
        "(states, default 1,000,000) of a class with no closed form; 'none' = no cap (may run for a very long time).",
    ),
) -> None:
    """Print the Littlestone dimension of a class (exact; Ldim(∅) = −1)."""
    caps = _search_caps(max_nodes)
    if tree is not None:
        check_output_file(tree)
    say = console_for(tree)
    H = load_class(hclass)
    dims = need("littlestone.dimensions", "the dimensions module")
    with working(f"computing Ldim of {H.name}"):
        if tree is not None:
            d, witness = dims.ldim(H, witness=True)
        else:
            d, witness = dims.ldim(H), None
    say.print(f"Ldim({escape(H.name)}) = [bold]{d}[/]")
    extras = []
    if vc:
        extras.append(("VC", "vc_dim"))
    if dual:
        extras.append(("dual Ldim", "dual_ldim"))
    if dual and vc:
        extras.append(("dual VC", "dual_vc_dim"))
    if threshold:
        extras.append(("threshold dim", "threshold_dim"))
    for label, fn_name in extras:
        if d == -1:
            say.print(f"{label}({H.name}): not defined — the class is empty", markup=False)
            continue
        fn = getattr(dims, fn_name, None)
        if fn is None:
            raise LittlestoneError(f"the {label} dimension is not available in this installation")
        with working(f"computing {label} of {H.name}"):
            try:
                value = fn(H, **caps.get(fn_name, {}))
            except TypeError as exc:  # e.g. an infinite domain the brute-force search cannot enumerate
                raise LittlestoneError(f"cannot compute the {label} dimension of {H.name}: {exc}") from None
            except SearchBudgetError as exc:
                raise LittlestoneError(
                    f"{exc.what}: the exact search reached its cap ({exc.cap:,} "
                    f"{'candidate sets' if exc.parameter == 'max_nodes' else 'states'}) without finishing (it is "
                    "exponential in general); rerun with a larger --max-nodes N, or --max-nodes none for no cap, "
                    "or use a smaller class"
                ) from None
        say.print(f"{label}({escape(H.name)}) = [bold]{value}[/]")
    if tree is not None:
        if witness is None:
            say.print("the class is empty: no tree to draw")
            return
        write_figure_atomically(
            lambda p: witness.to_png(p, title=f"mistake tree shattered by {H.name} (depth {d})"), tree
        )
        say.print(f"witness tree (depth {d}) drawn to {tree}", markup=False)


def _search_caps(text: Optional[str]) -> dict[str, dict[str, Optional[int]]]:
    """The keyword arguments of the capped searches for --max-nodes (none given: the library's defaults)."""
    if text is None:
        return {}
    t = text.strip().lower()
    cap: Optional[int]
    if t == "none":
        cap = None
    else:
        try:
            cap = int(t.replace("_", "").replace(",", ""))
        except ValueError:
            cap = 0
        if cap < 1:
            raise LittlestoneError(f"--max-nodes must be a positive integer or 'none', got {text!r}")
    return {"vc_dim": {"max_nodes": cap}, "dual_vc_dim": {"max_nodes": cap}, "threshold_dim": {"max_states": cap}}


def tree(
    hclass: str = CLASS_OPTION,
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        "-o",
        metavar="PNG",
        help="Also draw the tree to this PNG ('-' = standard output; the text then goes to stderr).",
    ),
    max_depth: int = typer.Option(6, "--max-depth", min=0, help="Levels drawn (deeper subtrees shown as '…')."),
) -> None:
    """Print a deepest mistake tree shattered by the class (the witness of its Littlestone dimension)."""
    if out is not None:
        check_output_file(out)
    say = console_for(out)
    H = load_class(hclass)
    dims = need("littlestone.dimensions", "the dimensions module")
    with working(f"finding a shattered tree of {H.name}"):
        d, witness = dims.ldim(H, witness=True)
    if witness is None:
        say.print(f"{H.name} is empty (Ldim = −1): no tree", markup=False)
        return
    say.print(f"Ldim({H.name}) = {d}; a shattered mistake tree (label-0 child first):", markup=False)
    say.print(witness.to_text(max_depth=max_depth), markup=False)
    if out is not None:
        write_figure_atomically(
            lambda p: witness.to_png(p, max_depth=max_depth, title=f"mistake tree shattered by {H.name} (depth {d})"),
            out,
        )
        say.print(f"drawn to {out}", markup=False)


def register(app: typer.Typer) -> None:
    app.command(epilog=LDIM_EPILOG)(ldim)
    app.command(epilog=TREE_EPILOG)(tree)
