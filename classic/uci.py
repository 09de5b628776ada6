"""The two UCI files the lessons use: find → download → validate → cache.

A loader looks for the file in, in order, its ``data_home`` argument, ``$CLASSIC_DATA_HOME``
and the repository's ``data/`` folder. If no folder holds it, it downloads the file once from
the UCI Machine Learning Repository (the plain file, then UCI's zip of the data set), checks
every line (field count, allowed values, row count, class counts) and caches it. The cache is
written to a temporary file beside the target and renamed over it only after validation, so a
download that fails half-way never leaves a partial file.

Every way of not having the data ends in one exception with a message that says what went
wrong and how to fix it: ``DatasetUnavailable`` (no copy, no network, unreadable file, a
``$CLASSIC_DATA_HOME`` that is not a folder) or ``ValueError`` (a file that is there but
damaged: its path, the line and what is wrong with it).

Run ``python -m classic.uci download`` to fetch both files ahead of a class.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import urllib.request
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
UCI_BASE = "https://archive.ics.uci.edu/ml/machine-learning-databases"
UCI_STATIC = "https://archive.ics.uci.edu/static/public"
DOWNLOAD_COMMAND = "python -m classic.uci download"

SEMEION_CLASS_COUNTS = (161, 162, 159, 159, 161, 159, 161, 158, 155, 158)
HOUSE_VOTES_FEATURES = [
    "handicapped-infants",
    "water-project-cost-sharing",
    "adoption-of-the-budget-resolution",
    "physician-fee-freeze",
    "el-salvador-aid",
    "religious-groups-in-schools",
    "anti-satellite-test-ban",
    "aid-to-nicaraguan-contras",
    "mx-missile",
    "immigration",
    "synfuels-corporation-cutback",
    "education-spending",
    "superfund-right-to-sue",
    "crime",
    "duty-free-exports",
    "export-administration-act-south-africa",
]

Digits = tuple[np.ndarray, np.ndarray]
Table = tuple[np.ndarray, np.ndarray, list[str]]


class DatasetUnavailable(RuntimeError):
    """A UCI file is not on disk (or cannot be read) and could not be downloaded."""


@dataclass(frozen=True)
class UCIFile:
    """One UCI file: where it lives online, and how to parse and check its text."""

    filename: str
    urls: tuple[str, ...]
    zip_url: str
    parse: Callable[[str, str], tuple]


# --------------------------------------------------------------------------------------------
# Validation: each parser checks every line and names the file and line that is wrong
# --------------------------------------------------------------------------------------------


def _fail(filename: str, line: int, what: str) -> ValueError:
    return ValueError(f"{filename}, line {line}: {what}")


def _parse_semeion(text: str, filename: str = "semeion.data") -> Digits:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 266:
            raise _fail(filename, number, f"expected 266 numeric columns, found {len(fields)}")
        try:
            values = np.array([float(field) for field in fields])
        except ValueError as error:
            raise _fail(filename, number, f"a value is not a number ({error})") from None
        if not np.all((values == 0) | (values == 1)):
            raise _fail(filename, number, "values must be 0 or 1")
        if values[256:].sum() != 1:
            raise _fail(filename, number, "the 10 class columns must hold exactly one 1")
        rows.append(values)
    if len(rows) != 1593:
        raise _fail(filename, len(text.splitlines()), f"expected 1593 rows, found {len(rows)}")
    data = np.array(rows)
    X = data[:, :256].astype(np.uint8)
    y = data[:, 256:].argmax(axis=1).astype(np.int64)
    counts = tuple(np.bincount(y, minlength=10).tolist())
    if counts != SEMEION_CLASS_COUNTS:
        raise _fail(filename, len(rows), f"class counts {counts} differ from UCI's {SEMEION_CLASS_COUNTS}")
    return X, y


def _parse_house_votes(text: str, filename: str = "house-votes-84.data") -> Digits:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 17:
            raise _fail(filename, number, f"expected 17 comma-separated fields, found {len(fields)}")
        if fields[0] not in ("democrat", "republican"):
            raise _fail(filename, number, f"class must be democrat or republican, got {fields[0]!r}")
        bad = [vote for vote in fields[1:] if vote not in ("y", "n", "?")]
        if bad:
            raise _fail(filename, number, f"votes must be y, n or ?, got {bad[0]!r}")
        rows.append(fields)
    if len(rows) != 435:
        raise _fail(filename, len(text.splitlines()), f"expected 435 rows, found {len(rows)}")
    data = np.array(rows, dtype=str)
    return data[:, 1:].copy(), data[:, 0].copy()


SEMEION = UCIFile(
    "semeion.data",
    (f"{UCI_BASE}/semeion/semeion.data",),
    f"{UCI_STATIC}/178/semeion+handwritten+digit.zip",
    _parse_semeion,
)
HOUSE_VOTES = UCIFile(
    "house-votes-84.data",
    (f"{UCI_BASE}/voting-records/house-votes-84.data",),
    f"{UCI_STATIC}/105/congressional+voting+records.zip",
    _parse_house_votes,
)
FILES = (SEMEION, HOUSE_VOTES)


# --------------------------------------------------------------------------------------------
# Find
# --------------------------------------------------------------------------------------------


def _environment_home() -> Path | None:
    """``$CLASSIC_DATA_HOME`` as a folder; a value that names no folder is an error, not a skip."""
    value = os.environ.get("CLASSIC_DATA_HOME")
    if not value:
        return None
    home = Path(value)
    if not home.is_dir():
        raise DatasetUnavailable(
            f"$CLASSIC_DATA_HOME is set to {value!r}, which is not a folder. Point it at the folder "
            f"that holds the UCI files (or unset it to use {DATA_DIR}), then run `{DOWNLOAD_COMMAND}`."
        )
    return home


def data_dirs(data_home: str | os.PathLike | None = None) -> list[Path]:
    """The folders searched for a UCI file, in order: argument, $CLASSIC_DATA_HOME, data/."""
    dirs = [Path(data_home)] if data_home is not None else []
    environment = _environment_home()
    if environment is not None:
        dirs.append(environment)
    dirs.append(DATA_DIR)
    return dirs


def cache_dir() -> Path:
    """Where a download is kept: ``$CLASSIC_DATA_HOME`` when set, else the repository's data/."""
    return _environment_home() or DATA_DIR


