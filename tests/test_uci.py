"""Tests for classic.uci: find → download → validate → cache, and every way of not having the data.

Downloads are served by a local http.server on 127.0.0.1 (or ``uci._get`` is replaced): no test
touches the real network.
"""

import errno
import http.server
import io
import os
import shutil
import subprocess
import sys
import threading
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from classic import uci


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No $CLASSIC_DATA_HOME, and the repository's data/ replaced by an empty tmp_path/cache."""
    monkeypatch.delenv("CLASSIC_DATA_HOME", raising=False)
    monkeypatch.setattr(uci, "DATA_DIR", tmp_path / "cache")
    return tmp_path / "cache"


def _serve(routes: dict[str, object]):
    """A local HTTP server answering ``routes[path]``: bytes (sent whole), or a callable(handler)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the name http.server calls)
            answer = routes.get(self.path)
            if answer is None:
                self.send_error(404)
            elif callable(answer):
                answer(self)
            else:
                self.send_response(200)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def http_source(request):
    """A UCIFile for the votes whose addresses are a local server's ``/votes`` and ``/votes.zip``."""
    servers = []

    def make(routes):
        server, base = _serve(routes)
        servers.append(server)
        return uci.UCIFile(
            "house-votes-84.data", (f"{base}/votes",), f"{base}/votes.zip", uci.HOUSE_VOTES.parse
        )

    yield make
    for server in servers:
        server.shutdown()
        server.server_close()


def _votes_bytes(data_home) -> bytes:
    return (data_home / "house-votes-84.data").read_bytes()


# --------------------------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------------------------


def test_load_semeion(data_home):
    X, y = uci.load_semeion(data_home)
    assert X.shape == (1593, 256) and X.dtype == np.uint8
    assert y.shape == (1593,) and y.dtype == np.int64
    assert set(np.unique(X)) == {0, 1}
    assert np.bincount(y).tolist() == [161, 162, 159, 159, 161, 159, 161, 158, 155, 158]


def test_load_house_votes(data_home):
    X, y, features = uci.load_house_votes(data_home)
    assert X.shape == (435, 16)
    assert set(np.unique(X)) == {"y", "n", "?"}
    assert (y == "democrat").sum() == 267 and (y == "republican").sum() == 168
    assert features[0] == "handicapped-infants"
    assert features[-1] == "export-administration-act-south-africa"
    assert len(features) == 16


def test_semeion_accepts_uci_float_format(tmp_path, data_home):
    lines = (data_home / "semeion.data").read_text().splitlines()
    floats = [" ".join(f"{float(v):.4f}" for v in line.split()) for line in lines]
    (tmp_path / "semeion.data").write_text("\n".join(floats) + "\n")
    X, y = uci.load_semeion(tmp_path)
    np.testing.assert_array_equal(X, uci.load_semeion(data_home)[0])


def _corrupt(tmp_path, data_home, filename, line_number, transform):
    lines = (data_home / filename).read_text().splitlines()
    lines[line_number - 1] = transform(lines[line_number - 1])
    (tmp_path / filename).write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("transform", "message"),
    [
        (lambda line: line.rsplit(" ", 3)[0], "expected 266"),
        (lambda line: "2" + line[1:], "0 or 1"),
        (lambda line: line.replace("0", "x", 1), "not a number"),
    ],
)
def test_corrupted_semeion_names_file_and_line(tmp_path, data_home, isolated, transform, message):
    _corrupt(tmp_path, data_home, "semeion.data", 7, transform)
    with pytest.raises(ValueError, match=rf"semeion\.data, line 7: .*{message}"):
        uci.load_semeion(tmp_path)


def test_truncated_semeion_reports_row_count(tmp_path, data_home, isolated):
    lines = (data_home / "semeion.data").read_text().splitlines()[:1000]
    (tmp_path / "semeion.data").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="expected 1593 rows, found 1000"):
        uci.load_semeion(tmp_path)


@pytest.mark.parametrize(
    ("transform", "message"),
    [
        (lambda line: line + ",y", "expected 17"),
        (
            lambda line: line.replace("democrat", "whig").replace("republican", "whig"),
            "democrat or republican",
        ),
        (lambda line: line[:-1] + "maybe", "y, n or \\?"),
    ],
)
def test_corrupted_house_votes_names_file_and_line(tmp_path, data_home, isolated, transform, message):
    _corrupt(tmp_path, data_home, "house-votes-84.data", 12, transform)
    with pytest.raises(ValueError, match=rf"house-votes-84\.data, line 12: .*{message}"):
        uci.load_house_votes(tmp_path)


