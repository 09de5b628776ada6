"""The digits page's drawing: the canvas, or the drawing a link carried.

The drawing travels in the link as one query parameter, ``digits_grid``: its 16×16 grid as 64
hexadecimal digits (``classic.digits.grid_to_hex``), written whenever the drawing's grid
changes and removed when the canvas is cleared or holds no digit. A page opened with a
readable ``digits_grid`` (read once a session) starts with that grid drawn on the canvas as
ink squares (``initial_drawing``) and classifies it as if it had been drawn, until the student
draws. A value that cannot be read gets a visible note, never an exception.

The canvas's "Reset canvas & history" button goes back to the drawing the canvas started
with, the link's squares: a canvas that sends back only those squares has been reset (or
undone to its start), so the link's drawing is dropped and the canvas emptied.
"""

from __future__ import annotations

import streamlit as st

from classic import digits
from classic.viz import digits as view
from pages.server import guard, url

PARAM = "digits_grid"
_STATE = "_digits_link"  # {"grid": the link's grid or None, "cleared": whether it was cleared}


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


# The canvas component's toolbar (undo, redo, edit, clear, download) rests invisible over the
# canvas's top right corner (top: -1rem, opacity 0) and rises above it on hover: a first touch
# there (a classroom's touch screen has no hover) pressed an invisible button. Its styles live in
# the component's shadow root, out of reach of the page's CSS, so this puts a rule in there:
# the toolbar always sits above the canvas (it is 2.9rem tall), never on the drawing area.
# The component's own styles come in a <link> that can load after the canvas shows: until then
# the drawing canvas sits below its background one (a canvas lower) and then jumps up, so that a
# stroke started as it appeared was drawn off the canvas and lost. The rules that place both
# canvases go in too, and into every component's shadow root as it is attached, before its canvas.
TOOLBAR_ABOVE = """<script>
(() => {
  if (window.classicCanvasStyles) return;
  window.classicCanvasStyles = true;
  const rules = '.dc-container { position: relative; } '
    + '.dc-background-canvas, .dc-canvas { position: absolute; top: 0; left: 0; } '
    + '.dc-toolbar { position: absolute; right: 0; opacity: 0; } '
    + '.dc-toolbar, .dc-root:hover > .dc-toolbar { top: -3rem !important; }';
  const isComponent = (el) => el.matches('[data-testid="stBidiComponentIsolated"]');
  const add = (root) => {  // every component's root: the rules only touch the canvas's .dc-* parts
    if (root.querySelector('style.toolbar-above')) return;
    const style = document.createElement('style');
    style.className = 'toolbar-above';
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


def _only_squares(json_data: dict | None) -> bool:
    """Whether the canvas holds the link's ink squares and nothing drawn."""
    objects = (json_data or {}).get("objects") or []
    return bool(objects) and all(o.get("type") in ("Rect", "rect") for o in objects)


def drawing(size: int, pen: int, **canvas: object) -> digits.Drawing:
    """Show the canvas (``size`` pixels square, pen ``pen``) and return the drawing to classify."""
    from streamlit_drawable_canvas import st_canvas  # a component: only under streamlit run / AppTest

    link = read_link()
    start = link["grid"] if not link["cleared"] else None
    # In the sidebar's foot, where its empty line takes no room: the canvas starts level with
    # what the page shows beside it.
    st.sidebar.html(TOOLBAR_ABOVE, unsafe_allow_javascript=True)
    shown = guard.guarded_component(
        lambda: st_canvas(
            stroke_width=pen,
            height=size,
            width=size,
            initial_drawing=None if start is None else view.grid_drawing(start, size),
            key="digits_canvas",
            **canvas,
        ),
        "the canvas",
    )
    image, json_data, refused = guard.drawing(shown, size)  # size and type checked before decoding
    if refused:
        st.warning(refused)
    if image is not None and _only_squares(json_data):
        image = None  # the reset canvas, or (just after the reset) its last value
        if start is not None:
            link["cleared"] = True
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
