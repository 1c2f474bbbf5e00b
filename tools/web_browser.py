"""Drive the browser build in headless Chromium (Selenium): for host_tests/test_web*.py and
the web figures of tools/bench.py.

    with WebSession(site_dir) as web:        # serves site_dir on 127.0.0.1, starts Chromium
        web.open("pimoroni_display_pack")    # load the page, wait for its first picture
        web.keys("y", "a", hold=0.06)        # real key presses (held, released)
        web.exec("print(shell.app.screen)")  # Python in the game's VM (web/worker.js)
        web.indices()                        # the screen: a palette index per pixel

``python tools/web_browser.py [docs/web.png]`` takes the README's screenshot of the page
(from build/web/: `make web` first): a seeded Island One game, three turns in.

Chromium and its driver are Debian's (``chromium``, ``chromium-driver``: `make setup`);
``CHROMIUM`` and ``CHROMEDRIVER`` in the environment point elsewhere.
"""

import os
import shutil
import threading
import time

import web  # tools/

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
READY_S = 30  # the page's first picture, at most


def missing():
    """Why the browser tests cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (requirements-dev.txt: run `make setup`)"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.exists(path) or shutil.which(path)):
            return "%s is missing (apt-get install chromium chromium-driver: `make setup`)" % path
    return None


class WebSession:
    """A local server for a built site and one headless Chromium on it."""

    def __init__(self, site, width=1000, height=760, phone=None):
        """``phone``: (width, height, device pixel ratio) to emulate a phone with touch
        (Chromium's mobile emulation: its viewport, pixel ratio, a coarse pointer)."""
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.httpd = web.server(0, site, quiet=True)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.base = "http://127.0.0.1:%d/" % self.httpd.server_address[1]
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=%d,%d" % (width, height), "--hide-scrollbars",
                  "--disable-background-timer-throttling", "--disable-renderer-backgrounding"):
            o.add_argument(a)
        if phone:
            w, h, ratio = phone
            o.add_experimental_option("mobileEmulation", {
                "deviceMetrics": {"width": w, "height": h, "pixelRatio": ratio, "touch": True},
                "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                             "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"})
        o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
        except Exception:
            self.httpd.shutdown()
            raise
        self.driver.set_script_timeout(120)
        self.board = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.httpd.shutdown()
            self.httpd.server_close()

    # ---------------------------------------------------------------- the page

    def open(self, board=None, clear=False):
        """Load the page (``board``: its ?board=), wait for the first picture; ``clear``:
        forget every save first, and what the console said before (a test's problems are its own).
        Returns ms from navigation to that picture."""
        d = self.driver
        if clear:
            d.get(self.base + "index.html?clear")  # the page loads; its saves go
            self.wait_ready()
            d.execute_script("localStorage.clear()")
            d.get_log("browser")  # read is gone: an earlier page's late errors are not this one's
        d.get(self.base + ("?board=" + board if board else ""))
        self.wait_ready()
        self.board = d.execute_script("return cdg.board")
        return d.execute_script("return cdg.firstFrameMs")

    def wait_ready(self):
        self.driver.set_script_timeout(READY_S)
        try:
            self.driver.execute_async_script(
                "const done = arguments[0];"
                "window.cdg.ready.then(() => done(null), (e) => done(String(e)));")
        finally:
            self.driver.set_script_timeout(120)

    def exec(self, code):
        """Run Python in the game's VM (the namespace where ``shell`` lives); what it printed.
        A Python exception fails with its traceback."""
        ok, text = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "cdg.exec(arguments[0]).then((t) => done([true, t]), (e) => done([false, String(e.message)]));",
            code)
        if not ok:
            raise AssertionError("Python in the browser failed:\n" + text)
        return text

    def value(self, expr):
        return self.exec("print(%s)" % expr).strip()

    def indices(self):
        """The canvas as bytes, one palette index per pixel (row-major)."""
        s = self.driver.execute_script("return cdg.indices()")
        if "?" in s:
            raise AssertionError("the canvas holds a colour outside the game's palette")
        return bytes.fromhex("".join("0" + ch for ch in s))

    def script(self, js, *args):
        return self.driver.execute_script(js, *args)

    # ---------------------------------------------------------------- input

    _KEYS = {"up": "ARROW_UP", "down": "ARROW_DOWN", "left": "ARROW_LEFT", "right": "ARROW_RIGHT",
             "press": "ENTER"}

    def key_name(self, role):
        """The keyboard key for a role on this board."""
        from selenium.webdriver.common.keys import Keys

        return getattr(Keys, self._KEYS[role]) if role in self._KEYS else role

    def keys(self, *roles, hold=0.06, gap=0.04):
        """Press and release each role's key in turn, held ``hold`` s (real key events)."""
        from selenium.webdriver.common.action_chains import ActionChains

        if not roles:
            return
        chain = ActionChains(self.driver, duration=0)
        for r in roles:
            k = self.key_name(r)
            chain.key_down(k).pause(hold).key_up(k).pause(gap)
        chain.perform()

    def touch(self, role, hold=0.1):
        """A finger on the page's button for ``role`` for ``hold`` s (touch pointer events)."""
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput
        from selenium.webdriver.common.by import By

        el = self.driver.find_element(By.CSS_SELECTOR, '[data-role="%s"]' % role)
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        b = ActionBuilder(self.driver, mouse=finger, duration=0)
        b.pointer_action.move_to(el).pointer_down().pause(hold).pointer_up()
        b.perform()

    def settle(self, timeout=60.0):
        """Wait until the game is idle: no computer turn under way, no picture for 100 ms."""
        end = time.time() + timeout
        last = None
        while time.time() < end:
            frames, busy = self.driver.execute_script("return [cdg.frames, cdg.busy]")
            if not busy and frames == last:
                return
            last = frames
            time.sleep(0.1)
        raise AssertionError("the game stayed busy for %.0f s" % timeout)

    # ---------------------------------------------------------------- problems

    def problems(self):
        """Console errors of the page (and its worker) and what the page itself reported."""
        out = [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        return out + list(self.driver.execute_script("return cdg.errors"))


def readme_screenshot(path, site=None):
    """The README's picture: the page at 1000x757 with a game on the Display Pack, three
    turns into a seeded Island One game against the hard computer, a die marked."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    keys_src = open(os.path.join(root, "host_tests", "mp", "ui_autokeys.py")).read()
    with WebSession(site or web.OUT, 1000, 900) as b:
        b.open("pimoroni_display_pack", clear=True)
        b.exec("import os, sys\ntry:\n    os.mkdir('/tests')\nexcept OSError:\n    pass\n"
               "open('/tests/ui_autokeys.py', 'w').write(%r)\nsys.path.append('/tests')\n"
               "import ui_autokeys\nfrom catan.players import next_action\n"
               "shell.app.settings.speed = 3\nshell.app.new_game(1, (255, 2), 1234)" % keys_src)
        while b.value("shell.app.game.turns[0]") != "3":
            b.settle()
            if b.value("shell.app.busy() or shell.app.game.player != 0") == "True":
                continue
            b.keys(*b.value("','.join(ui_autokeys.next_keys(shell.app, next_action("
                            "shell.app.game, 2, 0)))").split(","))
        b.settle()
        b.keys("a")  # roll
        b.settle()
        b.keys("y", "a")  # mark the second die
        b.settle()
        with open(path, "wb") as f:
            f.write(b.driver.get_screenshot_as_png())


if __name__ == "__main__":
    import sys

    readme_screenshot(sys.argv[1] if len(sys.argv) > 1 else "docs/web.png")
