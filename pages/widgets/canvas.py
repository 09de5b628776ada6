"""The digits page's drawing: the canvas, or the drawing a link carried.

The drawing travels in the link as one query parameter, ``digits_grid``: its 16×16 grid as 64
hexadecimal digits (``classic.digits.grid_to_hex``), written whenever the drawing's grid
changes and removed when the canvas is cleared or holds no digit. A page opened with a
readable ``digits_grid`` (read once a session) starts with that grid drawn on the canvas as
ink squares (``initial_drawing``) and classifies it as if it had been drawn, until the student
draws. A value that cannot be read gets a visible note, never an exception.

Under the canvas, "Undo the last stroke", "Redo" and "Clear" are Streamlit buttons (``buttons``),
not the component's toolbar, whose buttons are too small to touch: Undo and Redo give the canvas
its own last drawing, checked (``reusable``), less or plus one stroke; Clear gives it a new key.
A canvas undone to the link's squares alone is back at its start: the link's drawing is dropped
and the canvas emptied. The phone's canvas in class mode uses ``pad`` and ``buttons`` too.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import streamlit as st

from classic import digits
from classic.viz import digits as view
from pages.server import guard, url

PARAM = "digits_grid"
_STATE = "_digits_link"  # {"grid": the link's grid or None, "cleared": whether it was cleared}
_NUMBER = "_digits_canvas_number"  # how many times Clear gave the canvas a new key


def read_link() -> dict:
    """The session's record of the link's drawing, read from the URL at its first run.

    Call it before the tabs, so that a value that cannot be read is noted whichever tab is open.
    """
    if _STATE in st.session_state:
        return st.session_state[_STATE]
    link = st.session_state[_STATE] = {"grid": None, "cleared": False}
    text = st.query_params.get(PARAM)
    if text is not None:
        try:
            link["grid"] = digits.grid_from_hex(text)
        except ValueError as error:
            st.query_params.pop(PARAM, None)
            ignored = url.code_span(f"{PARAM}={url._shown(text)}")
            st.info(
                "Some settings in this link could not be used:\n"
                f"- ignored {ignored} from the link ({url.escape_markdown(error)}; the canvas starts empty)",
                icon=":material/link_off:",
            )
    return link


# The canvas component's own toolbar (undo, redo, edit, reset) has buttons of 22×22 CSS px a few
# pixels apart, shown only on hover (a touch screen has none), in a shadow root the page's CSS cannot
# reach: too small to touch (WCAG 2.5.8). This hides it there; ``buttons`` gives its functions as
# Streamlit buttons under the canvas.
# The component's own styles come in a <link> that can load after the canvas shows: until then
# the drawing canvas sits below its background one (a canvas lower) and then jumps up, so that a
# stroke started as it appeared was drawn off the canvas and lost. The rules that place both
# canvases go in too, and into every component's shadow root as it is attached, before its canvas.
CANVAS_STYLES = """<script>
(() => {
  if (window.classicCanvasStyles) return;
  window.classicCanvasStyles = true;
  const rules = '.dc-container { position: relative; } '
    + '.dc-background-canvas, .dc-canvas { position: absolute; top: 0; left: 0; } '
    + '.dc-toolbar { display: none !important; }';
  const isComponent = (el) => el.matches('[data-testid="stBidiComponentIsolated"]');
  const add = (root) => {  // every component's root: the rules only touch the canvas's .dc-* parts
    if (root.querySelector('style.classic-canvas')) return;
    const style = document.createElement('style');
    style.className = 'classic-canvas';
    style.textContent = rules;
    root.appendChild(style);
  };
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (isComponent(this)) add(root);
    return root;
  };
  // A root attached before this script ran, or refilled since: look again twice a second (a
  // handful of elements) as well as on every change.
  const place = () => document.querySelectorAll('[data-testid="stBidiComponentIsolated"]').forEach(el => {
    if (el.shadowRoot) add(el.shadowRoot);
  });
  new MutationObserver(place).observe(document.body, {childList: true, subtree: true});
  setInterval(place, 500);
  place();
})();
</script>"""

# A drawing from the browser is given back to the canvas (Undo, Redo) only if it is what the canvas
# draws: strokes ("path") and the link's squares ("rect"), plain values, within these bounds.
MAX_OBJECTS = 400  # a digit is a few strokes; a link's grid is at most 256 squares
MAX_PATH_POINTS = 50_000  # pen commands in all the strokes together (an honest stroke has tens)
_KINDS = ("path", "rect")
_PADS = "_canvas_pads"


def _plain(value: object) -> bool:
    """A JSON scalar as fabric.js writes one: no nested objects, no long text."""
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= 64)


def reusable(json_data: dict | None) -> list[dict] | None:
    """The objects of a canvas's fabric.js JSON, copied, if they can go back into a canvas as its
    ``initial_drawing``; None otherwise (a type the canvas does not draw, an image's URL, a
    nested object, too many strokes or points)."""
    objects = (json_data or {}).get("objects") if isinstance(json_data, dict) else None
    if not isinstance(objects, list) or len(objects) > MAX_OBJECTS:
        return None
    copied, points = [], 0
    for shape in objects:
        if not isinstance(shape, dict) or len(shape) > 64 or str(shape.get("type", "")).lower() not in _KINDS:
            return None
        kept = {}
        for name, value in shape.items():
            if not isinstance(name, str) or len(name) > 40:
                return None
            if name == "path" and isinstance(value, list):
                points += len(value)
                if points > MAX_PATH_POINTS or not all(
                    isinstance(step, list) and len(step) <= 7 and all(map(_plain, step)) for step in value
                ):
                    return None
                kept[name] = [list(step) for step in value]
            elif name == "strokeDashArray" and isinstance(value, list):
                if len(value) > 16 or not all(isinstance(v, (int, float)) and _plain(v) for v in value):
                    return None
                kept[name] = list(value)
            elif _plain(value):
                kept[name] = value
            else:
                return None
        copied.append(kept)
    return copied


@dataclasses.dataclass
class Pad:
    """One canvas's Undo and Redo across runs. The buttons give the canvas a new ``initial_drawing``
    (the objects it last sent, checked, less or plus one stroke); the canvas loads it and sends it
    back. Each drawing given is numbered, so that the canvas reloads even the same objects."""

    key: str  # the canvas's key: a new key is a new canvas, with a new Pad
    drawing: dict | None = None  # the drawing the buttons last gave; None: the page's own
    loads: int = 0
    objects: list = dataclasses.field(default_factory=list)  # what the canvas holds, checked
    undone: list = dataclasses.field(default_factory=list)  # what Redo puts back, the last undone last
    waiting: list | None = None  # what the canvas sent before a button, until it sends the new drawing
    expected: int | None = None  # how many objects the drawing the buttons gave holds

    def initial(self, default: dict | None) -> dict | None:
        return default if self.drawing is None else self.drawing

    def see(self, json_data: dict | None) -> None:
        """The canvas's value in this run (``guard.drawing``'s JSON)."""
        objects = reusable(json_data)
        if self.waiting is not None and objects == self.waiting:
            return  # the run of the click: the canvas has not loaded the new drawing yet
        self.waiting = None
        self.objects = objects or []
        if objects is None or (self.expected is not None and len(objects) != self.expected):
            self.undone, self.expected = [], None  # a new stroke (or an unusable value): nothing to redo

    @property
    def can_undo(self) -> bool:
        return bool(self.objects) and str(self.objects[-1].get("type", "")).lower() == "path"

    def undo(self) -> None:
        if self.can_undo:
            self.undone.append(self.objects[-1])
            self._give(self.objects[:-1])

    def redo(self) -> None:
        if self.undone:
            self._give([*self.objects, self.undone.pop()])

    def _give(self, objects: list) -> None:
        self.waiting = self.waiting if self.waiting is not None else self.objects
        self.objects, self.expected, self.loads = objects, len(objects), self.loads + 1
        self.drawing = {"objects": objects, "classicLoad": self.loads}


def pad(name: str, key: str) -> Pad:
    """The Pad of the canvas ``name`` (one a page), new when its key is."""
    pads = st.session_state.setdefault(_PADS, {})
    if name not in pads or pads[name].key != key:
        pads[name] = Pad(key)
    return pads[name]


def buttons(sheet: Pad, name: str, clear: Callable[[], None] | None = None) -> None:
    """Undo, Redo (and Clear, given what it does) for the canvas, as Streamlit buttons: 40 px
    tall, labelled, apart (WCAG 2.5.8), where the component's own were 22 px and hover-only."""
    with st.container(horizontal=True, gap="small"):
        st.button(
            "Undo the last stroke",
            key=f"{name}_undo",
            icon=":material/undo:",
            on_click=sheet.undo,
            disabled=not sheet.can_undo,
        )
        st.button(
            "Redo", key=f"{name}_redo", icon=":material/redo:", on_click=sheet.redo, disabled=not sheet.undone
        )
        if clear is not None:
            st.button("Clear", key=f"{name}_clear", icon=":material/ink_eraser:", on_click=clear)


