#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol, for the viewer's
tests: a window of a given size, touch swipes, keys, screenshots, and what
the page shows. Talks over --remote-debugging-pipe (file descriptors 3 and 4,
messages ending in NUL), so it needs nothing but Python and Chromium.

  drive.py PROFILE STEPS_JSON

STEPS_JSON is a list of steps, run in order:
  {"window": [W, H]}        the viewport's size in CSS pixels (a resize event)
  {"open": URL}             navigate and wait for the page to load
  {"settle": true}          wait until the shown image has loaded (after the
                            viewer's resize delay)
  {"swipe": "left"|"right"} one finger across the middle of the window
  {"key": "ArrowRight"}     a key press
  {"screenshot": PATH}      the viewport as a PNG
  {"state": true}           record the URL's hash, the layout, the image
  {"eval": EXPRESSION}      record the value of a JavaScript expression
  {"wait": EXPRESSION}      wait until a JavaScript expression is true
Prints the recorded states as one JSON list.
"""
import base64
import json
import os
import subprocess
import sys
import time

PROFILE, STEPS = sys.argv[1], json.loads(sys.argv[2])


class Browser:
    def __init__(self):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes answers on fd 4. The
        # pipes may themselves be fds 3 to 6: copy both ends above them first.
        def child_fds():
            read, write = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(read, 3)
            os.dup2(write, 4)
        self.process = subprocess.Popen(
            ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", "--user-data-dir=" + PROFILE, "--no-first-run", "about:blank"],
            preexec_fn=child_fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.out, self.inp = os.fdopen(to_chrome_w, "wb"), os.fdopen(from_chrome_r, "rb")
        self.next_id, self.buffer, self.session = 0, b"", None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.out.write(json.dumps(message).encode() + b"\0")
        self.out.flush()
        while True:
            answer = self.read()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def read(self):
        while b"\0" not in self.buffer:
            chunk = self.inp.read1(65536)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def wait(self, what, expression, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        state = self.evaluate("document.body.outerHTML")
        raise RuntimeError(f"{what}: timed out waiting for {expression}\n{state}")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        self.process.wait(timeout=10)


def main():
    browser = Browser()
    states = []
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        browser.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                       session=False)["sessionId"]
        browser.send("Page.enable")
        browser.send("Runtime.enable")
        browser.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        size = (1000, 700)
        for number, step in enumerate(STEPS, start=1):
            if "window" in step:
                size = tuple(step["window"])
                browser.send("Emulation.setDeviceMetricsOverride",
                             {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
            elif "open" in step:
                browser.send("Page.navigate", {"url": step["open"]})
                browser.wait(f"step {number}", "document.readyState === 'complete'")
            elif "settle" in step:
                time.sleep(0.5)  # the viewer waits 250 ms after a resize before it reopens the book
                browser.wait(f"step {number}", "(() => { const i = document.getElementById('spread');"
                             " return i && !i.hidden && i.complete && i.naturalWidth > 0"
                             " && i.src.endsWith(i.getAttribute('src')); })()")
            elif "swipe" in step:
                y = size[1] // 2
                xs = (size[0] * 3 // 4, size[0] // 4) if step["swipe"] == "left" else (size[0] // 4, size[0] * 3 // 4)
                browser.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": xs[0], "y": y}]})
                browser.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                          "touchPoints": [{"x": (xs[0] + xs[1]) // 2, "y": y}]})
                browser.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": xs[1], "y": y}]})
                browser.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            elif "key" in step:
                for kind in ("keyDown", "keyUp"):
                    browser.send("Input.dispatchKeyEvent", {"type": kind, "key": step["key"], "code": step["key"]})
            elif "screenshot" in step:
                data = browser.send("Page.captureScreenshot", {"format": "png"})["data"]
                with open(step["screenshot"], "wb") as f:
                    f.write(base64.b64decode(data))
            elif "wait" in step:
                browser.wait(f"step {number}", step["wait"])
            elif "eval" in step:
                states.append(browser.evaluate(step["eval"]))
            elif "state" in step:
                states.append(browser.evaluate(
                    "(() => { const i = document.getElementById('spread'); return {"
                    " hash: location.hash, layout: document.body.dataset.layout || null,"
                    " direction: document.body.dataset.direction || null,"
                    " page: i.dataset.page || null, spread: i.dataset.spread || null, src: i.getAttribute('src'),"
                    " position: document.getElementById('position').textContent,"
                    " width: i.naturalWidth, height: i.naturalHeight,"
                    " innerWidth: window.innerWidth, innerHeight: window.innerHeight }; })()"))
    finally:
        browser.close()
    print(json.dumps(states))


if __name__ == "__main__":
    main()
