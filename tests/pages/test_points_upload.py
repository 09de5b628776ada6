"""Your points from a CSV file, on every page that takes them: a good file replaces the points, a
hostile one (huge or non-finite coordinates, markup, too many classes) is one worded error and
the page goes on with the points it had — never an exception (issue 16)."""

import pytest
from conftest import assert_no_exception, open_page

from classic.lessons import tree as tree_lesson
from classic.tables import MAX_BYTES, MAX_COORDINATE

PAGES = {  # page: (the link that shows your points, the points' prefix)
    "perceptron": ({"pc_data": "Your points (click to place)"}, "pc"),
    "knn": ({"knn_data": "Your points"}, "knn_user"),
    "compare": ({"cmp_data": "Your points"}, "cmp_user"),
    "decision-tree": ({"tree_data": tree_lesson.YOURS}, "tree_user"),
}
HOSTILE = [
    b"x1,x2,label\n1e308,0,a\n-1e308,1,b\n0,0,a\n",
    b"x1,x2,label\n0,0,a\n%f,1,b\n" % (MAX_COORDINATE * 10),
    b"x1,x2,label\nnan,0,a\n1,1,b\n",
    b"x1,x2,label\n![x](http://example.com/a.png),0,a\n1,1,b\n",
    b"x1,x2,label\n" + b"".join(b"%d,%d,c%d\n" % (i, i, i) for i in range(9)),
]


def points(at, prefix: str) -> list[tuple]:
    frame = at.session_state[f"{prefix}_points"]
    return [tuple(row) for row in frame[["x1", "x2", "class"]].to_numpy().tolist()]


@pytest.mark.parametrize("page", PAGES)
def test_a_points_file_is_read_and_a_hostile_one_is_one_worded_error(page):
    link, prefix = PAGES[page]
    at = open_page(page, params=link)
    uploader = at.file_uploader(key=f"{prefix}_upload")
    uploader.set_value(("mine.csv", b"x1,x2,label\n0,0,a\n1,1,b\n0.5,0.2,a\n2,2,b\n", "text/csv")).run()
    assert_no_exception(at)
    good = points(at, prefix)
    assert good == [(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.5, 0.2, 0.0), (2.0, 2.0, 1.0)]
    for i, data in enumerate(HOSTILE):
        at.file_uploader(key=f"{prefix}_upload").set_value((f"bad{i}.csv", data, "text/csv")).run()
        assert_no_exception(at)
        errors = [e.value for e in at.error]
        assert len(errors) == 1 and "could not be read" in errors[0], (data, errors)
        assert "](http" not in errors[0].replace("\\]", "")
        assert points(at, prefix) == good  # the page goes on with the points it had


@pytest.mark.parametrize("page", PAGES)
def test_the_browser_refuses_uploads_larger_than_the_library_reads(page):
    """The uploaders tell the browser the limit (classic.tables.MAX_BYTES), so a 200 MB file is
    refused before the server holds it (Streamlit's default limit is 200 MB)."""
    link, prefix = PAGES[page]
    uploaders = [open_page(page, params=link).file_uploader(key=f"{prefix}_upload")]
    if page == "decision-tree":
        uploaders.append(
            open_page(page, params={"tree_data": "Upload a CSV"}).file_uploader(key="tree_upload")
        )
    for uploader in uploaders:
        assert uploader.proto.max_upload_size_mb == -(-MAX_BYTES // 1_000_000)  # 1 MB
