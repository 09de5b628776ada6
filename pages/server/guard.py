"""Values from a browser, checked on the server: one place per kind of input.

A student with the browser's console can send any value for any widget or component, whatever
the browser-side checks (a slider's range, a table's column limits, a canvas's size). Every
value that reaches a page from a component is read through here: a number is clamped into its
range or ignored, a point must be two finite coordinates within ``classic.tables``' limits, a
drawing must be a PNG no larger than ``MAX_CANVAS_PX`` a side before it is decoded. What was
ignored gets a short note (a toast, or the caller shows the returned text); nothing raises.

``install`` (called by app.py when the server starts) adds two guards inside Streamlit itself:
its ``clear_cache`` message, which any connection may send and which emptied every cache of
every session, clears only the sender's own session state; and a widget value that the widget's
own deserializer cannot read counts as no value, instead of an exception before the script.
"""

from __future__ import annotations

import base64
import binascii
import io
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st
from streamlit.logger import get_logger

from classic.tables import COORDINATES, MAX_COORDINATE, MAX_POINTS
from pages.server import streamlit_private

_LOG = get_logger(__name__)

# The digits canvas sends a PNG of exactly its own size (streamlit-drawable-canvas 0.13:
# ``toDataURL({multiplier: 1})``, no retina scaling), 240 or 280 px; a fixed bound leaves room
# for a larger presentation canvas; a declared size is refused before decoding (docs/measurements.md).
MAX_CANVAS_PX = 1024
MAX_DRAWING_CHARS = (
    900_000  # the data URL (base64), under the 1 MB a message; an honest drawing is far smaller
)
_PNG = b"\x89PNG\r\n\x1a\n"


def note(text: str) -> None:
    """Tell the student a value their browser sent was not used (a toast: it may come from a callback)."""
    from pages.server.url import escape_markdown

    st.toast(escape_markdown(text), icon=":material/block:")


def number(value: Any, low: float, high: float, default: float, what: str, whole: bool = False) -> float:
    """``value`` as a number clamped to ``low`` … ``high`` (a whole one if ``whole``); ``default``,
    with a note, when it is no finite number."""
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        number = math.nan
    if not math.isfinite(number) or (whole and number != int(number)):
        note(f"Ignored {what} = {shown(value)} from the browser: not a {'whole ' if whole else ''}number.")
        return default
    used = min(max(number, low), high)
    if used != number:
        note(f"{what} = {shown(value)} from the browser is outside {low:g} … {high:g}: using {used:g}.")
    return int(used) if whole else used


def point(value: Any, what: str = "a click") -> tuple[float, float] | None:
    """A clicked point ``{"x": …, "y": …}`` (or ``{"x1": …, "x2": …}``) as two finite coordinates
    within ±MAX_COORDINATE; None, with a note, otherwise."""
    if not isinstance(value, dict):
        if value is not None:
            note(f"Ignored {what} from the browser: not a point.")
        return None
    names = ("x", "y") if "x" in value or "y" in value else ("x1", "x2")
    try:
        x, y = (float(value[name]) for name in names)
    except (KeyError, TypeError, ValueError, OverflowError):
        note(f"Ignored {what} from the browser: it needs two numbers {names[0]} and {names[1]}.")
        return None
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in (x, y)):
        note(f"Ignored {what} at ({shown(x)}, {shown(y)}) from the browser: {COORDINATES}.")
        return None
    return x, y


def room_for(count: int, what: str = "a point") -> bool:
    """Whether one more point fits in a set of ``count`` (a note when it does not)."""
    if count < MAX_POINTS:
        return True
    note(f"Ignored {what}: you have {count:,} points; the limit is {MAX_POINTS:,}.")
    return False


def shown(value: Any, limit: int = 40) -> str:
    """A browser's value shortened for a note (the note escapes it)."""
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def table_edits(edits: Any, rows: int, what: str = "table") -> str | None:
    """Why a data editor's edits (its state: ``edited_rows``, ``added_rows``, ``deleted_rows``) on a
    table of ``rows`` rows must be refused before Streamlit applies them, or None: they are not
    that shape, or they would leave more than MAX_POINTS rows (a huge paste costs seconds a rerun)."""
    if edits is None:
        return None
    if not isinstance(edits, dict):
        return f"the {what}'s edits from the browser are not a table's edits"
    added, edited, deleted = (
        edits.get(k, d) for k, d in (("added_rows", []), ("edited_rows", {}), ("deleted_rows", []))
    )
    if not (isinstance(added, list) and isinstance(edited, dict) and isinstance(deleted, list)):
        return f"the {what}'s edits from the browser are not a table's edits"
    rows_ok = all(isinstance(row, dict) for row in [*added, *edited.values()])
    if not rows_ok or not all(isinstance(i, int) and not isinstance(i, bool) for i in deleted):
        return f"the {what}'s edits from the browser are not a table's edits"
    if len(edited) > rows or len(deleted) > rows:
        return f"the {what}'s edits name rows it does not have"
    count = rows + len(added) - len(set(deleted) & set(range(rows)))
    if count > MAX_POINTS:
        return f"the {what} has {count:,} points; the limit is {MAX_POINTS:,}"
    return None