def test_lookup_order_argument_then_environment(tmp_path, data_home, monkeypatch):
    shutil.copy(data_home / "house-votes-84.data", tmp_path / "house-votes-84.data")
    monkeypatch.setenv("CLASSIC_DATA_HOME", str(tmp_path))
    assert uci.data_dirs()[0] == tmp_path
    assert uci.data_dirs("/somewhere")[:2] == [Path("/somewhere"), tmp_path]
    assert uci.data_dirs()[-1] == uci.DATA_DIR
    assert uci.find(uci.HOUSE_VOTES) == tmp_path / "house-votes-84.data"
    X, _, _ = uci.load_house_votes()
    assert X.shape == (435, 16)


# --------------------------------------------------------------------------------------------
# Download → validate → cache (local server only)
# --------------------------------------------------------------------------------------------


def test_missing_file_is_downloaded_validated_and_cached(data_home, isolated, http_source):
    body = _votes_bytes(data_home)
    source = http_source({"/votes": body})
    X, y = uci.fetch(source)
    assert X.shape == (435, 16)
    assert (isolated / "house-votes-84.data").read_bytes() == body
    assert sorted(p.name for p in isolated.iterdir()) == ["house-votes-84.data"]


def test_the_zip_is_the_fallback(data_home, isolated, http_source):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("house-votes-84.data", _votes_bytes(data_home))
    source = http_source({"/votes.zip": archive.getvalue()})
    X, _ = uci.fetch(source)
    assert X.shape == (435, 16)
    assert (isolated / "house-votes-84.data").is_file()