def _only_squares(json_data: dict | None) -> bool:
    """Whether the canvas holds the link's ink squares and nothing drawn."""
    objects = (json_data or {}).get("objects") or []
    return bool(objects) and all(o.get("type") in ("Rect", "rect") for o in objects)


def _clear(link: dict) -> None:
    """Clear's callback: a new key (an empty canvas), and the link's drawing gone with its grid."""
    st.session_state[_NUMBER] = st.session_state.get(_NUMBER, 0) + 1
    link["cleared"] = True
    st.query_params.pop(PARAM, None)


def drawing(size: int, pen: int, **canvas: object) -> digits.Drawing:
    """Show the canvas (``size`` pixels square, pen ``pen``) and its buttons; return the drawing to classify."""
    from streamlit_drawable_canvas import st_canvas  # a component: only under streamlit run / AppTest

    link = read_link()
    start = link["grid"] if not link["cleared"] else None
    number = st.session_state.get(_NUMBER, 0)
    sheet = pad("digits", "digits_canvas" if not number else f"digits_canvas_{number}")
    # In the sidebar's foot, where its empty line takes no room: the canvas starts level with
    # what the page shows beside it.
    st.sidebar.html(CANVAS_STYLES, unsafe_allow_javascript=True)
    shown = guard.guarded_component(
        lambda: st_canvas(
            stroke_width=pen,
            height=size,
            width=size,
            initial_drawing=sheet.initial(None if start is None else view.grid_drawing(start, size)),
            key=sheet.key,
            **canvas,
        ),
        "the canvas",
    )
    image, json_data, refused = guard.drawing(shown, size)  # size and type checked before decoding
    sheet.see(json_data)  # its objects checked before they can go back to the canvas
    buttons(sheet, "digits_strokes", clear=lambda: _clear(link))
    if refused:
        st.warning(refused)
    if image is not None and _only_squares(json_data):
        image = None  # the canvas undone to the link's squares, or (just after) its last value
        if start is not None:
            link["cleared"] = True
            sheet.drawing = None
            st.query_params.pop(PARAM, None)
            st.rerun()  # the canvas, given no initial drawing, empties itself
    read = digits.read_drawing(image)
    if read.status == "empty" and start is not None:
        read = digits.Drawing(start, "ok", "")
    if not read.ok:
        st.query_params.pop(PARAM, None)
    elif st.query_params.get(PARAM) != (text := digits.grid_to_hex(read.grid)):
        st.query_params[PARAM] = text
    return read
