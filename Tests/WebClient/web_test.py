"""End-to-end checks of `jarvis web` in a real Chromium, driven by Playwright for Python.

Run by Tests/EndToEndTests/WebEndToEndTests.swift:

    python web_test.py SCENARIO

Environment: JARVIS_BIN and JARVIS_AGENT_BIN (the binaries), JARVIS_RUNTIME_DIR (the
sandbox's runtime folder), WORK (a scratch folder of the sandbox), CHROMIUM (the browser,
default /usr/bin/chromium), SCREENSHOTS (where the screenshots scenario writes its pictures).
The scenario starts its own agents and `jarvis web`, finds everything by the names a person
reads (roles and labels), and exits 0 after printing "ok"; a failed check raises.
"""

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse

from playwright.sync_api import expect, sync_playwright

JARVIS = os.environ["JARVIS_BIN"]
AGENT = os.environ["JARVIS_AGENT_BIN"]
RUNTIME = os.environ["JARVIS_RUNTIME_DIR"]
WORK = os.environ["WORK"]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TIMEOUT = 20_000
expect.set_options(timeout=TIMEOUT)


def environment():
    env = {"JARVIS_RUNTIME_DIR": RUNTIME, "NO_COLOR": "1"}
    for name in ("XDG_CONFIG_HOME", "HOME", "PATH"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def wait_until(condition, message, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out: {message}")


def jarvis(*arguments, expect_status=0):
    result = subprocess.run([JARVIS, *arguments], env=environment(), capture_output=True, text=True, timeout=60)
    check(result.returncode == expect_status, f"jarvis {' '.join(arguments)} -> {result.returncode}: {result.stderr}")
    return result.stdout


class Agent:
    """A `jarvis-agent` child, ready once its discovery file is there."""

    def __init__(self, *arguments):
        self.arguments = arguments
        RUNNING.append(self)
        self.start()

    def start(self):
        self.process = subprocess.Popen([AGENT, *self.arguments], env=environment(),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        path = os.path.join(RUNTIME, f"{self.process.pid}.json")
        wait_until(lambda: os.path.exists(path) or self.process.poll() is not None, "the agent's discovery file")
        if self.process.poll() is not None:
            raise AssertionError(f"the agent exited: {self.process.stderr.read()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)


class Web:
    """`jarvis web --no-open`, with the address it printed."""

    def __init__(self, *arguments):
        RUNNING.append(self)
        self.process = subprocess.Popen([JARVIS, "web", "--no-open", *arguments], env=environment(),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:(\d+)/\?k=[0-9a-f]+)", line)
        if match is None:
            raise AssertionError(f"jarvis web printed no address: {line!r} {self.process.stderr.read()}")
        self.url = match.group(1)
        self.port = int(match.group(2))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=20)


def launch(playwright, scheme="light"):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox"] if os.geteuid() == 0 else [])
    RUNNING.append(browser)
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1400, "height": 860})
    context.set_default_timeout(TIMEOUT)
    return browser, context


def open_page(context, web):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("dialog", lambda dialog: (errors.append("a script dialog opened: " + dialog.message), dialog.dismiss()))
    PAGES.append(page)
    page.goto(web.url)
    check(page.url.rstrip("/").endswith(f":{web.port}"), f"the secret stayed in the address bar: {page.url}")
    expect(page.get_by_role("grid", name="Keys")).to_be_visible()
    page.errors = errors
    return page


PAGES = []
# What main() stops at the end, last first: browsers, `jarvis web`, agents.
RUNNING = []


def grid_row(page, key):
    """The table row whose key cell reads exactly `key`."""
    return page.get_by_role("row").filter(has=page.locator(".key-name").get_by_text(key, exact=True))


def scope(page, name):
    page.get_by_role("navigation").get_by_role("button", name=re.compile("^" + re.escape(name) + ", ")).click()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def read(path):
    with open(path) as handle:
        return handle.read()


def plist(values):
    entries = []
    for key, value in values.items():
        if isinstance(value, bool):
            entries.append(f"<key>{key}</key><{'true' if value else 'false'}/>")
        elif isinstance(value, int):
            entries.append(f"<key>{key}</key><integer>{value}</integer>")
        else:
            entries.append(f"<key>{key}</key><string>{value}</string>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict>'
            + "".join(entries) + "</dict></plist>\n")


def escape_xml(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# MARK: - Scenarios


def scenario_browse(playwright):
    """Browse and filter: containers with counts, natural order, chips, markup shown as text."""
    prefs = os.path.join(WORK, "prefs")
    values = {f"key_{n}": n for n in (1, 2, 10)}
    values[escape_xml("<img src=x onerror=alert(1)>")] = escape_xml("<b>bold</b>")
    values["launch_count"] = 3
    write(os.path.join(prefs, "app.suite.plist"), plist(values))
    agent = Agent("--defaults-dir", prefs, "--name", "browse")
    web = Web()
    browser, context = launch(playwright)
    page = open_page(context, web)
    nav = page.get_by_role("navigation")
    expect(nav.get_by_role("button", name=re.compile(r"^app\.suite, 5 keys"))).to_be_visible()
    scope(page, "app.suite")
    for key in ("key_1", "key_2", "key_10", "launch_count", "<img src=x onerror=alert(1)>"):
        expect(grid_row(page, key)).to_have_count(1)
    keys = page.locator(".viewport .key-name").all_text_contents()
    check(keys.index("key_2") < keys.index("key_10"), f"not in natural order: {keys}")
    check(page.locator(".viewport img").count() == 0, "a key's markup was run")
    expect(grid_row(page, "<img src=x onerror=alert(1)>")).to_contain_text("<b>bold</b>")
    page.get_by_role("searchbox", name="Filter").fill("key_?")
    expect(page.locator(".viewport .row")).to_have_count(2)
    page.get_by_role("searchbox", name="Filter").fill("bold")
    expect(page.locator(".viewport .row")).to_have_count(1)
    page.get_by_role("searchbox", name="Filter").fill("")
    page.get_by_role("button", name="Integer").click()
    expect(page.locator(".viewport .row")).to_have_count(4)
    expect(page.get_by_role("button", name="Integer")).to_have_attribute("aria-pressed", "true")
    check(not page.errors, f"page errors: {page.errors}")


SCENARIOS = {name[len("scenario_"):]: value for name, value in globals().items() if name.startswith("scenario_")}


def main():
    name = sys.argv[1]
    with sync_playwright() as playwright:
        try:
            SCENARIOS[name](playwright)
        except BaseException:
            # What the page showed when a check failed, for the person reading the failure.
            for index, page in enumerate(PAGES):
                try:
                    page.screenshot(path=os.path.join(WORK, f"failure-{name}-{index}.png"))
                    print(f"screenshot: {os.path.join(WORK, f'failure-{name}-{index}.png')}", file=sys.stderr)
                except Exception:
                    pass
            raise
        finally:
            for thing in reversed(RUNNING):
                try:
                    thing.close() if hasattr(thing, "close") else thing.stop()
                except Exception:
                    pass
    print("ok")


if __name__ == "__main__":
    main()
