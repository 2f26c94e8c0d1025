#!/usr/bin/env python3
"""The board page of `agg serve` in a real Chromium, driven by Selenium (BoardBrowserTests runs it).

Usage: board_test.py --url http://127.0.0.1:PORT --token TOKEN --control http://127.0.0.1:FPORT/control
                     --interval SECONDS --out FOLDER
The server needs TOKEN: the page is opened with it in the URL fragment, and at the end without
it, to type it into the page's form.
The server behind --url polls fixtures that --control changes (a price, a failing venue). Each
check prints one `ok:` line; the first failure prints `FAIL: ...` and exits 1. The figures
(first render, gzipped size) are printed as `figure:` lines.
"""
import argparse
import gzip
import json
import os
import re
import sys
import threading
import time
import urllib.request
from decimal import Decimal

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

XSS = "<img src=x onerror=alert(1)>"
COLUMNS = ["coin", "exchange", "last", "global", "premium", "usdtPremium", "volume", "transfer", "note"]


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message, flush=True)


def wait_for(what, deadline, probe, step=0.05):
    """probe() until it returns a truthy value or `deadline` (monotonic) passes."""
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            fail("timed out waiting for " + what)
        time.sleep(step)


TOKEN = {}


def get(url, headers=None):
    headers = dict(headers or {})
    if "token" in TOKEN:
        headers["Authorization"] = "Bearer " + TOKEN["token"]
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), response.read()


def grouped(whole):
    return re.sub(r"\B(?=(\d{3})+(?!\d))", ",", whole)


def price_text(value):
    """A KRW price as the CLI's table shows it: grouped, every decimal the value has."""
    negative = value.startswith("-")
    body = value.lstrip("-")
    whole, _, fraction = body.partition(".")
    return ("-" if negative else "") + grouped(whole) + ("." + fraction if fraction else "")


def rows(driver):
    """The table's rows as lists of cell texts, and the stale flag of each."""
    script = """
      return [...document.querySelectorAll('#board tbody tr')].map((tr) =>
        [tr.classList.contains('stale'), ...[...tr.cells].map((td) => td.textContent)]);
    """
    return driver.execute_script(script)


