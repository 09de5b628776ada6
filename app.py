"""classic — a browser lab for the classic machine-learning algorithms.

Run with ``streamlit run app.py``. This script sets the page config and the navigation; each
page lives in ``pages/`` and draws on the ``classic`` library.
"""

from pathlib import Path

import streamlit as st
from threadpoolctl import threadpool_limits

from pages._ui import present, url

# One BLAS/OpenMP thread per process, deliberately: on a 2-core server every session shares
# the cores, and a 2-thread BLAS stalls under that contention (a 7 ms product became 48 ms; the
# digits ladder took 24.5 s instead of 4.9 s). Parallelism comes from serving sessions instead.
threadpool_limits(limits=1)

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
]

page = st.navigation(PAGES)
url.record_link()
present.toggle()
page.run()
# After every page's widgets: a note for each link value Streamlit could not use (a page that
# stops early calls it itself before st.stop).
url.note_ignored_params()
