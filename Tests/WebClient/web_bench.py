"""jarvis-bench's browser part of the `web` case: `jarvis web` measured in a real Chromium.

Run by Sources/jarvis-bench/WebBench.swift:

    python web_bench.py ADDRESS WEB_PID KEYS CONTAINER KEY RUNS

ADDRESS is the address `jarvis web` printed (with its one-time secret), WEB_PID its process,
KEYS how many keys the container holds, KEY a string key to change from outside with
`jarvis set` (JARVIS_BIN, with JARVIS_RUNTIME_DIR naming the agent's runtime folder). Prints
one JSON object: milliseconds to the first rows, to scroll through every key, from an outside
change to the page, and the memory of `jarvis web` per open page.
"""

import json
import os
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

ADDRESS, WEB_PID, KEYS, CONTAINER, KEY, RUNS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
JARVIS = os.environ["JARVIS_BIN"]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# Scrolls the table one screen at a time, from the top to the last row, waiting at each
# screen until its rows are drawn (none is a placeholder any more).
SCROLL = """async () => {
    const viewport = document.getElementById('viewport');
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    // A screen whose rows never arrive ends the run with an error, never a hang.
    const drawn = async () => {
        const limit = performance.now() + 10000;
        while (viewport.querySelector('.row.loading')) {
            if (performance.now() > limit) throw new Error('rows never drawn at ' + viewport.scrollTop);
            await frame();
        }
    };
    viewport.scrollTop = 0;
    await frame();
    await drawn();
    const start = performance.now();
    let screens = 0;
    while (viewport.scrollTop + viewport.clientHeight < viewport.scrollHeight - 1) {
        const before = viewport.scrollTop;
        viewport.scrollTop += viewport.clientHeight;
        if (viewport.scrollTop <= before) break;
        await frame();
        await drawn();
        screens += 1;
    }
    return { ms: performance.now() - start, screens };
}"""

# Records when a row first shows `value` (a MutationObserver: no polling interval).
WATCH = """(value) => {
    window.__seen = null;
    const observer = new MutationObserver(() => {
        const viewport = document.getElementById('viewport');
        if (window.__seen === null && viewport.textContent.includes(value)) {
            window.__seen = Date.now();
            observer.disconnect();
        }
    });
    observer.observe(document.getElementById('viewport'), { childList: true, subtree: true, characterData: true });
}"""


def rss(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main():
    results = {"first_rows_ms": [], "scroll_ms": [], "change_ms": [], "stored_ms": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox"] if os.geteuid() == 0 else [])
        context = browser.new_context(viewport={"width": 1400, "height": 860})
        context.set_default_timeout(120_000)
        page = context.new_page()
        start = time.monotonic()
        page.goto(ADDRESS)
        page.locator("#viewport .row:not(.loading)").first.wait_for()
        results["first_rows_ms"].append((time.monotonic() - start) * 1000)
        base = page.url
        # Later pages of the same browser: the cookie is kept, the secret is spent.
        before = rss(WEB_PID)
        pages = [page]
        for _ in range(RUNS - 1):
            other = context.new_page()
            start = time.monotonic()
            other.goto(base)
            other.locator("#viewport .row:not(.loading)").first.wait_for()
            results["first_rows_ms"].append((time.monotonic() - start) * 1000)
            pages.append(other)
        results["memory_per_page_mb"] = (rss(WEB_PID) - before) / max(1, RUNS - 1) / 1_048_576
        total = page.locator("#count").text_content()
        results["total"] = total
        # Chromium runs a tab that is not in front at about one animation frame a second, and
        # the pages opened since came in front: scrolled there, 100,000 keys took over an hour.
        page.bring_to_front()
        # One screen per frame at best: 100,000 keys are over a minute a run, so at most three.
        for _ in range(min(RUNS, 3)):
            scrolled = page.evaluate(SCROLL)
            results["scroll_ms"].append(scrolled["ms"])
            results["screens"] = scrolled["screens"]
        page.evaluate("() => { document.getElementById('viewport').scrollTop = 0; }")
        page.get_by_text(KEY, exact=True).first.wait_for()
        for run in range(max(3, RUNS)):
            value = f"changed outside, run {run} {time.time()}"
            page.evaluate(WATCH, value)
            sent = time.time()
            subprocess.run([JARVIS, "set", CONTAINER, KEY, value], check=True, capture_output=True, timeout=60)
            stored = time.time()
            page.wait_for_function("() => window.__seen !== null")
            results["stored_ms"].append(page.evaluate("() => window.__seen") - stored * 1000)
            results["change_ms"].append(page.evaluate("() => window.__seen") - sent * 1000)
        for other in pages:
            other.close()
        browser.close()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
