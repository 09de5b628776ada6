"""classic — a browser lab for the classic machine-learning algorithms.

Run with ``streamlit run app.py``. Run as Streamlit's script, this file sets the page config and
the navigation; each page lives in ``pages/`` and draws on the ``classic`` library. Imported by
``streamlit run`` (which finds the ``st.App`` below), it is the server, whose lifespan computes
what every session shares before the first visit (pages/server/warm.py).
"""

import faulthandler
import signal
from pathlib import Path

import streamlit as st
from threadpoolctl import threadpool_limits

from classic.lessons import LESSONS
from pages.classroom import class_panel, class_view
from pages.server import deployment, guard, memory, url, warm
from pages.widgets import deck, lesson, present

# One BLAS/OpenMP thread per process: the sessions share the cores, and a threaded BLAS stalls
# under that contention (measured in docs/deployment.md); parallelism comes from the sessions.
threadpool_limits(limits=1)

if __name__ == "__main__":  # Streamlit runs this file as the script of every page
    # A local icon before the navigation: a page's Material icon would otherwise be the favicon,
    # fetched from Google's CDN.
    st.set_page_config(page_icon=str(Path(__file__).parent / "assets" / "favicon.png"), layout="wide")
    PAGES = [
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
        *(st.Page(ls.file, title=ls.title, icon=ls.icon, url_path=ls.url_path) for ls in LESSONS),
        # A student's phone opens it from the projector's class code; not in the menu.
        st.Page("pages/join.py", title="Join a class", url_path=class_view.PHONE_PAGE, visibility="hidden"),
        # The teacher's own device reviews the class's drawings there, away from the projector.
        st.Page(
            "pages/review.py",
            title="Review the drawings",
            url_path=class_view.REVIEW_PAGE,
            visibility="hidden",
        ),
        # The lessons a teacher prepares: ready-made decks, one's own, the handout (linked from the
        # home page and from every lesson's "Add this view to my lesson"; the menu is the lessons').
        st.Page(
            "pages/decks.py",
            title="Lessons to teach",
            icon=":material/slideshow:",
            url_path="decks",
            visibility="hidden",
        ),
        # The teacher's report of the class (linked from the class's sidebar).
        st.Page(
            "pages/report.py",
            title="What the class missed",
            url_path=class_view.REPORT_PAGE,
            visibility="hidden",
        ),
    ]

    page = st.navigation(PAGES)
    # The title after the navigation, so that each page is titled by its own name (WCAG 2.4.2): a
    # title set before it overrides every page's for the session.
    st.set_page_config(page_title="classic" if page.url_path == "" else f"{page.title} · classic")
    lesson.set_class_hook(class_panel.LessonHook())  # "Try this" asks the class through it
    url.record_link()
    present.toggle()
    teaching = page.url_path != class_view.PHONE_PAGE  # a teacher's controls, never on the phones' page

    def below_the_page() -> None:
        """After every page's widgets: the teacher's class controls, below the page's own in the
        sidebar (above them they pushed a presenting page's controls off a 1280×720 screen), and a
        note for each link value Streamlit could not use."""
        if teaching:
            deck.add_button(page.url_path)
            class_panel.sidebar(page.url_path)
            deck.sync()  # the browser's own lesson, read once and written when it changes
        url.note_ignored_params()

    url.at_the_end(below_the_page)  # a page (or the slide bar) that stops early runs it before st.stop
    if teaching:
        class_panel.take_link()
        if page.url_path not in (
            class_view.REVIEW_PAGE,
            class_view.REPORT_PAGE,
        ):  # the teacher's own device: no join card
            class_panel.card(page.url_path)
        deck.bar(page.url_path)  # a prepared lesson playing: its slide, Previous / Next, its questions
    lesson.step_slot()  # the top of the page, for the "Try this" step just set up
    page.run()
    below_the_page()
else:  # `streamlit run app.py` imports this file as the server: warm the lessons, then serve
    deployment.start_checks()  # open files up to the hard limit; a Redis keeping nothing on disk warned of
    guard.install()  # no clear_cache from a browser; a widget value Streamlit cannot read is none
    memory.few_arenas()  # memory a busy lesson used goes back to the system (pages/server/memory.py)
    memory.housekeeping()
    # A server that seems stuck: `kill -USR1 <pid>` writes every thread's stack to its log, and
    # it serves on (the browser walk asks for this when a page stays busy: tests/browser/test_walk.py).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    app = st.App(__file__, lifespan=warm.warm_start)
