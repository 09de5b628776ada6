"""The rule of an honest question, in Chromium at 1280×720 in presentation mode: each "Try this"
step, set up, shows none of its ``tells`` anywhere on the page (the players' own texts, drawn in
their shadow roots, included) until the answer is chosen, and all of them after. Screenshots of
each asked step before and after the reveal: ``honest-<page>-<step>-asked.png`` and
``-revealed.png``. The steps come from the page itself (AppTest), so a step added is checked."""

from __future__ import annotations

import pytest
from conftest import SCREENSHOTS, app_pages, open_page, wait_for_app, wait_for_layout
from test_classroom import set_up_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = [page.path for page in app_pages(menu_only=True) if page.path]

# Every text the page shows: its elements' own text nodes and the players' shadow roots, and
# what each chart says in its accessible description (Vega-Lite draws text on a canvas).
TEXT_JS = """() => {
  const out = [];
  const walk = root => {
    const tree = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = tree.currentNode; n; n = tree.nextNode()) {
      if (n.nodeType === 3) {
        const el = n.parentElement;
        if (el && !['SCRIPT', 'STYLE'].includes(el.tagName) && el.getClientRects().length) out.push(n.textContent);
      } else if (n.shadowRoot) walk(n.shadowRoot);
    }
  };
  walk(document.querySelector('[data-testid="stMain"]'));
  document.querySelectorAll('[data-testid="stMain"] [aria-label]').forEach(el => out.push(el.getAttribute('aria-label')));
  return out.join('\\n');
}"""


@pytest.fixture(scope="module")
def projector(browser_context):
    page = browser_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 720})
    yield page
    page.close()


def _steps(path: str):
    return open_page(path).session_state[f"{path}_try_steps"]


@pytest.mark.parametrize("path", PAGES)
def test_every_step_hides_its_answer_in_the_browser_until_it_is_revealed(server, projector, path):
    page = projector
    steps = _steps(path)
    failures = []
    for i, step in enumerate(steps, start=1):
        set_up_step(page, server, path, i)
        asked = page.locator(".st-key-try_step")
        asked.get_by_text(step.question, exact=True).wait_for(timeout=120_000)
        wait_for_app(page, timeout=120_000)
        wait_for_layout(page)
        text = page.evaluate(TEXT_JS)
        page.screenshot(path=str(SCREENSHOTS / f"honest-{path}-{i}-asked.png"))
        shown = [token for token in step.tells if token in text]
        if shown:
            failures.append(f"/{path} step {i} shows {shown} before the reveal")
        asked.get_by_role("radio", name=step.answer, exact=True).check(force=True)
        asked.get_by_text(step.answer, exact=False).last.wait_for(timeout=60_000)
        wait_for_app(page, timeout=120_000)
        wait_for_layout(page)
        text = page.evaluate(TEXT_JS)
        page.screenshot(path=str(SCREENSHOTS / f"honest-{path}-{i}-revealed.png"))
        missing = [token for token in step.tells if token not in text]
        if missing:
            failures.append(f"/{path} step {i} does not show {missing} after the reveal")
    assert not failures, "\n".join(failures)