def test_a_download_cut_half_way_leaves_no_file(data_home, isolated, http_source):
    body = _votes_bytes(data_home)

    def half(handler):
        # Announce the whole file, send half of it and hang up: http.client's IncompleteRead.
        handler.send_response(200)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body[: len(body) // 2])
        handler.wfile.flush()
        handler.close_connection = True

    source = http_source({"/votes": half})
    with pytest.raises(uci.DatasetUnavailable, match="could not be downloaded.*IncompleteRead"):
        uci.fetch(source)
    assert not isolated.exists() or list(isolated.iterdir()) == []


def test_a_download_that_ends_early_fails_validation_and_leaves_no_file(data_home, isolated, http_source):
    body = _votes_bytes(data_home)
    source = http_source({"/votes": body[: len(body) // 2].rsplit(b"\n", 1)[0]})
    with pytest.raises(uci.DatasetUnavailable, match="expected 435 rows"):
        uci.fetch(source)
    assert not isolated.exists() or list(isolated.iterdir()) == []


def test_no_network_gives_a_clear_error(isolated, monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("network is unreachable")

    monkeypatch.setattr(uci.urllib.request, "urlopen", refuse)
    with pytest.raises(
        uci.DatasetUnavailable, match="could not be downloaded.*python -m classic.uci download"
    ):
        uci.load_house_votes()


# --------------------------------------------------------------------------------------------
# Faults on disk
# --------------------------------------------------------------------------------------------


def test_read_only_cache_still_loads_and_leaves_nothing(data_home, isolated, monkeypatch):
    """A read-only data/: the page still gets the data (with a warning); no temporary file stays."""
    monkeypatch.setattr(uci, "_get", lambda url, timeout: _votes_bytes(data_home))
    isolated.mkdir()

    def read_only(source, target):
        raise OSError(errno.EROFS, "Read-only file system", str(target))

    monkeypatch.setattr(uci.os, "replace", read_only)
    with pytest.warns(UserWarning, match="could not be cached.*Read-only file system"):
        X, _, _ = uci.load_house_votes()
    assert X.shape == (435, 16)
    assert list(isolated.iterdir()) == []
    with pytest.raises(uci.DatasetUnavailable, match="cannot be saved.*Make the folder writable"):
        uci.download(uci.HOUSE_VOTES)
    assert list(isolated.iterdir()) == []


def test_cache_folder_that_cannot_be_created(data_home, tmp_path, monkeypatch):
    """data/ under a regular file: a real OSError from the file system, not a simulated one."""
    monkeypatch.delenv("CLASSIC_DATA_HOME", raising=False)
    (tmp_path / "plain-file").write_text("not a folder")
    monkeypatch.setattr(uci, "DATA_DIR", tmp_path / "plain-file" / "data")
    monkeypatch.setattr(uci, "_get", lambda url, timeout: _votes_bytes(data_home))
    with pytest.raises(uci.DatasetUnavailable, match="cannot be saved"):
        uci.download(uci.HOUSE_VOTES)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert uci.load_house_votes()[0].shape == (435, 16)


def test_corrupt_cached_file_says_which_line_and_how_to_fix(isolated):
    isolated.mkdir()
    (isolated / "house-votes-84.data").write_text("democrat,y,n\n")
    with pytest.raises(ValueError) as raised:
        uci.load_house_votes()
    message = str(raised.value)
    assert "house-votes-84.data, line 1: expected 17" in message
    assert str(isolated) in message and "delete it and run `python -m classic.uci download`" in message


def test_binary_garbage_is_a_damaged_file_not_a_crash(isolated):
    isolated.mkdir()
    (isolated / "semeion.data").write_bytes(bytes(range(256)) * 50)
    with pytest.raises(ValueError, match="semeion.data, line 1: .*damaged"):
        uci.load_semeion()


def test_data_home_pointing_nowhere(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSIC_DATA_HOME", str(tmp_path / "nowhere"))
    with pytest.raises(
        uci.DatasetUnavailable, match=r"\$CLASSIC_DATA_HOME is set to .*nowhere.*not a folder"
    ):
        uci.load_semeion()
    with pytest.raises(uci.DatasetUnavailable, match="not a folder"):
        uci.load_house_votes()


def test_unreadable_file_is_a_clear_error(data_home, isolated, monkeypatch):
    """A PermissionError (root ignores chmod here, so the read itself is made to fail)."""
    isolated.mkdir()
    target = isolated / "semeion.data"
    shutil.copy(data_home / "semeion.data", target)
    real_read_text = Path.read_text

    def forbidden(self, *args, **kwargs):
        if self == target:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", forbidden)
    with pytest.raises(
        uci.DatasetUnavailable, match="exists but cannot be read.*Permission denied.*read permission"
    ):
        uci.load_semeion()


# --------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------


def test_download_command_with_files_on_disk(data_home, capsys):
    assert uci.main(["download"]) == 0
    out = capsys.readouterr().out
    assert "semeion.data: ready" in out and "house-votes-84.data: ready" in out
    assert uci.main([]) == 2
    assert "usage: python -m classic.uci download" in capsys.readouterr().err


def test_download_command_fetches_what_is_missing(data_home, isolated, monkeypatch, capsys):
    files = {
        "semeion": (data_home / "semeion.data").read_bytes(),
        "voting": _votes_bytes(data_home),
    }
    monkeypatch.setattr(uci, "_get", lambda url, timeout: next(v for k, v in files.items() if k in url))
    assert uci.main(["download"]) == 0
    assert sorted(p.name for p in isolated.iterdir()) == ["house-votes-84.data", "semeion.data"]
    assert str(isolated) in capsys.readouterr().out


def test_download_command_fails_clearly_offline(isolated, monkeypatch, capsys):
    def refuse(url, timeout):
        raise OSError("network is unreachable")

    monkeypatch.setattr(uci, "_get", refuse)
    assert uci.main(["download"]) == 1
    assert "semeion.data is not on this computer and could not be downloaded" in capsys.readouterr().err
    assert not isolated.exists()


@pytest.mark.parametrize("module", ["classic.uci", "classic.datasets"])
def test_both_command_names_run_as_modules(module, data_home):
    """``python -m classic.uci download`` and the README's ``python -m classic.datasets download``."""
    root = Path(uci.__file__).resolve().parents[1]
    env = {**os.environ, "CLASSIC_DATA_HOME": str(data_home), "PYTHONPATH": str(root)}
    result = subprocess.run(
        [sys.executable, "-m", module, "download"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "semeion.data: ready" in result.stdout and "house-votes-84.data: ready" in result.stdout


def test_tests_without_the_files_are_skipped_with_the_fix(tmp_path, monkeypatch):
    """conftest's ``data_home``: the reason it gives when the files cannot be had."""
    from conftest import _uci_folder

    monkeypatch.setenv("CLASSIC_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(uci, "DATA_DIR", tmp_path / "data")
    folder, why = _uci_folder()
    assert folder is None
    assert "semeion.data and house-votes-84.data" in why and "run `python -m classic.uci download`" in why
    monkeypatch.setenv("CLASSIC_DATA_HOME", str(tmp_path / "nowhere"))
    assert "not a folder" in _uci_folder()[1]
