#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol (standard library only): opens the
walletwatch page, marks the loaded document, runs a CLI command in another process, and
checks that the page shows its effect without having been reloaded. With --restart, it then
runs SCRIPT (which stops the server, changes something while it is down, and starts it again
on the same port) and checks that the page, reconnected by itself, shows that change too.

With --phone, it instead opens the page as a 390-pixel-wide phone (the viewport a phone's
browser gives a page with width=device-width) and checks that it does not scroll sideways
(document.documentElement.scrollWidth <= screen.width) while it shows the long texts named by
--expect (a source's error with a long URL, say) and at least ROWS transaction rows; it saves
a screenshot of the whole page to PNG.

usage: browser_check.py CHROMIUM URL EXPECTED_TEXT [--restart SCRIPT EXPECTED_AFTER] -- COMMAND...
       browser_check.py --phone CHROMIUM URL PNG ROWS [--expect TEXT]...
"""
import base64, json, os, shutil, socket, struct, subprocess, sys, tempfile, time, urllib.request


class DevTools:
    """A minimal WebSocket client for one DevTools target (text frames, masked, no extensions)."""

    def __init__(self, ws_url):
        rest = ws_url[len("ws://"):]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(4096)
        if b" 101 " not in response.split(b"\r\n")[0]:
            raise RuntimeError(f"DevTools refused the websocket: {response[:200]!r}")
        self.buffer = response.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0

    def _send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read_exact(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read_exact(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read_exact(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read_exact(8))[0]
            message += self._read_exact(length)
            if first & 0x80:
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = self._receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


class Browser:
    """Headless Chromium with its DevTools endpoint, and the page it opened, for a with-block."""

    def __init__(self, chromium):
        self.chromium = chromium

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="walletwatch-chromium-")
        self.process = subprocess.Popen([self.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                         "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 60
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if time.time() > deadline or self.process.poll() is not None:
                raise RuntimeError("Chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t.get("type") == "page")
        return DevTools(page["webSocketDebuggerUrl"])

    def __exit__(self, *_):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


PHONE_WIDTH = 390


def phone(chromium, url, png, rows, expected):
    """The page at a phone's width: no sideways scrolling, with the long texts on it."""
    with Browser(chromium) as tools:
        tools.call("Page.enable")
        # An iPhone 12 to 15: 390 CSS pixels wide, 844 high, a mobile viewport (the page's
        # <meta name=viewport content="width=device-width"> decides its layout width).
        tools.call("Emulation.setDeviceMetricsOverride", width=PHONE_WIDTH, height=844, deviceScaleFactor=2, mobile=True,
                   screenWidth=PHONE_WIDTH, screenHeight=844)
        tools.call("Page.navigate", url=url)
        deadline = time.time() + 30
        while not tools.evaluate("document.readyState == 'complete' && !!document.getElementById('dashboard')"):
            if time.time() > deadline:
                raise RuntimeError("the page did not load at phone width")
            time.sleep(0.1)
        text = tools.evaluate("document.getElementById('dashboard').innerText") or ""
        for needed in expected:
            if needed not in text:
                raise RuntimeError(f"'{needed[:60]}…' is not on the page, so the phone check would prove nothing")
        shown = tools.evaluate("document.querySelectorAll('#dashboard tbody tr').length")
        if shown < rows:
            raise RuntimeError(f"the page shows {shown} table rows, fewer than the {rows} the check needs")
        sizes = tools.evaluate("JSON.stringify({scroll: document.documentElement.scrollWidth, screen: screen.width, viewport: window.innerWidth})")
        sizes = json.loads(sizes)
        metrics = tools.call("Page.getLayoutMetrics")
        height = int(metrics["cssContentSize"]["height"])
        shot = tools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": PHONE_WIDTH, "height": height, "scale": 1})
        with open(png, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        if sizes["screen"] != PHONE_WIDTH:
            raise RuntimeError(f"the emulated phone is {sizes['screen']} px wide, not {PHONE_WIDTH}")
        # A page wider than the screen scrolls sideways; a phone's browser may also widen its
        # viewport to the page (zooming out), which is the same failure.
        if sizes["scroll"] > sizes["screen"] or sizes["viewport"] > sizes["screen"]:
            widest = tools.evaluate("""(() => { let w = null; for (const e of document.querySelectorAll('#dashboard *')) {
                const r = e.getBoundingClientRect(); if (r.right > screen.width + 0.5 && (!w || r.right > w.right)) w = {tag: e.tagName, cls: e.className, right: r.right, text: (e.innerText || '').slice(0, 80)}; }
                return JSON.stringify(w); })()""")
            raise RuntimeError(f"the page is {sizes['scroll']} px wide (viewport {sizes['viewport']} px) on a {sizes['screen']} px phone: "
                               f"it scrolls sideways (widest: {widest}); see {png}")
        print(f"browser-check: at {PHONE_WIDTH} px the page is {sizes['scroll']} px wide with {shown} table rows and the long texts on it: "
              f"no sideways scrolling (screenshot {png})")


def main():
    if sys.argv[1:2] == ["--phone"]:
        chromium, url, png, rows = sys.argv[2:6]
        rest = sys.argv[6:]
        expected = [rest[i + 1] for i in range(0, len(rest) - 1, 2) if rest[i] == "--expect"]
        phone(chromium, url, png, int(rows), expected)
        return
    chromium, url, expected = sys.argv[1:4]
    separator = sys.argv.index("--")
    options = sys.argv[4:separator]
    restart = (options[1], options[2]) if options[:1] == ["--restart"] else None
    command = sys.argv[separator + 1:]
    with Browser(chromium) as tools:
        tools.call("Page.enable")
        tools.call("Page.navigate", url=url)
        deadline = time.time() + 30
        # 'live', or 'live · updated …' once the stream's first event has refreshed the page.
        while not tools.evaluate("document.readyState == 'complete' && ((document.getElementById('live')||{}).textContent||'').startsWith('live')"):
            if time.time() > deadline:
                raise RuntimeError("the page did not connect to /events: " + str(tools.evaluate("document.body && document.body.innerText.slice(0, 300)")))
            time.sleep(0.1)
        tools.evaluate("window.__walletwatchCheck = 'same document'")
        before = tools.evaluate("document.getElementById('dashboard').innerText")
        if expected in before:
            raise RuntimeError(f"'{expected}' is on the page before the change; the check would prove nothing")
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        changed_at = time.time()
        while expected not in (tools.evaluate("document.getElementById('dashboard').innerText") or ""):
            if time.time() - changed_at > 5:
                raise RuntimeError(f"'{expected}' did not appear within 5 s of the change")
            time.sleep(0.1)
        elapsed = time.time() - changed_at
        if tools.evaluate("window.__walletwatchCheck") != "same document":
            raise RuntimeError("the page was reloaded instead of updated in place")
        print(f"browser-check: the change appeared on the page {elapsed:.2f} s after the CLI command, without a reload")
        if restart:
            script, expected_after = restart
            subprocess.run([script], check=True, stdout=subprocess.DEVNULL)
            restarted_at = time.time()
            # The browser retries after the stream's 2 s; the page must then fetch what it missed.
            while expected_after not in (tools.evaluate("document.getElementById('dashboard').innerText") or ""):
                if time.time() - restarted_at > 20:
                    raise RuntimeError(f"'{expected_after}', changed while the server was down, did not appear within 20 s of its restart")
                time.sleep(0.1)
            if tools.evaluate("window.__walletwatchCheck") != "same document":
                raise RuntimeError("the page was reloaded after the restart instead of updated in place")
            print(f"browser-check: after a server restart the page caught up by itself in {time.time() - restarted_at:.2f} s")


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # one line, like every walletwatch error
        print(f"browser-check: error: {error}", file=sys.stderr)
        sys.exit(1)
