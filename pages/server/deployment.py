"""What the server checks about the machine and the class store when it starts (app.py's server
branch calls ``start_checks``), and says in its log: two things that broke real classes.

- **Open files.** Every browser tab connected to the server holds 4 file descriptors (its
  WebSocket, and its session's event loop: a socket pair and an epoll; measured on Streamlit
  1.67, a closed tab's session keeps 3 for two minutes). Under the common ``ulimit -n 1024``,
  300 idle connections locked every new teacher and phone out. ``raise_open_files`` raises the
  soft limit to the hard limit (what a process may do by itself), and the server warns, with the
  number of sessions it can hold, when that is under ``FEW_SESSIONS``.
- **A Redis that keeps nothing on disk** loses every class when it restarts. With
  ``CLASSIC_CLASS_STORE=redis://...``, ``redis_persistence`` asks the Redis for its persistence
  (``CONFIG GET appendonly``, ``CONFIG GET save``; ``INFO persistence`` where ``CONFIG`` is
  refused, as on many managed services) and the server warns when neither the append-only file
  nor snapshots are on, or says that it could not check.

Neither stops the server: a warning names the problem and the fix (docs/deployment.md).
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple
from urllib.parse import urlsplit

from streamlit.logger import get_logger

_LOG = get_logger(__name__)

FDS_PER_SESSION = 4  # a connected tab: its WebSocket + its session's event loop (socket pair, epoll)
RESERVED_FDS = 64  # the server's own: listening socket, logs, the store's connections, the data cache
FEW_SESSIONS = 500  # under this, the log warns (a lecture hall is a few hundred phones)
# Where the hard limit is "unlimited" (macOS), the kernel takes no such soft limit: the largest
# of these that it takes.
_UNLIMITED_TRIES = (1_048_576, 65_536, 10_240)
DOCS = "docs/deployment.md"


def sessions_for(limit: int) -> int:
    """About how many sessions (connected browser tabs) ``limit`` open files hold: what the
    server does not need for itself, at ``FDS_PER_SESSION`` each."""
    return max(0, (limit - RESERVED_FDS) // FDS_PER_SESSION)


class OpenFiles(NamedTuple):
    """The open-files limit (``RLIMIT_NOFILE``) the server found and the one it has now; None
    for no limit."""

    before: int | None  # the soft limit found
    soft: int | None  # the soft limit now
    hard: int | None  # the hard limit

    @property
    def sessions(self) -> int | None:
        """About how many sessions the soft limit holds (None: no limit)."""
        return None if self.soft is None else sessions_for(self.soft)


def raise_open_files() -> OpenFiles | None:
    """Raise this process's soft limit on open files to its hard limit; the limits before and
    after (None where the ``resource`` module does not exist: Windows). Never raises."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    unlimited = resource.RLIM_INFINITY
    if soft != unlimited and (hard == unlimited or soft < hard):
        tries = (hard,) if hard != unlimited else tuple(t for t in _UNLIMITED_TRIES if t > soft)
        for target in tries:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                break
            except (ValueError, OSError):
                continue
    now, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return OpenFiles(*(None if n == unlimited else n for n in (soft, now, hard)))


def check_open_files() -> OpenFiles | None:
    """``raise_open_files``, and what it means in the server's log: the raise, and a warning with
    the sessions the server can hold when that is under ``FEW_SESSIONS``."""
    limits = raise_open_files()
    if limits is None:
        return None
    sessions = "any number of sessions" if limits.soft is None else f"about {limits.sessions} sessions"
    if limits.soft != limits.before:
        _LOG.info(
            "Open files: soft limit raised from %s to %s (%s): room for %s (%d files each).",
            limits.before, limits.soft,
            "the hard limit" if limits.soft == limits.hard else "the most the system takes",
            sessions, FDS_PER_SESSION,
        )  # fmt: skip
    if limits.sessions is not None and limits.sessions < FEW_SESSIONS:
        need = FEW_SESSIONS * FDS_PER_SESSION + RESERVED_FDS
        _LOG.warning(
            "Open files: this server can hold only about %d sessions at once (%d open files, hard "
            "limit %s; each connected browser tab holds %d), and a tab beyond that is refused. Raise "
            "the hard limit to at least %d (`ulimit -Hn` as root, systemd's LimitNOFILE=, docker's "
            "--ulimit nofile=): see %s, Open files.",
            limits.sessions, limits.soft, "none" if limits.hard is None else limits.hard,
            FDS_PER_SESSION, need, DOCS,
        )  # fmt: skip
    return limits


