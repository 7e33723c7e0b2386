"""A minimal LSP client over a `blkc lsp` subprocess, for tests and benches.

Messages are read on a thread into a queue so every wait has a timeout: a
hung server fails the test instead of hanging ctest.
"""
import json
import queue
import subprocess
import threading
import time


class LspClient:
    def __init__(self, blkc, args=()):
        self.proc = subprocess.Popen(
            [blkc, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        self.inbox = queue.Queue()
        self.nextId = 1
        self.stderr = b""
        threading.Thread(target=self._reader, daemon=True).start()
        threading.Thread(target=self._stderrReader, daemon=True).start()

    def _stderrReader(self):
        self.stderr = self.proc.stderr.read()

    def _reader(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            body = out.read(length)
            self.inbox.put(json.loads(body))

    def sendRaw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.sendRaw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def request(self, method, params=None):
        """Sends a request; returns its id (see waitResponse)."""
        rid = self.nextId
        self.nextId += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return rid

    def receive(self, timeout=20.0):
        try:
            msg = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no message from blkc lsp within %.0f s" % timeout)
        if msg is None:
            raise AssertionError("blkc lsp closed its output; stderr: %r" % self.stderr[-2000:])
        return msg

    def waitFor(self, predicate, timeout=20.0, skipped=None):
        """The first message satisfying `predicate`; others go to `skipped`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("timed out waiting for a message")
            msg = self.receive(left)
            if predicate(msg):
                return msg
            if skipped is not None:
                skipped.append(msg)

    def waitResponse(self, rid, timeout=20.0):
        return self.waitFor(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def call(self, method, params=None, timeout=20.0):
        return self.waitResponse(self.request(method, params), timeout)

    def waitDiagnostics(self, uri, timeout=20.0):
        return self.waitFor(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri, timeout)["params"]

    def close(self, timeout=10.0):
        """Closes stdin and returns the exit code."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        return self.proc.wait(timeout)