def stream_watcher(url, needle, seen):
    """Records when the first `board` event whose data contains `needle` arrives on /v1/stream."""
    def run():
        request = urllib.request.Request(url + "/v1/stream", headers={"Authorization": "Bearer " + TOKEN["token"]})
        with urllib.request.urlopen(request, timeout=60) as response:
            for raw in response:
                line = raw.decode()
                if line.startswith("data:") and needle in line:
                    seen["at"] = time.monotonic()
                    return
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--control", required=True)
    parser.add_argument("--interval", type=float, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    TOKEN["token"] = args.token
    # Each poll is one interval; a change shows in the poll after the one running now.
    poll_wait = 2 * args.interval + 10

    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--force-color-profile=srgb", "--force-prefers-color-scheme=light"]:
        options.add_argument(flag)
    options.binary_location = os.environ.get("AGG_TEST_CHROMIUM", "/usr/bin/chromium")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("AGG_TEST_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        # The time the table first has rows, against the time the page's HTML arrived.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
          window.__aggFirstRows = null;
          new MutationObserver((changes, observer) => {
            const body = document.querySelector('#board tbody');
            if (body && body.rows.length) { window.__aggFirstRows = performance.now(); observer.disconnect(); }
          }).observe(document, { childList: true, subtree: true });
          window.alert = () => { window.__aggAlerted = true; };
        """})
        board = json.loads(get(args.url + "/v1/premium")[2])
        driver.get(args.url + "/#token=" + args.token)
        deadline = time.monotonic() + 15
        wait_for("the first rows", deadline, lambda: rows(driver))
        check(driver.current_url == args.url + "/", "the token is read from the URL fragment, which the page drops")
        first = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [window.__aggFirstRows, n.responseEnd];")
        print("figure: first render %.1f ms after the HTML arrived (%d rows)"
              % (first[0] - first[1], len(rows(driver))), flush=True)

        # Rows: one per coin and local venue of /v1/premium, each value the JSON's string.
        expected = {}
        for row in board["rows"]:
            for venue in row["venues"]:
                if venue["local"]:
                    expected[(row["base"], venue["exchange"])] = price_text(venue["last"])
        shown = {(cells[1], cells[2]): cells[3] for cells in rows(driver)}
        check(shown == expected, "the table lists every coin and local venue of /v1/premium, prices as the JSON's strings (%d rows)" % len(expected))
        check(shown.get(("BTC", "bithumb")) == "80,630,000", "BTC on bithumb shows 80,630,000")
        fx = driver.find_element(By.ID, "fx").text
        check(fx.startswith("FX: USD→KRW " + price_text(board["fx"]["rate"]) + " from " + board["fx"]["source"] + ", as of "),
              "the header names the FX rate, its source and age: " + fx)
        if board.get("usdtPremiumPercent") is not None:
            check(driver.find_element(By.ID, "tether").text.startswith("Tether premium: "), "the header shows the tether premium")

        # Sorting by premium (exact decimals, missing values last), then the other way, by keyboard.
        button = driver.find_element(By.CSS_SELECTOR, 'th[data-key="premium"] button')
        button.click()
        def premiums():
            return [cells[5] for cells in rows(driver)]
        def numbers(texts):
            return [Decimal(t.replace(",", "").rstrip("%")) for t in texts if t != "-"]
        down = premiums()
        check(numbers(down) == sorted(numbers(down), reverse=True) and down[len(numbers(down)):] == ["-"] * (len(down) - len(numbers(down))),
              "a click on Premium sorts it from the highest, missing values last")
        button.send_keys(Keys.ENTER)
        up = premiums()
        check(numbers(up) == sorted(numbers(up)), "Enter on the focused Premium header sorts it from the lowest")
        check(driver.find_element(By.CSS_SELECTOR, 'th[data-key="premium"]').get_attribute("aria-sort") == "ascending",
              "the sorted column says so (aria-sort)")
        driver.find_element(By.CSS_SELECTOR, 'th[data-key="coin"] button').click()
        coins = [cells[1] for cells in rows(driver)]
        check(coins == sorted(coins), "a click on Coin sorts the coins A to Z")

        # Filter.
        box = driver.find_element(By.ID, "filter")
        box.send_keys("eth")
        filtered = rows(driver)
        check(filtered and all("ETH" in cells[1] for cells in filtered)
              and len(filtered) == len([k for k in expected if "ETH" in k[0]]),
              "typing eth in the filter leaves the %d rows of coins with ETH in their code" % len(filtered))
        box.send_keys(Keys.BACKSPACE * 3)
        wait_for("the filter to clear", time.monotonic() + 5, lambda: len(rows(driver)) == len(expected))

        # The XSS case: the venue's name and its error text shown as characters; nothing runs.
        venues = driver.find_element(By.ID, "venues").text
        check(XSS in venues, "a venue named " + XSS + " shows those characters")
        check(driver.find_elements(By.CSS_SELECTOR, "img") == [] and not driver.execute_script("return window.__aggAlerted === true"),
              "and no element is made from it, no script runs")

        driver.save_screenshot(os.path.join(args.out, "board-light.png"))
        print("ok: screenshot " + os.path.join(args.out, "board-light.png"), flush=True)

        # The live update: a new bithumb BTC price, from the stream to the cell within 2 s.
        new_price = "81234567.5"
        seen = {}
        watcher = stream_watcher(args.url, '"last":"%s"' % new_price, seen)
        time.sleep(0.2)
        get(args.control + "/price?value=" + new_price)
        def btc_bithumb():
            for cells in rows(driver):
                if cells[1] == "BTC" and cells[2] == "bithumb":
                    return cells[3]
            return None
        wait_for("the new price on the stream", time.monotonic() + poll_wait, lambda: "at" in seen)
        wait_for("the new price in the cell", seen["at"] + 2.0, lambda: btc_bithumb() == price_text(new_price))
        check(True, "the cell shows %s within %.2f s of the stream's event"
              % (price_text(new_price), time.monotonic() - seen["at"]))
        flashed = driver.execute_script(
            "return [...document.querySelectorAll('td.changed')].map((td) => td.textContent);")
        check(price_text(new_price) in flashed, "the changed cell is highlighted")

        # Stale: upbit fails; its rows stay, greyed, with their age.
        get(args.control + "/fail?venue=upbit")
        def stale_upbit():
            found = [cells for cells in rows(driver) if cells[2] == "upbit"]
            return found and all(cells[0] and cells[9].startswith("stale, ") for cells in found)
        wait_for("upbit's rows greyed", time.monotonic() + poll_wait, stale_upbit)
        check(True, "a failing venue's rows stay, greyed, with their age: "
              + [cells[9] for cells in rows(driver) if cells[2] == "upbit"][0])
        check(not any(cells[0] for cells in rows(driver) if cells[2] != "upbit"), "the other venues' rows are not greyed")
        errors = driver.find_element(By.ID, "errors").text
        check(XSS in errors, "the failing venue's error message shows " + XSS + " as characters")
        check(driver.find_elements(By.CSS_SELECTOR, "img") == [] and not driver.execute_script("return window.__aggAlerted === true"),
              "and runs nothing")

        # The console.
        problems = [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        check(problems == [], "the console has no errors or warnings: %r" % problems)

        # The page's size, gzipped as the server sends it.
        total = 0
        for path in ["/", "/board.css", "/board.js", "/board.svg"]:
            status, headers, body = get(args.url + path, {"Accept-Encoding": "gzip"})
            total += len(body)
        print("figure: the page and its assets are %d bytes gzipped" % total, flush=True)
        check(total <= 60 * 1024, "the page and its assets are at most 60 KB gzipped")

        # Without the token in the session: the page asks for it once, then shows the board.
        driver.execute_script("sessionStorage.clear();")
        driver.get(args.url + "/board")
        field = wait_for("the token form", time.monotonic() + 10,
                         lambda: driver.find_element(By.ID, "token-input").is_displayed() and driver.find_element(By.ID, "token-input"))
        check(driver.switch_to.active_element == field and rows(driver) == [],
              "without a token the page shows no rows and asks for it, the field focused")
        field.send_keys(args.token + Keys.ENTER)
        wait_for("the rows after the token", time.monotonic() + 10, lambda: rows(driver))
        check(driver.execute_script("return sessionStorage.getItem('agg-token')") == args.token
              and "token" not in driver.current_url, "the typed token is kept in sessionStorage, never in the URL")
        unexpected = [entry for entry in driver.get_log("browser")
                      if entry["level"] in ("SEVERE", "WARNING") and "status of 401" not in entry["message"]]
        check(unexpected == [], "the console has nothing but the expected 401: %r" % unexpected)
        # The benchmark, as figures: a 300-coin x 9-venue board rendered from scratch, then
        # a board where 20 rows changed (their price and premium), timed in the page (script, then
        # script and layout).
        timing = driver.execute_script("""
          const venues = ['v1','v2','v3','v4','v5','v6','v7','v8','v9'];
          const make = (bump) => ({
            asOf: new Date().toISOString(), currency: 'KRW', fx: null, usdtPremiumPercent: null, tether: [], errors: [],
            rows: Array.from({ length: 300 }, (_, i) => ({
              base: 'C' + String(i).padStart(3, '0'), flags: [], volumeConverted: '123456789.5',
              reference: { method: 'median', price: '1000.5', priceUSD: '0.73' },
              venues: venues.map((v, j) => ({
                exchange: v, symbol: 'X/KRW', local: true, outlier: false, transfer: 'open',
                last: String(1000 + j + (i < bump && j === 0 ? 7 : 0)) + '.25', lastConverted: '1000.25',
                premiumPercent: (i < bump && j === 0 ? '-' : '') + '1.2' + j, usdtPremiumPercent: '0.5' + j,
                volumeConverted: '98765432.1' })) })) });
          state.rows = new Map(); state.trs = new Map(); state.sort = { key: null, direction: 1 }; state.filter = '';
          const first = make(0), second = make(20);
          let t = performance.now(); apply(first); const script = performance.now() - t;
          document.body.offsetHeight; const render = performance.now() - t;
          t = performance.now(); apply(second); const updateScript = performance.now() - t;
          document.body.offsetHeight; const update = performance.now() - t;
          return [render, update, document.querySelectorAll('#board tbody tr').length, script, updateScript];
        """)
        print("figure: a 300-coin x 9-venue board (%d rows) renders in %.1f ms (%.1f ms of script); "
              "a board changing 20 rows updates in %.1f ms (%.1f ms of script)"
              % (timing[2], timing[0], timing[3], timing[1], timing[4]), flush=True)
        check(timing[2] == 2700, "the synthetic board has its 2,700 rows")
    finally:
        driver.quit()
    print("board: all checks passed", flush=True)


if __name__ == "__main__":
    main()
