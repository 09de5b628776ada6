"""A small client of the app's own Streamlit server: what a hostile browser console can send.

A browser talks to Streamlit over one WebSocket (``/_stcore/stream``) in protobuf: it sends a
``BackMsg`` (rerun the script with these widget values and this query string, clear the
caches, …) and receives ``ForwardMsg``s (the page's elements, the script's end). A student with
the browser's console can send any value for any widget, whatever the widget's own checks in
the browser. This client does just that, for the tests of issue 22 and the hostile load run
(tests/load/run_hostile.py): no browser, no mocks, the real server.

    with Session(url, "knn") as page:
        page.run()                                 # the page as a fresh visit
        page.set_json("knn_player", {"k": "abc"})  # a component's state, as its JS would send
        result = page.run()
        result.exceptions, result.alerts           # what the page showed
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

# A run that ended for a rerun (st.rerun, a newer request) is followed by the run that counts.
FINISHED = (
    ForwardMsg.FINISHED_SUCCESSFULLY,
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
)


@dataclass
class Run:
    """What one request showed: its elements by type, and how long the server took."""

    elements: list = field(default_factory=list)  # (type, element proto)
    seconds: float = 0.0
    query_string: str = ""

    def of(self, kind: str) -> list:
        return [element for name, element in self.elements if name == kind]

    @property
    def exceptions(self) -> list[str]:
        return [f"{e.exception.type}: {e.exception.message}" for e in self.of("exception")]

    @property
    def alerts(self) -> list[str]:
        return [e.alert.body for e in self.of("alert")]

    @property
    def text(self) -> str:
        """Every alert's, Markdown's, caption's and toast's text, joined (to look for a note)."""
        parts = [e.alert.body for e in self.of("alert")] + [e.markdown.body for e in self.of("markdown")]
        parts += [e.toast.body for e in self.of("toast")]
        return "\n".join(parts)


class Session:
    """One browser tab's connection to the server at ``url`` (``http://host:port``), on ``page``."""

    def __init__(self, url: str, page: str = "", timeout: float = 60) -> None:
        parts = urlsplit(url)
        self.page, self.timeout, self.query_string, self.session_id = page, timeout, "", ""
        self.states: dict[str, WidgetState] = {}
        self.ids: dict[str, str] = {}  # widget key → element id, from the last run's elements
        self.fragments: dict[str, float] = {}  # fragment id → seconds between its automatic reruns
        self.ws = connect(
            f"ws://{parts.netloc}/_stcore/stream",
            subprotocols=["streamlit"],
            origin=f"http://{parts.netloc}",
            max_size=None,
            open_timeout=timeout,
            close_timeout=2,
            compression=None,
        ).__enter__()  # closed by close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.ws.close()

    def send(self, message: BackMsg) -> None:
        self.ws.send(message.SerializeToString())

    def clear_cache(self) -> None:
        """What Streamlit's "Clear cache" menu item (or a console) sends."""
        message = BackMsg()
        message.clear_cache = True
        self.send(message)

    def run(
        self,
        query_string: str | None = None,
        timeout: float | None = None,
        fragment: str = "",
        auto: bool = False,
    ) -> Run:
        """Rerun the page with the widget values set so far; the elements of the run that finished.

        ``fragment``: rerun only that fragment (an id from ``fragments``), as the browser does for a
        widget inside it, or (``auto``) every ``run_every`` seconds.
        """
        if query_string is not None:
            self.query_string = query_string
        message = BackMsg()
        state = message.rerun_script
        state.query_string, state.page_name = self.query_string, self.page
        state.fragment_id, state.is_auto_rerun = fragment, auto
        state.widget_states.widgets.extend(self.states.values())
        started, run, announced = time.perf_counter(), Run(), {}
        self.send(message)
        deadline = started + (timeout or self.timeout)
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no end of the script run within {timeout or self.timeout} s")
            forward = ForwardMsg()
            forward.ParseFromString(self.ws.recv(timeout=left))
            kind = forward.WhichOneof("type")
            if kind == "page_info_changed":
                self.query_string = forward.page_info_changed.query_string
            elif kind == "auto_rerun":
                announced[forward.auto_rerun.fragment_id] = forward.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for stale in forward.stop_auto_rerun.fragment_ids:
                    self.fragments.pop(stale, None)
                    announced.pop(stale, None)
            elif kind == "new_session":
                run, self.ids = Run(), {}  # a run starts here (a rerun the script asked for starts again)
                self.session_id = forward.new_session.initialize.session_id or self.session_id
            elif kind == "delta" and forward.delta.WhichOneof("type") == "add_block":
                block_id = forward.delta.add_block.id  # an expander with a key is a widget too
                if block_id.startswith("$$ID"):
                    self.ids[block_id.rsplit("-", 1)[-1]] = block_id
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                name = element.WhichOneof("type")
                run.elements.append((name, element))
                widget_id = getattr(getattr(element, name), "id", "")
                if isinstance(widget_id, str) and widget_id.startswith("$$ID"):
                    self.ids[widget_id.rsplit("-", 1)[-1]] = widget_id
            elif kind == "script_finished" and forward.script_finished in FINISHED:
                self.fragments.update(announced)
                run.seconds, run.query_string = time.perf_counter() - started, self.query_string
                return run

    def join(self, query_string: str, phone: str | None = None, timeout: float | None = None) -> Run:
        """Open /join as a phone whose browser keeps ``phone`` as its identity (a new random one
        by default), as the page's storage component would say it (pages/widgets/remembered.py)."""
        import secrets

        self.run(query_string, timeout=timeout)
        self.set_json("join_identity", {"value": phone or "p" + secrets.token_urlsafe(12)})
        return self.run(timeout=timeout)

    def widget_id(self, key: str) -> str:
        if key not in self.ids:
            raise KeyError(f"no widget with key {key!r} in the last run ({sorted(self.ids)})")
        return self.ids[key]

    def set_json(self, key: str, value: object) -> None:
        """The widget ``key``'s value as JSON (a component's state, a data editor's edits), as is."""
        self.set_raw(key, json_value=value if isinstance(value, str) else json.dumps(value))

    def set_raw(self, key: str, **value: object) -> None:
        """The widget ``key``'s WidgetState, one field set (``int_value=``, ``string_value=``, …)."""
        state = WidgetState(id=self.widget_id(key), **value)
        self.states[state.id] = state

    def trigger(self, key: str, event: str, value: object) -> None:
        """A component's event (its trigger aggregator: ``{"event": …, "value": …}``)."""
        self.states[f"{self.widget_id(key)}__events"] = WidgetState(
            id=f"{self.widget_id(key)}__events",
            json_trigger_value=json.dumps([{"event": event, "value": value}]),
        )
