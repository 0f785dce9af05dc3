"""A headless Chromium driven through the DevTools protocol (CDP), with
nothing but the standard library: a minimal WebSocket client (RFC 6455,
client side: masked text frames out, text/ping/close frames in) over a
socket, and the browser started on a port it picks itself
(--remote-debugging-port=0, read back from DevToolsActivePort in a
temporary profile). Every call has a timeout; the browser's process group
is killed on close, and the browser gets SIGKILL should this process die
(PR_SET_PDEATHSIG), so a test never hangs or leaves a browser behind."""
import base64
import ctypes
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time

CALL_TIMEOUT_S = 20.0
START_TIMEOUT_S = 30.0


class CdpError(Exception):
    pass


def find_chromium():
    """The browser binary, or None. Debian's /usr/bin/chromium is a shell
    wrapper that does not exec; the binary itself keeps the process group
    to one browser."""
    for path in ("/usr/lib/chromium/chromium", shutil.which("chromium") or "",
                 shutil.which("chromium-browser") or ""):
        if path and os.access(path, os.X_OK):
            return path
    return None


def _die_with_parent():
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class WebSocket:
    def __init__(self, host, port, path, timeout_s):
        self.sock = socket.create_connection((host, port), timeout=timeout_s)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise CdpError("websocket: connection closed during the handshake")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise CdpError(f"websocket: handshake refused: {head.splitlines()[0]!r}")

    def send(self, text):
        payload = text.encode()
        n = len(payload)
        header = bytes([0x81])  # FIN, text
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, n, deadline):
        while len(self.buffer) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("websocket: read timed out")
            self.sock.settimeout(left)
            chunk = self.sock.recv(max(65536, n - len(self.buffer)))
            if not chunk:
                raise CdpError("websocket: connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self, deadline):
        """The next text message (fragments joined, pings answered)."""
        message = b""
        while True:
            b0, b1 = self._read(2, deadline)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2, deadline))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8, deadline))[0]
            payload = self._read(n, deadline)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise CdpError("websocket: closed by the browser")
            if opcode == 9:  # ping: answer with a masked pong
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0, 1, 2):
                message += payload
                if b0 & 0x80:
                    return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Browser:
    """One headless Chromium with one page at a time (a flat CDP session).
    The page's events are kept in self.events (method, params) in arrival
    order."""

    def __init__(self, binary, width_px=1280, height_px=800):
        self.profile = tempfile.mkdtemp(prefix="bws-chromium-")
        argv = [binary, "--headless=new", "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-gpu", "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--disable-dev-shm-usage", "--mute-audio",
                "--disable-crash-reporter", "--disable-breakpad",
                f"--window-size={width_px},{height_px}", "about:blank"]
        if os.geteuid() == 0:
            argv.insert(2, "--no-sandbox")  # the sandbox refuses to run as root
        self.log = open(os.path.join(self.profile, "chromium-stderr.txt"), "wb")
        # Nothing written outside the temporary profile (crash database, caches).
        env = dict(os.environ, HOME=self.profile, XDG_CONFIG_HOME=self.profile, XDG_CACHE_HOME=self.profile)
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=env,
                                     start_new_session=True, preexec_fn=_die_with_parent)
        self.ws, self.next_id, self.events, self.session = None, 0, [], None
        try:
            port, path = self._active_port()
            self.ws = WebSocket("127.0.0.1", port, path, CALL_TIMEOUT_S)
            self.target = None
            self.open_page()
        except BaseException:
            self.close()
            raise

    def open_page(self):
        """A fresh page (tab) in place of the current one; its events only
        are kept from now on."""
        if self.target:
            self.call("Target.closeTarget", {"targetId": self.target}, session=False)
        self.target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": self.target, "flatten": True},
                                 session=False)["sessionId"]
        self.events = []

    def _keep(self, reply):
        if "method" in reply and reply.get("sessionId") == self.session:
            self.events.append((reply["method"], reply.get("params", {})))

    def _active_port(self):
        """(port, browser websocket path) from DevToolsActivePort."""
        path = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise CdpError(f"chromium exited {self.proc.returncode} at start: {self.stderr_tail()}")
            try:
                lines = open(path).read().split("\n")
                if len(lines) >= 2 and lines[0].strip().isdigit() and lines[1].startswith("/"):
                    return int(lines[0]), lines[1].strip()
            except OSError:
                pass
            time.sleep(0.05)
        raise CdpError(f"chromium wrote no DevToolsActivePort within {START_TIMEOUT_S:.0f} s")

    def stderr_tail(self):
        try:
            text = open(os.path.join(self.profile, "chromium-stderr.txt"), errors="replace").read()
            return " | ".join(text.strip().splitlines()[-3:])[-300:]
        except OSError:
            return ""

    def call(self, method, params=None, session=True, timeout_s=CALL_TIMEOUT_S):
        self.next_id += 1
        my_id = self.next_id
        message = {"id": my_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                reply = json.loads(self.ws.receive(deadline))
            except TimeoutError:
                raise CdpError(f"{method}: no answer within {timeout_s:.0f} s") from None
            if reply.get("id") == my_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error'].get('message', reply['error'])}")
                return reply.get("result", {})
            self._keep(reply)

    def wait_event(self, method, timeout_s=CALL_TIMEOUT_S):
        """Waits for an event not yet consumed; returns its params."""
        deadline = time.monotonic() + timeout_s
        seen = 0
        while True:
            for i in range(seen, len(self.events)):
                if self.events[i][0] == method:
                    return self.events.pop(i)[1]
            seen = len(self.events)
            try:
                reply = json.loads(self.ws.receive(deadline))
            except TimeoutError:
                raise CdpError(f"no {method} within {timeout_s:.0f} s") from None
            self._keep(reply)

    def evaluate(self, expression, timeout_s=CALL_TIMEOUT_S):
        """The JSON value of a JavaScript expression (promises awaited)."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, timeout_s=timeout_s)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d.get("text", "exception")
            raise CdpError(f"evaluate: {text.splitlines()[0][:200]}")
        return r["result"].get("value")

    def close(self):
        if self.ws:
            self.ws.close()
        if self.proc.poll() is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=5)
                    break
                except subprocess.TimeoutExpired:
                    continue
        try:  # renderers left in the group after the browser exited
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
