"""The k-NN page in AppTest, with its widgets pushed to their extremes."""

import pytest
from conftest import assert_no_exception, open_page

from classic.knn import METRICS, WEIGHTS


@pytest.fixture(scope="module")
def page():
    return open_page("knn")


def test_default_view_shows_regions_accuracy_and_tree(page):
    assert_no_exception(page)
    assert page.title[0].value == "k-nearest neighbours"
    assert len(page.get("image")) == 3  # regions, accuracy against k, k-d tree
    assert page.metric[0].label == "Prediction"
    assert "of 198" in page.metric[1].value
    assert any("Leave-one-out accuracy is highest" in m.value for m in page.markdown)
    assert page.radio(key="knn_click_mode").options == ["moves the query point"]  # the clickable map
    assert page.number_input(key="knn_qx").value == -0.16  # the query starts at the centre of the data


@pytest.mark.parametrize("k", [1, 198])
def test_k_at_both_ends(page, k):
    page.slider(key="knn_k").set_value(k).run()
    assert_no_exception(page)
    table = page.dataframe[0].value
    assert len(table) == k


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("weights", WEIGHTS)
def test_every_metric_and_weighting(page, metric, weights):
    page.slider(key="knn_k").set_value(7)
    page.selectbox(key="knn_metric").set_value(metric)
    page.selectbox(key="knn_weights").set_value(weights).run()
    assert_no_exception(page)
    if metric in ("cosine", "hamming"):
        assert page.selectbox(key="knn_algorithm").options == ["brute"]
        assert any("bounds Minkowski metrics only" in i.value for i in page.info)


@pytest.mark.parametrize("scaling", ["none", "min-max", "standardise"])
@pytest.mark.parametrize("algorithm", ["brute", "kdtree"])
def test_scaling_and_algorithm(scaling, algorithm):
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value("One feature ×100 (shoe size in mm)")
    at.selectbox(key="knn_scaling").set_value(scaling)
    at.selectbox(key="knn_algorithm").set_value(algorithm).run()
    assert_no_exception(at)
    caption = " ".join(c.value for c in at.caption)
    accuracy = float(caption.split("Training accuracy ")[1].split("%")[0])
    # Scaling matters on this data: only the small feature tells the classes apart.
    if scaling == "none":
        assert accuracy < 85
    else:
        assert accuracy > 85


@pytest.mark.parametrize(
    "name", ["Concentric circles", "Moons", "XOR", "Spiral", "Gaussian clusters (the post's dummy data)"]
)
def test_every_data_set_with_extreme_sizes(name):
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value(name)
    at.slider(key="knn_classes").set_value(5)
    at.slider(key="knn_points").set_value(20).run()
    assert_no_exception(at)
    at.slider(key="knn_points").set_value(1000)
    at.slider(key="knn_k").set_value(1)
    at.selectbox(key="knn_metric").set_value("minkowski").run()
    at.slider(key="knn_p").set_value(10.0)
    at.checkbox(key="knn_voronoi").check().run()
    assert_no_exception(at)


def test_user_points_and_new_points_button():
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value("Your points (click or edit the table)").run()
    assert_no_exception(at)
    assert "of 12" in at.metric[1].value
    assert at.radio(key="knn_click_mode").options == [
        "moves the query point",
        "adds a point of the chosen class",
    ]
    at.selectbox(key="knn_click_class").set_value(4).run()
    assert_no_exception(at)
    at.button(key="knn_new").click().run()
    assert at.number_input(key="knn_seed").value == 1
