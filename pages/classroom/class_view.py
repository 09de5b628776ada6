"""What the projector shows of a class, as HTML: the join card (code, QR code, link) and a
round's bars. Pure functions of the room's numbers (no Streamlit, no store), so a test can read
them; ``class_panel`` puts them on the page.

Sizes are in rem, so presentation mode (a 20 px root) makes them larger still: the room code is
5 rem (100 px on a projector), readable from the back row; the QR code is 15 rem across. Every
text that reaches the HTML is escaped, and the QR code is drawn here as SVG (``segno``), inline in
the page: nothing is fetched.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from urllib.parse import urlencode, urlsplit

import segno

from classic.viz.theme import BORDER, FOCUS, INK, MUTED, PAPER, TEXT, VERDICT

PHONE_PAGE = "join"  # the phones' page (app.py's url_path for pages/join.py)
REVIEW_PAGE = "review"  # the teacher's own device reviews the drawings there (pages/review.py)
REPORT_PAGE = "report"  # what the class missed, question by question (pages/report.py)
_LOCAL = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def base_url(page_url: str | None, page_path: str) -> str:
    """The app's address without the current page's path: ``http://host:port/knn`` → ``http://host:port``
    (a base path the app is served under stays)."""
    url = (page_url or "").rstrip("/")
    if page_path and url.endswith("/" + page_path):
        url = url[: -len(page_path) - 1]
    return url


def join_link(base: str, code: str) -> str:
    """The link a phone opens: ``<server>/join?room=CODE`` (the teacher's key never in it)."""
    return f"{base}/{PHONE_PAGE}?" + urlencode({"room": code})


def is_local(link: str) -> bool:
    """Whether a link names this computer only (a phone cannot open it)."""
    return (urlsplit(link).hostname or "") in _LOCAL


def qr_svg(link: str) -> str:
    """The link as a QR code: an SVG in a ``data:`` URI (``st.html`` strips inline ``<svg>``), so
    nothing is fetched; it scales to its box. Error correction M: a projector's glare or a
    low-resolution camera still reads it."""
    return segno.make(link, error="m").svg_data_uri(omitsize=True, border=2, dark=INK, light=PAPER)


_CARD_CSS = f"""
<style>
.class-card {{ display: flex; gap: 2rem; align-items: center;
  border: 2px solid {BORDER}; border-radius: 0.6rem; padding: 0.6rem 1.2rem; background: {PAPER}; }}
.class-card .class-qr {{ width: 15rem; height: 15rem; flex: none; }}
.class-card .class-qr img {{ width: 100%; height: 100%; display: block; image-rendering: pixelated; }}
.class-card .class-text {{ flex: 1 1 auto; min-width: 0; }}
.class-card .class-label {{ font-size: 1.1rem; color: {MUTED}; margin: 0; }}
.class-card .class-code {{ font-size: 5rem; font-weight: 700; letter-spacing: 0.4rem; line-height: 1.1;
  color: {INK}; font-family: ui-monospace, "DejaVu Sans Mono", monospace; margin: 0 0 0.4rem; }}
.class-card .class-link {{ font-size: 1.5rem; color: {TEXT}; overflow-wrap: anywhere; margin: 0; }}
</style>
"""


def join_card(code: str, link: str) -> str:
    """The card a class reads from the projector: the room code, large, its QR code and the join link."""
    return (
        _CARD_CSS
        + '<div class="class-card" data-testid="class-join-card">'
        + f'<div class="class-qr"><img src="{qr_svg(link)}" alt="QR code of the join link"></div>'
        + '<div class="class-text"><p class="class-label">Join the class on your phone: scan the QR code or open the link</p>'
        + f'<p class="class-code" data-testid="class-code">{html.escape(code)}</p>'
        + f'<p class="class-link" data-testid="class-link">{html.escape(link)}</p></div></div>'
    )


def count_line(title: str, answered: int, joined: int, testid: str = "class-count") -> str:
    """The live count under a question: how many answered, never who has not (``testid``: the
    live count's, or a stopped vote's whose answers are not shown)."""
    answers = "answer" if answered == 1 else "answers"
    phones = "phone" if joined == 1 else "phones"
    return (
        f'<p style="font-size: 1.1rem; font-weight: 700; margin: 0; color: {TEXT}">{html.escape(title)}</p>'
        f'<p data-testid="{testid}" role="status" aria-live="polite" style="font-size: 2.25rem; font-weight: 700; margin: 0; color: {INK}">'
        f"{answered} {answers}"
        f'<span style="font-size: 1.1rem; font-weight: 400; color: {MUTED}"> · {joined} {phones} joined</span></p>'
    )


def question_line(number: int, text: str) -> str:
    """HTML: a phone's question, as text, in a polite live region (said when a new one arrives)."""
    return (
        f'<p role="status" aria-live="polite" data-testid="class-question" style="font-size: 1rem; margin: 0">'
        f"<strong>Question {number}.</strong> {html.escape(text)}</p>"
    )


def shares(counts: Sequence[int]) -> list[int]:
    """Each count's share of the total in whole percent, adding up to exactly 100 (0 each with no
    answers): the floors, then the points left over to the largest remainders (ties to the first)."""
    total = sum(counts)
    if not total:
        return [0] * len(counts)
    exact = [100 * count / total for count in counts]
    whole = [int(share) for share in exact]
    by_remainder = sorted(range(len(counts)), key=lambda i: (whole[i] - exact[i], i))
    for i in by_remainder[: 100 - sum(whole)]:
        whole[i] += 1
    return whole


def bars(title: str, choices: Sequence[str], counts: Sequence[int], right: int | None) -> str:
    """A round's answers, a bar per choice with its count and share; ``right`` (the right choice,
    once revealed) is marked with a tick and its own colour, so colour is never the only cue."""
    total = sum(counts)
    good_back, good_text = VERDICT["good"]
    rows = []
    for i, (choice, count, pct) in enumerate(zip(choices, counts, shares(counts), strict=True)):
        is_right = i == right
        colour = good_text if is_right else FOCUS
        mark = "✓ " if is_right else ""
        back = good_back if is_right else "transparent"
        # One row a choice: its text, its bar, its count and share.
        rows.append(
            f'<div class="class-bar" data-choice="{i}" style="display: grid; grid-template-columns: '
            f"minmax(5rem, 40%) 1fr 6.5rem; align-items: center; gap: 0.5rem; background: {back}; "
            f'padding: 0.05rem 0.3rem; margin: 0.1rem 0">'
            f'<div style="font-size: 1rem; color: {TEXT}; overflow-wrap: anywhere">{mark}{html.escape(choice)}</div>'
            f'<div style="background: {PAPER}; border: 1px solid {BORDER}; height: 1.2rem">'
            f'<div style="width: {pct}%; background: {colour}; height: 100%"></div></div>'
            f'<div data-testid="class-bar-count" style="font-size: 1rem; text-align: right; color: {TEXT}">'
            f"{count} ({pct}%)</div></div>"
        )
    head = f'<div style="font-size: 1.1rem; font-weight: 700; color: {TEXT}">{html.escape(title)} · {total} answers</div>'
    return f'<div class="class-round" data-testid="class-round">{head}{"".join(rows)}</div>'
