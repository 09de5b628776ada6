"""The app's pages. A package so that ``pages._shared`` always resolves to this folder."""
