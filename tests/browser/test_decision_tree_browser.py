"""The ID3 page in a real browser: the tree is drawn as SVG, a record's path lights up, the tree
grows split by split, the votes are evaluated, and a bad CSV upload gives a clear error."""

import pytest
from conftest import assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

PATH = "#d55e00"  # the highlight colour of a record's path, as graphviz writes it in the SVG


def tree_svg(page, index: int = 0):
    return page.locator('[data-testid="stGraphVizChart"] svg').nth(index)


def svg_text(svg) -> str:
    return svg.evaluate("node => node.textContent")


def choose(page, label: str, option: str) -> None:
    """Pick an option of a select box by its label (Streamlit's select boxes are comboboxes)."""
    page.get_by_role("combobox", name=label).first.click()
    page.get_by_role("option", name=option, exact=True).click()


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name, exact=True).click()


@pytest.fixture(scope="module")
def tree_page(server, browser_context):
    page = browser_context.new_page()
    page.goto(f"{server}/decision-tree")  # the server's first request is this deep link
    wait_for_app(page)
    yield page
    page.close()


def test_the_tree_is_drawn_as_svg_and_the_records_path_is_highlighted(tree_page):
    page = tree_page
    svg = tree_svg(page)
    svg.wait_for(timeout=60_000)
    assert "Temperature" in svg_text(svg)
    choose(page, "Data", "Play Tennis")
    page.get_by_text("Prediction:").first.wait_for()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stGraphVizChart\"] svg')?.textContent.includes('Outlook')"
    )
    page.get_by_text("Prediction: No").first.wait_for()  # the first day: Sunny, High humidity
    before = svg.evaluate("node => node.innerHTML").lower().count(PATH)
    choose(page, "Outlook", "Overcast")
    page.get_by_text("Prediction: Yes").first.wait_for()
    page.wait_for_timeout(500)
    after = svg.evaluate("node => node.innerHTML").lower().count(PATH)
    assert 0 < after < before  # Outlook → Overcast leaf: a shorter path than Outlook → Humidity → leaf
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-play-tennis")


def test_step_by_step_shows_the_gains_of_each_split(tree_page):
    page = tree_page
    open_tab(page, "Step by step")
    page.get_by_text("Split 1 of 3").wait_for()
    slider = page.get_by_role("group", name="Split", exact=True)
    track = slider.locator('div[data-orientation="horizontal"]').first.bounding_box()
    thumb = slider.locator('input[type="range"]').locator("xpath=../..").bounding_box()
    middle = thumb["y"] + thumb["height"] / 2
    page.mouse.move(thumb["x"] + thumb["width"] / 2, middle)
    page.mouse.down()
    page.mouse.move(track["x"] + track["width"] + 10, middle, steps=10)
    page.mouse.up()
    page.get_by_text("Split 3 of 3").wait_for()
    page.locator('[data-testid="stDataFrame"]').last.wait_for()  # the gains table (drawn on a canvas)
    page.get_by_text("The winner is highlighted").wait_for()
    step_tree = svg_text(tree_svg(page, 1))
    assert "Humidity" in step_tree and "Wind" in step_tree  # all three splits are drawn
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-step-by-step")


def test_the_slides_table_shows_its_worked_numbers(tree_page):
    page = tree_page
    choose(page, "Data", "HasKids & Dora (slides)")
    open_tab(page, "Step by step")
    page.get_by_text("H(y | HasKids = Yes) = 0.918 (3 rows)").wait_for()
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-slides")


def test_the_votes_are_evaluated_as_in_the_post(tree_page):
    page = tree_page
    choose(page, "Data", "1984 congressional votes")
    open_tab(page, "Tree")
    page.get_by_text("Prediction:").first.wait_for()
    tree_svg(page).wait_for()
    screenshot(page, "decision-tree-votes")
    open_tab(page, "Evaluation")
    page.get_by_text("96.1%").wait_for(timeout=60_000)
    page.locator('[data-testid="stImage"] img').nth(1).wait_for()
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-votes-evaluation")


def test_a_bad_csv_upload_gives_a_clear_error(tree_page):
    page = tree_page
    choose(page, "Data", "Upload a CSV")
    page.locator('input[type="file"]').set_input_files(
        files=[{"name": "ragged.csv", "mimeType": "text/csv", "buffer": b"a,b,c\nx,y\n1,2,3\n"}]
    )
    error = page.locator('[data-testid="stAlertContentError"]')
    error.wait_for()
    assert "line 2 has 2 fields" in error.inner_text()
    assert_no_exception_box(page)
    screenshot(page, "decision-tree-bad-csv")
    page.locator('input[type="file"]').set_input_files(
        files=[
            {
                "name": "days.csv",
                "mimeType": "text/csv",
                "buffer": b"Sky,Ride\nSunny,Yes\nRain,No\nSunny,Yes\n",
            }
        ]
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stGraphVizChart\"] svg')?.textContent.includes('Sky')"
    )
    assert_no_exception_box(page)
