"""classic — a browser lab for the classic machine-learning algorithms.

Run with ``streamlit run app.py``. Run as Streamlit's script, this file sets the page config and
the navigation; each page lives in ``pages/`` and draws on the ``classic`` library. Imported by
``streamlit run`` (which finds the ``st.App`` below), it is the server, whose lifespan computes
what every session shares before the first visit (pages/_ui/shared.py).
"""

import faulthandler
import signal
from pathlib import Path

import streamlit as st
from threadpoolctl import threadpool_limits

from pages._ui import class_panel, class_view, guard, lesson, memory, present, shared, url

# One BLAS/OpenMP thread per process, deliberately: on a 2-core server every session shares
# the cores, and a 2-thread BLAS stalls under that contention (a 7 ms product became 48 ms; the
# digits ladder took 24.5 s instead of 4.9 s). Parallelism comes from serving sessions instead.
threadpool_limits(limits=1)

if __name__ == "__main__":  # Streamlit runs this file as the script of every page
    # A local icon: a Material icon here would be fetched from Google's CDN as the favicon.
    st.set_page_config(
        page_title="classic", page_icon=str(Path(__file__).parent / "assets" / "favicon.png"), layout="wide"
    )

    PAGES = [
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
        st.Page("pages/perceptron.py", title="Perceptron", icon=":material/timeline:", url_path="perceptron"),
        st.Page("pages/knn.py", title="k-NN", icon=":material/scatter_plot:", url_path="knn"),
        st.Page(
            "pages/decision-tree.py",
            title="ID3 decision tree",
            icon=":material/account_tree:",
            url_path="decision-tree",
        ),
        st.Page("pages/digits.py", title="Digits", icon=":material/draw:", url_path="digits"),
        st.Page("pages/compare.py", title="Compare", icon=":material/compare:", url_path="compare"),
        # A student's phone opens it from the projector's class code; not in the menu.
        st.Page("pages/join.py", title="Join a class", url_path="join", visibility="hidden"),
    ]

    page = st.navigation(PAGES)
    url.record_link()
    present.toggle()
    teaching = page.url_path != class_view.PHONE_PAGE  # a teacher's controls, never on the phones' page
    if teaching:
        class_panel.take_link()
        class_panel.card(page.url_path)
    lesson.step_slot()  # the top of the page, for the "Try this" step just set up

    def below_the_page() -> None:
        """After every page's widgets: the teacher's class controls, below the page's own in the
        sidebar (above them they pushed a presenting page's controls off a 1280×720 screen), and a
        note for each link value Streamlit could not use."""
        if teaching:
            class_panel.sidebar(page.url_path)
        url.note_ignored_params()

    url.at_the_end(below_the_page)  # a page that stops early runs it before st.stop
    page.run()
    below_the_page()
else:  # `streamlit run app.py` imports this file as the server: warm the lessons, then serve
    guard.install()  # no clear_cache from a browser; a widget value Streamlit cannot read is none
    memory.few_arenas()  # memory a busy lesson used goes back to the system (pages/_ui/memory.py)
    memory.housekeeping()
    # A server that seems stuck: `kill -USR1 <pid>` writes every thread's stack to its log, and
    # it serves on (the browser walk asks for this when a page stays busy: tests/browser/test_walk.py).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    app = st.App(__file__, lifespan=shared.warm_start)