def find(source: UCIFile, data_home: str | os.PathLike | None = None) -> Path | None:
    """The first copy of ``source`` in :func:`data_dirs`, or None."""
    for folder in data_dirs(data_home):
        if (folder / source.filename).is_file():
            return folder / source.filename
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii", errors="replace")
    except OSError as error:  # PermissionError, a file removed meanwhile, an I/O error
        raise DatasetUnavailable(
            f"{path} exists but cannot be read ({error.strerror or error}). Give the app read "
            f"permission on it, or delete it and run `{DOWNLOAD_COMMAND}`."
        ) from error


def _parse_file(source: UCIFile, path: Path) -> tuple:
    try:
        return source.parse(_read(path), str(path))
    except ValueError as error:
        raise ValueError(
            f"{error}. The file is damaged: delete it and run `{DOWNLOAD_COMMAND}` "
            f"(or copy a good one from the UCI Machine Learning Repository)."
        ) from None


# --------------------------------------------------------------------------------------------
# Download → validate → cache
# --------------------------------------------------------------------------------------------


def _get(url: str, timeout: float) -> bytes:
    # A response cut short raises http.client.IncompleteRead (an OSError subclass is not
    # guaranteed), so the caller catches every exception of one address and tries the next.
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read()


def _download(source: UCIFile, timeout: float = 30.0) -> tuple[str, tuple]:
    """The text of ``source`` from UCI and its parsed form; only a file that validates counts."""
    errors = []
    for url in source.urls:
        try:
            text = _get(url, timeout).decode("ascii")
            return text, source.parse(text, f"{source.filename} (downloaded from {url})")
        except Exception as error:  # a failure of one address falls through to the next
            errors.append(f"{url}: {error}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(_get(source.zip_url, timeout)))
        member = next(name for name in archive.namelist() if name.endswith(source.filename))
        text = archive.read(member).decode("ascii")
        return text, source.parse(text, f"{source.filename} (downloaded from {source.zip_url})")
    except Exception as error:
        errors.append(f"{source.zip_url}: {error}")
    raise DatasetUnavailable(
        f"{source.filename} is not on this computer and could not be downloaded "
        f"({'; '.join(errors)}). Run `{DOWNLOAD_COMMAND}` where there is internet, or download it "
        f"from the UCI Machine Learning Repository and put it in {cache_dir()} "
        f"(or in the folder named by $CLASSIC_DATA_HOME)."
    )


def _write_atomically(folder: Path, filename: str, text: str) -> Path:
    """Write ``text`` to ``folder/filename`` by a temporary file and a rename (never partial)."""
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{filename}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(text)
        os.replace(temporary, folder / filename)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return folder / filename


def download(source: UCIFile, folder: str | os.PathLike | None = None) -> Path:
    """Download, validate and cache ``source`` in ``folder`` (default :func:`cache_dir`).

    Raises ``DatasetUnavailable`` when the download fails or the folder cannot be written.
    """
    folder = Path(folder) if folder is not None else cache_dir()
    text, _ = _download(source)
    try:
        return _write_atomically(folder, source.filename, text)
    except OSError as error:
        raise DatasetUnavailable(
            f"{source.filename} was downloaded but cannot be saved in {folder} "
            f"({error.strerror or error}). Make the folder writable, or set $CLASSIC_DATA_HOME "
            f"to a writable folder and run `{DOWNLOAD_COMMAND}` again."
        ) from error


def fetch(source: UCIFile, data_home: str | os.PathLike | None = None, allow_download: bool = True) -> tuple:
    """Load and validate one UCI file, downloading and caching it when no folder holds it."""
    path = find(source, data_home)
    if path is not None:
        return _parse_file(source, path)
    if not allow_download:
        raise DatasetUnavailable(
            f"{source.filename} was not found in {[str(d) for d in data_dirs(data_home)]}. "
            f"Run `{DOWNLOAD_COMMAND}`."
        )
    text, parsed = _download(source)
    try:
        _write_atomically(cache_dir(), source.filename, text)
    except OSError as error:
        # A read-only install still works: it only downloads again next time.
        warnings.warn(
            f"{source.filename} could not be cached in {cache_dir()} ({error.strerror or error}); "
            "it will be downloaded again next time",
            stacklevel=2,
        )
    return parsed


# --------------------------------------------------------------------------------------------
# Loaders
# --------------------------------------------------------------------------------------------


def load_semeion(data_home: str | os.PathLike | None = None) -> Digits:
    """UCI Semeion handwritten digits: X uint8 (1593, 256) in {0, 1} (16×16 row-major), y 0..9."""
    return fetch(SEMEION, data_home)


def _house_votes_names(data_home: str | os.PathLike | None) -> list[str]:
    """The 16 attribute names, read from UCI's ``.names`` file when it is beside the data."""
    for folder in data_dirs(data_home):
        path = folder / "house-votes-84.names"
        try:
            lines = path.read_text(encoding="ascii", errors="replace").splitlines()
        except OSError:  # absent or unreadable: the names are also known here
            continue
        names = []
        for line in lines:
            parts = line.split()
            if len(parts) == 4 and parts[0].rstrip(".").isdigit() and parts[2:] == ["2", "(y,n)"]:
                names.append(parts[1].rstrip(":"))
        if len(names) == 16:
            return names
    return list(HOUSE_VOTES_FEATURES)


def load_house_votes(data_home: str | os.PathLike | None = None) -> Table:
    """UCI 1984 congressional votes: X strings (435, 16) in {y, n, ?}, y democrat/republican."""
    X, y = fetch(HOUSE_VOTES, data_home)
    return X, y, _house_votes_names(data_home)


def main(argv: list[str] | None = None, program: str = "classic.uci") -> int:
    """``download``: make sure both files are on disk and valid (downloading what is missing)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["download"]:
        print(f"usage: python -m {program} download", file=sys.stderr)
        return 2
    for source in FILES:
        try:
            path = find(source)
            if path is None:
                path = download(source)
            _parse_file(source, path)
        except (DatasetUnavailable, ValueError) as error:
            print(error, file=sys.stderr)
            return 1
        print(f"{source.filename}: ready ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