class Persistence(NamedTuple):
    """What a Redis keeps on disk, as far as it would say."""

    url: str  # the Redis's URL, its password hidden (for the log)
    aof: bool | None  # the append-only file is on (None: could not tell)
    snapshots: str | None  # the RDB save points ("" for none; None: could not tell)
    problem: str = ""  # why it could not be asked, or only in part

    @property
    def kept(self) -> bool | None:
        """Whether the classes survive a restart of Redis: True, False, or None (could not tell)."""
        if self.aof or self.snapshots:
            return True
        if self.aof is False and self.snapshots == "":
            return False
        return None


def shown_url(url: str) -> str:
    """``url`` without its password (``redis://user:***@host:6379/0``, ``?password=***``), for a log."""
    password = urlsplit(url).password
    if password:
        url = url.replace(f":{password}@", ":***@", 1)
    return re.sub(r"([?&])password=[^&#]*", r"\1password=***", url)


def redis_persistence(url: str, timeout: float = 3.0) -> Persistence:
    """Ask the Redis at ``url`` whether it keeps its data on disk (at most ``timeout`` s a call)."""
    shown = shown_url(url)
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:
        return Persistence(shown, None, None, "the redis client is not installed (pip install redis)")
    try:  # one try: a Redis that does not answer must not hold the server's start for long
        client = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=timeout, socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )  # fmt: skip
    except ValueError as error:  # not a URL the client can use
        return Persistence(shown, None, None, f"its URL cannot be used ({error})")
    try:
        try:
            aof = client.config_get("appendonly").get("appendonly")
            save = client.config_get("save").get("save")
            return Persistence(shown, None if aof is None else aof == "yes", save)
        except redis.ResponseError as refused:  # CONFIG renamed away or not allowed to this user
            problem = f"CONFIG GET was refused ({refused})"
        try:  # INFO tells whether the append-only file is on, not the snapshots' save points
            on = client.info("persistence").get("aof_enabled")
        except redis.ResponseError as refused:
            return Persistence(shown, None, None, f"{problem}; so was INFO ({refused})")
        return Persistence(shown, None if on is None else bool(int(on)), None, problem)
    except redis.RedisError as error:
        return Persistence(shown, None, None, f"it cannot be reached ({type(error).__name__}: {error})")
    finally:
        client.close()


def check_class_store(url: str | None = None) -> Persistence | None:
    """With a Redis class store (``url``, default ``CLASSIC_CLASS_STORE``): its persistence, and
    a warning in the server's log when it keeps nothing on disk or could not be asked; None for
    the SQLite store (a file: kept)."""
    from pages.classroom.room_store import RedisStore

    url = url if url is not None else os.environ.get("CLASSIC_CLASS_STORE", "")
    if not url.startswith(RedisStore.SCHEMES):
        return None
    found = redis_persistence(url)
    if found.kept is False:
        _LOG.warning(
            "Class store: the Redis at %s keeps nothing on disk (appendonly no, no snapshots): when "
            "it restarts, every class and its answers are gone. Run it with `appendonly yes` "
            "(docs/deploy/redis.conf; see %s, Redis for a class).",
            found.url, DOCS,
        )  # fmt: skip
    elif found.kept is None:
        _LOG.warning(
            "Class store: could not check whether the Redis at %s keeps the classes on disk: %s. "
            "Make sure it runs with `appendonly yes` (see %s, Redis for a class).",
            found.url, found.problem, DOCS,
        )  # fmt: skip
    elif not found.aof:
        _LOG.info(
            "Class store: the Redis at %s keeps snapshots only (save %s): a crash loses the answers "
            "since the last one; `appendonly yes` keeps all but the last second.",
            found.url, found.snapshots or "?",
        )  # fmt: skip
    return found


def start_checks() -> None:
    """What app.py's server branch runs when the server starts: the open-files limit raised (and
    a warning when it is low), and the class store's Redis checked for persistence."""
    check_open_files()
    check_class_store()
