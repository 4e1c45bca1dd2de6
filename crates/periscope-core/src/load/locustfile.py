# A Locust load test written by `periscope load --export locust` (Periscope, docs/load.md).
#
# The same workload as the `periscope load` run it came from, over MCP Streamable HTTP:
#   locust -f this_file.py --headless -u USERS -r USERS -t 60s             # one machine
#   locust -f this_file.py --master --headless --expect-workers 2 -u 8 -r 8 -t 60s
#   locust -f this_file.py --worker --master-host HOST                     # on each worker
# Each user shakes hands once, then sends PERISCOPE_PER_USER requests (default: as exported)
# and stops. Statistics are named as Periscope names them ("tools/call echo"); a JSON-RPC error
# or a tool's isError is a failure named like Periscope's ("error -32603", "isError").
import itertools
import json
import os
from urllib.parse import urlsplit

from locust import HttpUser, task
from locust.exception import StopUser

CONFIG = json.loads(r'''{{CONFIG}}''')
_URL = urlsplit(CONFIG["url"])
HOST = f"{_URL.scheme}://{_URL.netloc}"
PATH = _URL.path or "/"
if _URL.query:
    PATH += "?" + _URL.query
PER_USER = int(os.environ.get("PERISCOPE_PER_USER", CONFIG["per_user"]))
MODERN = CONFIG["era"] == "modern"


def _answer(response, want_id):
    """The JSON-RPC message answering `want_id`, from a JSON body or an event stream."""
    kind = response.headers.get("content-type", "")
    if kind.startswith("text/event-stream"):
        for event in response.text.replace("\r\n", "\n").split("\n\n"):
            data = "\n".join(
                line[5:].lstrip(" ") for line in event.split("\n") if line.startswith("data:")
            )
            if not data:
                continue
            try:
                message = json.loads(data)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("id") == want_id:
                return message
        return None
    try:
        return response.json()
    except ValueError:
        return None


class _Picker:
    """Smooth weighted round robin, as Periscope picks: the same interleaved mix each run."""

    def __init__(self, requests):
        self.requests = requests
        self.current = [0] * len(requests)
        self.total = sum(r["weight"] for r in requests)

    def next(self):
        best = 0
        for i, r in enumerate(self.requests):
            self.current[i] += r["weight"]
            if self.current[i] > self.current[best]:
                best = i
        self.current[best] -= self.total
        return self.requests[best]


class McpUser(HttpUser):
    host = HOST

    def on_start(self):
        self.ids = itertools.count(1)
        self.session_id = None
        self.sent = 0
        self.picker = _Picker(CONFIG["requests"])
        handshake = CONFIG["handshake"]
        self._send(handshake["method"], handshake["params"], {}, handshake["method"])
        if not MODERN:
            self._post({"jsonrpc": "2.0", "method": "notifications/initialized"}, {},
                       "notifications/initialized", None)

    def _headers(self, extra):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if MODERN or self.session_id:
            headers["MCP-Protocol-Version"] = CONFIG["protocol_version"]
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        headers.update(extra)
        return headers

    def _post(self, body, extra, name, want_id, tool=False):
        with self.client.post(PATH, data=json.dumps(body), headers=self._headers(extra),
                              name=name, catch_response=True) as response:
            if response.headers.get("mcp-session-id"):
                self.session_id = response.headers["mcp-session-id"]
            if want_id is None:
                if response.status_code >= 400:
                    response.failure(f"HTTP {response.status_code}")
                else:
                    response.success()
                return
            message = _answer(response, want_id)
            if message is None:
                response.failure(f"HTTP {response.status_code}, no answer")
            elif "error" in message:
                response.failure(f"error {message['error'].get('code')}")
            elif tool and (message.get("result") or {}).get("isError") is True:
                response.failure("isError")
            else:
                response.success()

    def _send(self, method, params, extra, name):
        request_id = next(self.ids)
        body = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        extra = dict(extra)
        if MODERN:
            extra.setdefault("Mcp-Method", method)
        self._post(body, extra, name, request_id, tool=method == "tools/call")

    @task
    def workload(self):
        if self.sent >= PER_USER:
            raise StopUser()
        self.sent += 1
        request = self.picker.next()
        self._send(request["method"], request["params"], request["headers"], request["label"])
