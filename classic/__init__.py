"""classic: the classic machine-learning algorithms, written from scratch with numpy.

The algorithms: ``perceptron``, ``knn`` (with ``distances``, the brute-force ``_search`` and the
1-D/2-D query tiles ``_tiles``),
``kdtree``, ``id3`` (with ``criteria``, the split criteria and the scores of a split;
``_id3_engine``, reading a table and the counting; ``_id3_tree``, the grown tree as flat arrays,
its nodes and prediction), ``digits``; the data:
``datasets`` (generators, toy tables), ``uci`` (the two UCI files), ``tables`` (CSV uploads);
``evaluation`` and ``preprocessing``; ``compare`` (one data set through the three 2-D
classifiers); ``lessons``, what each lesson says and asks (its data menu, steps, claims, prose).
Only numpy is needed; the optional drawing layer is
``classic.viz`` (``pip install classic[viz]``).
"""

__version__ = "0.1.0"
