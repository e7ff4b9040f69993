"""Shared by the browser tests: headless Chromium through Selenium (Debian's chromium,
chromium-driver and python3-selenium; run with /usr/bin/python3), the loud skip when Chromium
cannot start, polling instead of sleeping, screenshots saved as test artifacts and a check that a
screenshot is not blank (its PNG decoded here: zlib and the five PNG filters, no imaging library).

Decisions:
- Skip (exit status SKIP, ctest's SKIP_RETURN_CODE) only when the browser cannot be started:
  Selenium missing, no chromium or chromedriver binary (preflight(), which each test calls before
  it starts anything), or the driver refusing to start. Every other failure is a test failure.
  REFEREE_REQUIRE_BROWSER=1 turns the skip into a failure (skip_test.py checks both).
- Every wait polls a condition with a generous deadline (the machine is shared and slow).
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

SKIP = 77
CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("REFEREE_CHROMEDRIVER", "/usr/bin/chromedriver")

DESKTOP = (1280, 900)
PHONE = (375, 812)


def skip(reason):
    """Exits with ctest's skip code after a loud banner; with REFEREE_REQUIRE_BROWSER=1 in the
    environment (a CI that has Chromium), a browser that cannot start is a failure instead."""
    bar = "!" * 78
    if os.environ.get("REFEREE_REQUIRE_BROWSER") == "1":
        print(f"{bar}\nFAILED: the browser test cannot run and REFEREE_REQUIRE_BROWSER=1: {reason}\n{bar}",
              flush=True)
        sys.exit(1)
    print(f"{bar}\nSKIPPED: the browser test cannot run: {reason}\n{bar}", flush=True)
    sys.exit(SKIP)


def preflight():
    """Each test calls this first, before it starts anything: a (loud) skip, or a failure under
    REFEREE_REQUIRE_BROWSER=1, when Selenium cannot be imported or Chromium or its driver is
    missing. After it, `from selenium... import ...` succeeds."""
    try:
        from selenium import webdriver  # noqa: F401
        from selenium.webdriver.chrome.service import Service  # noqa: F401
        from selenium.webdriver.common.by import By  # noqa: F401
        from selenium.webdriver.common.keys import Keys  # noqa: F401
    except ImportError as e:
        skip(f"python3-selenium is not installed ({e}); ./deps.sh installs it")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            skip(f"{path} is missing; ./deps.sh installs chromium and chromium-driver")


def fail(message):
    print(f"FAILED: {message}", flush=True)
    sys.exit(1)


class Browser:
    """A headless Chromium with its own temporary profile; use as a context manager."""

    def __init__(self, size=DESKTOP):
        preflight()
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.profile = tempfile.mkdtemp(prefix="referee-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update",
                     "--no-first-run", "--disable-sync", "--hide-scrollbars",
                     "--force-device-scale-factor=1", f"--user-data-dir={self.profile}",
                     f"--window-size={size[0]},{size[1]}"):
            options.add_argument(flag)
        try:
            self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        except Exception as e:  # the driver's errors have no common base worth naming
            shutil.rmtree(self.profile, ignore_errors=True)
            skip(f"Chromium does not start: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        self.driver.set_page_load_timeout(60)
        self.driver.set_script_timeout(60)
        self.resize(size)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def resize(self, size):
        """Makes the viewport `size` wide and high; a phone width (under 600) is emulated as a
        mobile device (the page's viewport meta tag applies)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, what, condition, timeout=60.0, interval=0.1):
        """Polls `condition()` until it returns a true value, which is returned; fails naming
        `what` after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        last_error = None
        while time.monotonic() < deadline:
            try:
                value = condition()
                if value:
                    return value
            except Exception as e:  # a page in the middle of a redraw
                last_error = e
            time.sleep(interval)
        logs = self.console_errors()
        fail(f"timed out after {timeout:.0f} s waiting for {what}"
             + (f" (last error: {last_error})" if last_error else "")
             + (f"; console: {logs}" if logs else ""))

    def click(self, what, selector, text=None, timeout=60.0):
        """Clicks the first element matching `selector` (and showing `text`), found and clicked
        in one script: pages redraw parts of themselves at any moment, so no element is held."""
        self.wait(what, lambda: self.js("""
            const x = Array.from(document.querySelectorAll(arguments[0]))
              .find(e => arguments[1] === null || e.textContent.trim() === arguments[1]);
            if (!x) return false;
            x.click();
            return true;""", selector, text), timeout)

    def console_errors(self):
        try:
            return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        except Exception:
            return []

    def screenshot(self, element_or_none, path):
        """Saves a PNG of an element (or of the viewport) and returns its bytes."""
        png = (element_or_none.screenshot_as_png if element_or_none is not None
               else self.driver.get_screenshot_as_png())
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(png)
        return png


def check_fits(b, what, width=PHONE[0]):
    """The page at a phone's width scrolls only downward: nothing is wider than the screen."""
    layout = b.js("return [window.innerWidth, document.documentElement.scrollWidth];")
    if layout[0] != width or layout[1] > width:
        # What sticks out: boxes past the right edge, or boxes whose own text overflows them,
        # outside any scrolling or clipping container (a wide table may scroll in its own box).
        wide = b.js("""
            const w = arguments[0], out = [];
            for (const e of document.querySelectorAll('body *')) {
              const sticks = e.getBoundingClientRect().right > w + 1 || e.scrollWidth > e.clientWidth + 1
                && getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0;
              if (!sticks) continue;
              let p = e.parentElement, clipped = false;
              for (; p && !clipped; p = p.parentElement) clipped = getComputedStyle(p).overflowX !== 'visible';
              if (!clipped) out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                + (typeof e.className === 'string' && e.className ? '.' + e.className : '')
                + ' "' + (e.textContent || '').slice(0, 40) + '"');
            }
            return out.slice(0, 6);""", width)
        fail(f"{what} is {layout[1]} px wide at a {width} px screen (viewport {layout[0]}): {wide}")


def png_pixels(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def image_stats(png, step=2):
    """(distinct colours, standard deviation of the luminance) over every `step`-th pixel."""
    width, height, rows = png_pixels(png)
    colours, values = set(), []
    for y in range(0, height, step):
        for x in range(0, width, step):
            r, g, b = rows[y][x]
            colours.add((r, g, b))
            values.append(0.299 * r + 0.587 * g + 0.114 * b)
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    return len(colours), variance ** 0.5


def check_not_blank(png, what, min_colours=12, min_deviation=8.0):
    colours, deviation = image_stats(png)
    if colours < min_colours or deviation < min_deviation:
        fail(f"{what} looks blank: {colours} colours, luminance deviation {deviation:.1f}")
    return colours, deviation


def run(args, timeout=60, ok=(0,)):
    """Runs a program; returns its stdout (and its status when `ok` allows several), failing the
    test with its stderr when the status is not in `ok`."""
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if r.returncode not in ok:
        fail(f"{' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout if ok == (0,) else (r.stdout, r.returncode)


class Daemon:
    """`referee serve` on a free loopback port with a database in a temporary folder (or `db`);
    use as a context manager. `url` is its address; api(path) and post(path, body) talk to it, with
    the operator token (`token`) on changes."""

    def __init__(self, referee, concurrency=2, extra=(), db=None):
        self.dir = tempfile.mkdtemp(prefix="referee-serve-")
        self.db = db or os.path.join(self.dir, "serve.db")
        self.log = open(os.path.join(self.dir, "serve.log"), "w+")
        # The operator token, made by the daemon on first start: every change needs it.
        self.token_file = os.path.join(self.dir, "operator.token")
        self.proc = subprocess.Popen(
            [os.path.abspath(referee), "serve", "--db", self.db, "--listen", "127.0.0.1:0",
             "--concurrency", str(concurrency), "--drain-seconds", "10",
             "--token-file", self.token_file, *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=self.dir)
        self.url = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.url is None:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("listening on "):
                self.url = line.split()[-1].rstrip("/")
        if self.url is None:
            self.stop()
            self.log.seek(0)
            fail(f"referee serve did not start: {self.log.read().strip()[-2000:]}")
        with open(self.token_file) as f:
            self.token = f.readline().strip()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        status = self.stop()
        self.log.seek(0)
        log = self.log.read()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        # A clean stop is part of the test (and how a sanitizer's report at exit is seen).
        if exc_type is None and status != 0:
            fail(f"referee serve exited {status} on SIGTERM: {log.strip()[-3000:]}")

    def stop(self):
        """SIGTERM, then the daemon's exit status (killed after 40 s: a failure)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return "killed after 40 s"
        return self.proc.returncode

    def api(self, path, body=None, method=None, content_type="application/json"):
        import json
        import urllib.error
        import urllib.request
        data = None
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method or ("POST" if data else "GET"))
        if data is not None:
            req.add_header("Content-Type", content_type)
        if req.get_method() != "GET":
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            fail(f"{req.method} {path}: HTTP {e.code} {e.read().decode(errors='replace')}")


def test_arguments(name, *engines):
    """The command line of a browser test: --referee, --artifacts and one option per engine it
    plays (e.g. "mock", "random"); returns the arguments and its artifacts folder, `name` under
    --artifacts, emptied."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--referee", required=True)
    for engine in engines:
        ap.add_argument("--" + engine, required=True)
    ap.add_argument("--artifacts", required=True)
    args = ap.parse_args()
    out = os.path.join(args.artifacts, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    return args, out
