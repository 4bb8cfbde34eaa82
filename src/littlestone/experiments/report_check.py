"""Render a report in headless Chromium at desktop and phone widths and list what does not read: sideways overflow
(the page, or any box scrolling sideways), text below 10 px, and figures whose smallest text — the figure's own
``data-min-text-px`` (text height in the PNG, written by the plotting code) times the displayed/natural width ratio
— renders below 10 px.

``python -m littlestone.experiments.report_check littlestone-report/index.html [--screenshots DIR]`` exits 1 and
prints one line per problem. Needs the optional extra ``pip install 'littlestone[report-check]'`` (playwright) and
a Chromium: ``--browser PATH``, else ``$LITTLESTONE_CHROMIUM``, else ``chromium`` / ``chromium-browser`` on PATH
(Debian: ``apt-get install chromium``), else playwright's own download.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

#: viewport widths checked (a desktop browser, a phone)
WIDTHS = (1280, 390)
#: the smallest legible text, CSS px
MIN_TEXT_PX = 10.0

_PROBE = """(minPx) => {
  const problems = [];
  const vw = document.documentElement.clientWidth;
  const sw = document.documentElement.scrollWidth;
  if (sw > vw + 1) problems.push(`page is ${sw} px wide in a ${vw} px viewport (sideways scrolling)`);
  const what = (el) => {
    const t = (el.getAttribute('alt') || el.textContent || '').trim().replace(/\\s+/g, ' ');
    return `<${el.tagName.toLowerCase()}> "${t.slice(0, 50)}"`;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > vw + 1 && !el.closest('[data-zoom]'))
      problems.push(`${what(el)} ends at ${Math.round(r.right)} px, past the ${vw} px viewport`);
    if (el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll', 'hidden'].includes(cs.overflowX)
        && !el.hasAttribute('data-zoom'))
      problems.push(`${what(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px (cut or scrolled sideways)`);
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (ownText && parseFloat(cs.fontSize) < minPx)
      problems.push(`${what(el)}: text at ${cs.fontSize}`);
    if (el.tagName === 'IMG' && el.dataset.minTextPx && el.naturalWidth) {
      const px = parseFloat(el.dataset.minTextPx) * r.width / el.naturalWidth;
      if (px < minPx) problems.push(`${what(el)}: its smallest text renders at ${px.toFixed(1)} px`);
    }
  }
  return problems;
}"""


def find_chromium(explicit: str | None = None) -> str | None:
    """The browser to drive: an explicit path, $LITTLESTONE_CHROMIUM, or a system chromium on PATH (None: let
    playwright use its own download, if any)."""
    for cand in (explicit, os.environ.get("LITTLESTONE_CHROMIUM")):
        if cand:
            return cand
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def check_report(
    path: str | Path, *, widths: tuple[int, ...] = WIDTHS, browser: str | None = None, screenshots: Path | None = None
) -> dict[int, list[str]]:
    """Problems per viewport width (empty lists: the report reads at every width)."""
    from playwright.sync_api import sync_playwright

    url = Path(path).resolve().as_uri()
    found: dict[int, list[str]] = {}
    with sync_playwright() as pw:
        exe = find_chromium(browser)
        b = pw.chromium.launch(executable_path=exe, args=["--no-sandbox"]) if exe else pw.chromium.launch()
        try:
            for w in widths:
                page = b.new_page(viewport={"width": w, "height": 900})
                page.goto(url)
                page.wait_for_load_state("load")
                found[w] = list(dict.fromkeys(page.evaluate(_PROBE, MIN_TEXT_PX)))
                if screenshots is not None:
                    screenshots.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(screenshots / f"report-{w}.png"), full_page=True)
                page.close()
        finally:
            b.close()
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("--browser", help="path of the Chromium to drive")
    ap.add_argument("--screenshots", type=Path, help="write full-page screenshots report-<width>.png here")
    args = ap.parse_args(argv)
    try:
        found = check_report(args.report, browser=args.browser, screenshots=args.screenshots)
    except ImportError:
        print("report_check needs playwright: pip install 'littlestone[report-check]'", file=sys.stderr)
        return 2
    bad = 0
    for w, problems in found.items():
        print(f"{w} px: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        for p in problems:
            print(f"  {p}")
        bad += len(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
