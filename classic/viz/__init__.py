"""The optional drawing layer of ``classic``: figures, DOT drawings and the players' JSON.

``pip install classic[viz]`` adds what it needs (matplotlib, graphviz); the algorithms in
``classic`` itself need only numpy. ``theme`` holds the one palette; there is a module per
lesson (``perceptron``, ``knn``, ``digits``; the tree has two: ``tree``, its DOT drawing, and
``tree_figures``, the step player's JSON and the Vega-Lite charts) with the figures and the JSON
that the browser players in ``assets/`` draw from.
"""
