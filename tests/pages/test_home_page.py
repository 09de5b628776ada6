"""The home page in AppTest: every page linked, each with what it teaches; the caption's promise."""

from conftest import assert_no_exception, open_page

PAGES = {
    "pages/perceptron.py": "Perceptron",
    "pages/knn.py": "k-nearest neighbours",
    "pages/decision-tree.py": "ID3 decision tree",
    "pages/digits.py": "Handwritten digits",
    "pages/compare.py": "Three classifiers, one data set",
}


def test_every_page_is_linked_with_what_it_teaches():
    at = open_page("home")
    assert_no_exception(at)
    assert sorted(h.value for h in at.header) == sorted([*PAGES.values(), "Ready-made lessons"])
    links = at.get("page_link")
    # A page link carries the page's URL path: each lesson's, and the lessons to teach (issue 34).
    assert sorted(link.proto.page for link in links) == sorted(
        [*(p[len("pages/") : -len(".py")] for p in PAGES), "decks"]
    )
    teaches = [m.value for m in at.markdown if m.value.startswith("**Teaches:**")]
    assert len(teaches) == len(PAGES)


def test_every_ready_made_lesson_opens_from_the_home_page():
    """Issue 34: each ready-made deck (the registry) has its button on the home page, which plays
    its first slide (its link: the slide's page, with deck= and slide=1)."""
    from classic.lessons import decks

    at = open_page("home")
    buttons = {b.key: b for b in at.button if b.key.startswith("home_deck_")}
    assert sorted(buttons) == sorted(f"home_deck_{name}" for name in decks.READY)
    name = next(iter(decks.READY))
    buttons[f"home_deck_{name}"].click().run()
    assert_no_exception(at)
    first = decks.ready(name).slides[0]
    sent = [h.proto.body for h in at.get("html") if "location.assign" in h.proto.body]
    assert (
        len(sent) == 1
        and f'"/{first.page}?' in sent[0]
        and f"deck={name}" in sent[0]
        and 'slide=1"' in sent[0]
    )


def test_the_source_the_caption_calls_wrong_is_flagged_on_its_page():
    """The caption says the tree page sets the post's hand-drawn tree (Wind at the root) beside
    ID3's: on Arya's data the page must speak of the post's tree and of Wind."""
    home = open_page("home")
    caption = " ".join(c.value for c in home.caption)
    assert "hand-drawn tree (Wind at the root)" in caption
    tree = open_page("decision-tree")
    tree.selectbox(key="tree_data").set_value("Arya's riding data (the post)").run()
    assert_no_exception(tree)
    shown = " ".join(
        [e.value for e in (*tree.markdown, *tree.caption, *tree.info, *tree.success, *tree.warning)]
        + [r.label for r in tree.radio]
        + [t.proto.label for t in tree.get("tab")]
    ).lower()
    assert "the post" in shown and "wind" in shown
