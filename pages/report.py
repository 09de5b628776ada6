"""What the class missed: the teacher's report, question by question (pages/classroom/report.py),
while the class runs and after it ends, until the room expires. Printable from the browser;
downloadable as CSV. Hidden from the menu: the class's sidebar links to it."""

import streamlit as st

from pages.classroom import class_panel, report
from pages.server.shell import ensure_app_shell
from pages.widgets import downloads

ensure_app_shell()

# Printed, the page is the report: no sidebar, no header, no buttons.
st.html(
    """<style>@media print {
[data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"],
.stDownloadButton, [data-testid="stSidebarCollapsedControl"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 0 !important; max-width: none !important; }
}</style>"""
)
st.title("What the class missed")
teacher = class_panel.taught()
if teacher is None:
    st.info(
        "Open this page from a class you teach (its link is in the class's sidebar): it shows, question by "
        "question, how many were right at each vote and what the class missed.",
        icon=":material/lock:",
    )
    st.stop()


@st.fragment(run_every=5)
def shown() -> None:
    found = class_panel.attempt(report.lines, teacher.store, teacher.code, teacher.key)
    if found is None:
        st.warning("The class cannot be reached right now: try again in a moment.", icon=":material/warning:")
        return
    rows, withheld = found
    st.caption(
        f"Class {teacher.code}: {len(rows)} question(s)"
        + (f"; {withheld} being asked now, shown once revealed" if withheld else "")
        + ". Vote 1 and vote 2 are the same question before and after a discussion; the same kind is a new "
        "question of that kind, answered alone. Print it with your browser (Ctrl+P)."
    )
    if not rows:
        st.info("No question has been revealed yet.", icon=":material/hourglass_empty:")
        return
    table = {column: [row[column] for row in rows] for column in report.COLUMNS}
    st.table(table)
    st.download_button(
        "Download the report (CSV)",
        downloads.table_csv(table),
        file_name=f"class-{teacher.code}-report.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        key="report_csv",
    )


shown()