def guarded_component(show: Callable[[], Any], what: str) -> Any:
    """``show()`` (a component's call), or None with a note when the component cannot read the
    state the browser sent back (a third-party component parses it without checks)."""
    try:
        return show()
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as error:
        _LOG.warning("%s: ignored a state the browser sent (%s)", what, type(error).__name__)
        note(f"Ignored what the browser sent for {what}: it is not what {what} sends.")
        return None


def drawing(result: Any, canvas_px: int = MAX_CANVAS_PX) -> tuple[np.ndarray | None, dict | None, str]:
    """A canvas's image (RGBA array) and fabric.js JSON from ``st_canvas``'s result, both checked
    before any decoding: ``(image, json, note)``, image None with a note when refused.

    The data URL must be a PNG of at most MAX_DRAWING_CHARS characters whose header declares at
    most ``max(canvas_px, MAX_CANVAS_PX)`` pixels a side; the JSON must be a dict whose
    ``objects`` are dicts.
    """
    if result is None:
        return None, None, ""
    raw = result.json_data
    objects = raw.get("objects") if isinstance(raw, dict) else None
    json = raw if isinstance(objects, list) and all(isinstance(o, dict) for o in objects) else None
    refused, bound = "The drawing from the browser was not used: ", max(canvas_px, MAX_CANVAS_PX)
    if not hasattr(result, "_image_data_url"):  # an image already decoded (the page tests' canvas)
        image = None if result.image_data is None else np.asarray(result.image_data)
        if image is not None and (image.ndim not in (2, 3) or max(image.shape[:2]) > bound):
            return None, json, refused + f"it is {image.shape} pixels; the limit is {bound}×{bound}."
        return image, json, ""
    url = result._image_data_url  # CanvasResult's data URL, read before its image_data decodes it
    if url is None:
        return None, json, ""
    if not isinstance(url, str) or not url.startswith("data:image/png;base64,"):
        return None, json, refused + "it is not a PNG image."
    if len(url) > MAX_DRAWING_CHARS:
        return None, json, refused + f"it has {len(url):,} characters; the limit is {MAX_DRAWING_CHARS:,}."
    try:
        data = base64.b64decode(url.split(",", 1)[1], validate=True)
    except (binascii.Error, ValueError):
        return None, json, refused + "it is not a PNG image."
    if len(data) < 24 or not data.startswith(_PNG) or data[12:16] != b"IHDR":
        return None, json, refused + "it is not a PNG image."
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if not (0 < width <= bound and 0 < height <= bound):
        return None, json, refused + f"it is {width:,}×{height:,} pixels; the limit is {bound}×{bound}."
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            image = image.convert("RGBA")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None, json, refused + "it is not a readable PNG image."
    return np.asarray(image), json, ""


# The settings a public deployment needs (.streamlit/config.toml has them; docs/deployment.md says why).
SAFE_SETTINGS = {
    "server.maxUploadSize": (lambda v: v <= 1, "at most 1 (MB): uploads are CSV files of 1 MB at most"),
    "server.maxWidgetStateSize": (lambda v: v <= 1, "at most 1 (MB) a message from a browser"),
    "server.enableXsrfProtection": (lambda v: v is True, "true"),
    "client.showErrorDetails": (lambda v: v in ("type", "none", False), '"type" (no tracebacks shown)'),
}


def deployment_problems(options: dict[str, Any] | None = None) -> list[str]:
    """The settings that a public deployment must change, each with what it needs: this server's
    own, or those in ``options`` (``{"server.maxUploadSize": 1, ...}``, a missing one read from
    the server)."""
    from streamlit import config

    def value(name: str) -> Any:
        return options[name] if options and name in options else config.get_option(name)

    return [
        f"{name} = {value(name)!r}; it should be {want}"
        for name, (ok, want) in SAFE_SETTINGS.items()
        if not ok(value(name))
    ]


def install() -> None:
    """The server's own guards (app.py calls it when the server starts): see the two below; and a
    warning in the server's log for each setting a public deployment must change."""
    streamlit_private.refuse_cache_clear()
    streamlit_private.unreadable_widget_states_are_absent()
    for problem in deployment_problems():
        _LOG.warning("Not safe for a public deployment: %s (see .streamlit/config.toml)", problem)
