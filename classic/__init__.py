"""classic: the classic machine-learning algorithms, written from scratch with numpy.

Modules: ``datasets`` (generators, toy tables, UCI loaders), ``evaluation`` (splits, scores),
``preprocessing`` (scalers), ``perceptron``, ``knn``, ``kdtree``, ``id3``, ``digits`` and
``plots`` (matplotlib figures for the Streamlit pages in ``pages/``).
"""

__version__ = "0.1.0"
