#!/usr/bin/env python3
"""The board page of `agg serve` in a real Chromium, driven by Selenium (BoardBrowserTests runs it).

Usage: board_test.py --url http://127.0.0.1:PORT --token TOKEN --control http://127.0.0.1:FPORT/control
                     --interval SECONDS --out FOLDER --agg PATH --agg-home FOLDER
The server needs TOKEN: the page is opened with it in the URL fragment, and at the end without
it, to type it into the page's form.
The server behind --url polls fixtures that --control changes (a price, a failing venue). Each
check prints one `ok:` line; the first failure prints `FAIL: ...` and exits 1. The figures
(first render, gzipped size) are printed as `figure:` lines. --agg and --agg-home name the binary
and the AGG_HOME the server reads, for the favorites case (`agg favorites add` while it runs).
"""
import argparse
import gzip
import json
import os
import re
import subprocess
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


def percent_text(value):
    """A premium as the page shows it: two decimals rounded half away from zero, signed."""
    from decimal import ROUND_HALF_UP
    fixed = Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if fixed == 0:
        return "0.00%"
    return ("+" if fixed > 0 else "") + str(fixed) + "%"


def parse_color(text):
    text = text.strip()
    if text.startswith("#"):
        return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
    numbers = re.findall(r"[\d.]+", text)
    return tuple(int(float(n)) for n in numbers[:3])


def contrast(a, b):
    """The WCAG 2 contrast ratio of two sRGB colours."""
    def luminance(color):
        channels = []
        for c in parse_color(color):
            c = c / 255
            channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    la, lb = sorted([luminance(a), luminance(b)], reverse=True)
    return (la + 0.05) / (lb + 0.05)


PALETTE_SCRIPT = """
  const root = getComputedStyle(document.documentElement);
  const v = (name) => root.getPropertyValue(name).trim();
  return { theme: document.documentElement.dataset.theme || null, palette: document.documentElement.dataset.palette,
           bg: getComputedStyle(document.body).backgroundColor, fg: getComputedStyle(document.body).color,
           muted: getComputedStyle(document.querySelector('.meta')).color, up: v('--up'), down: v('--down'),
           flash: v('--flash'), panel: v('--panel'), pressed: document.getElementById('theme-toggle').getAttribute('aria-pressed') };
"""


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
    parser.add_argument("--agg", required=True)
    parser.add_argument("--agg-home", required=True)
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

        def reload():
            driver.refresh()
            wait_for("the rows after a reload", time.monotonic() + 15, lambda: rows(driver))

        # Themes: the system's (prefers-color-scheme) until the toggle chooses one, remembered.
        light = driver.execute_script(PALETTE_SCRIPT)
        check(light["theme"] is None and light["bg"] == "rgb(255, 255, 255)" and light["fg"] == "rgb(27, 27, 27)"
              and light["pressed"] == "false", "with a light system setting and no choice the page is light")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        system_dark = driver.execute_script(PALETTE_SCRIPT)
        check(system_dark["theme"] is None and system_dark["bg"] == "rgb(18, 20, 24)" and system_dark["fg"] == "rgb(230, 230, 230)",
              "a dark system setting turns the page dark, with no choice stored")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        driver.find_element(By.ID, "theme-toggle").click()
        reload()
        dark = driver.execute_script(PALETTE_SCRIPT)
        check(dark["theme"] == "dark" and dark["bg"] == "rgb(18, 20, 24)" and dark["pressed"] == "true"
              and driver.execute_script("return localStorage.getItem('agg-theme')") == "dark",
              "the theme toggle turns the page dark over a light system setting, and a reload remembers it")
        driver.save_screenshot(os.path.join(args.out, "board-dark.png"))
        print("ok: screenshot " + os.path.join(args.out, "board-dark.png"), flush=True)
        # Palettes: Korean (red up, blue down) by default, standard (green up, red down), remembered.
        check(dark["palette"] == "korean" and dark["up"] == "#ff7b7b" and dark["down"] == "#7fb0ff",
              "the Korean palette by default: red up, blue down")
        driver.find_element(By.ID, "palette-toggle").click()
        reload()
        standard = driver.execute_script(PALETTE_SCRIPT)
        check(standard["palette"] == "standard" and standard["up"] == "#5fd88a" and standard["down"] == "#ff7b7b"
              and driver.find_element(By.ID, "palette-toggle").get_attribute("aria-pressed") == "true",
              "the palette toggle switches to green up, red down, and a reload remembers it")
        shown_up = driver.execute_script("const td = document.querySelector('td.up'); return td ? getComputedStyle(td).color : null;")
        check(shown_up in (None, "rgb(95, 216, 138)"), "a rising premium is drawn in the palette's up colour: %s" % shown_up)
        driver.find_element(By.ID, "theme-toggle").click()
        standard_light = driver.execute_script(PALETTE_SCRIPT)
        driver.find_element(By.ID, "palette-toggle").click()
        korean_light = driver.execute_script(PALETTE_SCRIPT)
        check(korean_light["theme"] == "light" and korean_light["up"] == "#b00020" and korean_light["down"] == "#0b4fb3"
              and standard_light["up"] == "#0a7a2f" and standard_light["down"] == "#b00020",
              "light: Korean #b00020 up / #0b4fb3 down, standard #0a7a2f up / #b00020 down")
        # WCAG AA: every text colour on its background, 4.5:1 or more, in both themes and palettes.
        ratios = []
        for name, colors in [("light korean", korean_light), ("light standard", standard_light),
                             ("dark korean", dark), ("dark standard", standard)]:
            for label, fg, bg in [("text", colors["fg"], colors["bg"]), ("muted", colors["muted"], colors["bg"]),
                                  ("up", colors["up"], colors["bg"]), ("down", colors["down"], colors["bg"]),
                                  ("text/highlight", colors["fg"], colors["flash"]), ("up/highlight", colors["up"], colors["flash"]),
                                  ("down/highlight", colors["down"], colors["flash"]), ("text/panel", colors["fg"], colors["panel"]),
                                  ("muted/panel", colors["muted"], colors["panel"])]:
                ratios.append((name + " " + label, contrast(fg, bg)))
        print("figure: contrast " + ", ".join("%s %.2f" % pair for pair in ratios), flush=True)
        check(all(ratio >= 4.5 for _, ratio in ratios), "every text colour has 4.5:1 or more on its background (WCAG AA)")

        # Languages: the browser's first of Korean or English, a toggle, remembered.
        agent = driver.execute_script("return navigator.userAgent")
        driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ko-KR,ko;q=0.9,en;q=0.8"})
        driver.execute_script("localStorage.removeItem('agg-lang')")
        reload()
        headers_ko = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "th button")]
        check(driver.execute_script("return document.documentElement.lang") == "ko"
              and headers_ko == ["코인", "거래소", "현재가 (KRW)", "해외가 (KRW)", "프리미엄", "USDT 프리미엄", "24시간 거래대금", "입출금", "비고"],
              "a browser asking for Korean gets Korean labels: " + ", ".join(headers_ko))
        check(driver.find_element(By.ID, "fx").text.startswith("환율: USD→KRW " + price_text(board["fx"]["rate"]) + " (" + board["fx"]["source"] + ", ")
              and driver.find_element(By.CSS_SELECTOR, "label[for=filter]").text == "코인 검색"
              and driver.find_element(By.CSS_SELECTOR, "#venue-picker legend").text == "표시할 거래소"
              and driver.find_element(By.ID, "lang-toggle").text == "English"
              and driver.find_element(By.ID, "theme-toggle").text == "어두운 테마"
              and driver.find_element(By.ID, "status").text.startswith("갱신 "),
              "the header, the filter, the venue picker, the toggles and the status are in Korean too")
        driver.find_element(By.ID, "lang-toggle").click()
        check(driver.find_element(By.ID, "status").text.startswith("Updated ")
              and driver.find_element(By.CSS_SELECTOR, 'th[data-key="coin"] button').text == "Coin",
              "the toggle says everything again in English at once, the status line too")
        reload()
        headers_en = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "th button")]
        check(headers_en == ["Coin", "Exchange", "Last (KRW)", "Global (KRW)", "Premium", "USDT prem", "Volume 24h", "Transfer", "Note"]
              and driver.execute_script("return document.documentElement.lang + ' ' + localStorage.getItem('agg-lang')") == "en en"
              and driver.find_element(By.ID, "lang-toggle").text == "한국어",
              "the language toggle switches to English, and a reload remembers it over the browser's Korean")
        # The filter matches Korean and English names when the board carries them.
        # (Every board, the stream's too, is given BTC's names as it is read, then the page's own.)
        driver.execute_script("""
          window.__aggRowsOf = rowsOf;
          rowsOf = (board) => {
            for (const row of board.rows || []) if (row.base === 'BTC') { row.nameKo = '비트코인'; row.nameEn = 'Bitcoin'; }
            return window.__aggRowsOf(board);
          };
          apply(structuredClone(state.board));""")
        btc_rows = len([k for k in expected if k[0] == "BTC"])
        for typed in ["비트", "bitcoin"]:
            box = driver.find_element(By.ID, "filter")
            box.send_keys(typed)
            found = rows(driver)
            check(len(found) == btc_rows and all(cells[1] == "BTC" for cells in found),
                  "typing %s in the filter leaves BTC's %d rows" % (typed, btc_rows))
            box.send_keys(Keys.BACKSPACE * len(typed))
            wait_for("the filter to clear", time.monotonic() + 5, lambda: len(rows(driver)) == len(expected))
        driver.execute_script("rowsOf = window.__aggRowsOf;")

        # The venue picker: unchecked venues' rows are hidden, remembered.
        driver.find_element(By.ID, "venue-bithumb").click()
        check(rows(driver) and not any(cells[2] == "bithumb" for cells in rows(driver))
              and driver.execute_script("return localStorage.getItem('agg-hidden-venues')") == '["bithumb"]',
              "unchecking bithumb hides its rows")
        reload()
        check(not any(cells[2] == "bithumb" for cells in rows(driver)) and not driver.find_element(By.ID, "venue-bithumb").is_selected(),
              "and a reload remembers it")
        driver.find_element(By.ID, "venue-bithumb").click()
        check(len(rows(driver)) == len(expected) and driver.execute_script("return localStorage.getItem('agg-hidden-venues')") == "[]",
              "checking it again shows every row")

        # Keyboard: Tab from the last header reaches the first row, arrows move between rows.
        driver.find_element(By.CSS_SELECTOR, 'th[data-key="note"] button').click()
        driver.switch_to.active_element.send_keys(Keys.TAB)
        check(driver.execute_script("return document.activeElement === document.querySelector('#board tbody tr')"),
              "Tab from the last column's header focuses the first row")
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        check(driver.execute_script("return document.activeElement === document.querySelectorAll('#board tbody tr')[1]"),
              "the down arrow moves to the next row")

        # A coin's detail: Enter on its row; the recorded premiums as an SVG chart with the band.
        def expected_summary(since):
            history = json.loads(get(args.url + "/v1/history?symbol=BTC&since=" + since)[2])
            points = [p for p in history["premiums"] if p["basis"] == "usd"]
            ordered_points = sorted((p["percent"] for p in points), key=Decimal)
            rank = lambda q: ordered_points[max(0, -(-q * len(ordered_points) // 100) - 1)]
            # The page asked a moment before or after: its `since` is its own answer's.
            summary = re.escape("%d premiums since " % len(points)) + r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z" + re.escape(
                "; latest %s (%s); band: 10th to 90th percentile, %s to %s" % (
                    percent_text(points[-1]["percent"]), points[-1]["exchange"], percent_text(rank(10)), percent_text(rank(90))))
            return points, summary
        driver.execute_script("""
          window.__aggRow = [...document.querySelectorAll('#board tbody tr')].find((tr) => tr.cells[0].textContent === 'BTC');
          window.__aggRow.focus();""")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        points, summary = expected_summary("24h")
        check(len(points) >= 2, "the store holds BTC's recorded premiums (%d on the FX basis)" % len(points))
        shown_summary = wait_for("the history", time.monotonic() + 10, lambda: (
            driver.find_element(By.ID, "detail-summary").text if driver.find_elements(By.CSS_SELECTOR, "#detail-chart svg") else None))
        check(driver.find_element(By.ID, "detail").is_displayed() and driver.find_element(By.ID, "detail-title").text == "BTC: recorded premium",
              "Enter on BTC's row opens its detail")
        check(re.fullmatch(summary, shown_summary), "the detail says: " + shown_summary)
        lines = driver.execute_script("""
          return [...document.querySelectorAll('#detail-chart svg polyline')].map((l) =>
            [l.getAttribute('data-exchange'), l.getAttribute('points').trim().split(/\\s+/).length]);""")
        venues_points = sorted({p["exchange"] for p in points})
        check(lines == [[v, len([p for p in points if p["exchange"] == v])] for v in venues_points],
              "the chart has one line per venue with each recorded point: %r" % lines)
        check(driver.execute_script("return document.querySelectorAll('#detail-chart svg circle').length") == len(points),
              "and a dot on each of the %d points" % len(points))
        check(driver.execute_script("return document.querySelectorAll('#detail-chart svg rect.band').length") == 1
              and driver.execute_script("return document.querySelector('#detail-chart svg').namespaceURI") == "http://www.w3.org/2000/svg",
              "and the percentile band, in an inline SVG")
        driver.find_element(By.ID, "range-7d").click()
        points7, summary7 = expected_summary("7d")
        wait_for("the 7 d history", time.monotonic() + 10, lambda: driver.find_element(By.ID, "range-7d").get_attribute("aria-pressed") == "true"
                 and re.fullmatch(summary7, driver.find_element(By.ID, "detail-summary").text))
        check(driver.find_element(By.ID, "range-7d").get_attribute("aria-pressed") == "true"
              and driver.find_element(By.ID, "range-24h").get_attribute("aria-pressed") == "false",
              "the 7 d button asks /v1/history?since=7d: " + driver.find_element(By.ID, "detail-summary").text)
        driver.save_screenshot(os.path.join(args.out, "board-detail.png"))
        print("ok: screenshot " + os.path.join(args.out, "board-detail.png"), flush=True)
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        check(not driver.find_element(By.ID, "detail").is_displayed()
              and driver.execute_script("return document.activeElement === window.__aggRow"),
              "Escape closes the detail and gives the focus back to the row")

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

        # Favorites first: a coin added with the CLI to the database serve reads comes first at the
        # page's next load, whatever the sort, starred (outside the cell's text); the rest keep
        # the sort's order.
        def agg(*words):
            environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": args.agg_home,
                           "AGG_HOME": args.agg_home}
            return subprocess.run([args.agg, *words], capture_output=True, text=True, env=environment, timeout=60)
        added = agg("favorites", "add", "ETH", "--coin")
        check(added.returncode == 0, "agg favorites add ETH --coin succeeds: " + added.stderr)
        listed = agg("favorites", "list", "--format", "json").stdout
        check(get(args.url + "/v1/favorites")[2].decode() == listed == '{"currencies":[],"coins":["ETH"]}\n',
              "/v1/favorites answers what agg favorites list --format json prints, byte for byte: " + listed.strip())
        reload()
        driver.find_element(By.CSS_SELECTOR, 'th[data-key="coin"] button').click()
        shown = rows(driver)
        coins = [cells[1] for cells in shown]
        favorites = [c for c in coins if c == "ETH"]
        check(favorites and coins[:len(favorites)] == favorites and coins[len(favorites):] == sorted(c for c in coins if c != "ETH")
              and "BTC" in coins, "sorted A to Z, the favorite ETH's %d rows come first, then the rest A to Z" % len(favorites))
        starred = driver.execute_script(
            "return [...document.querySelectorAll('#board tbody tr.favorite')].map((tr) => tr.cells[0].textContent);")
        check(starred == favorites, "exactly the favorite's rows are starred, the star outside the cell's text")
        star = driver.execute_script(
            "return getComputedStyle(document.querySelector('#board tbody tr.favorite td'), '::before').content;")
        check(star.startswith('"★'), "the star is drawn before the coin: " + star)
        driver.find_element(By.CSS_SELECTOR, 'th[data-key="premium"] button').click()
        coins = [cells[1] for cells in rows(driver)]
        check(coins[:len(favorites)] == favorites, "sorted by premium, the favorite still comes first")
        agg("favorites", "remove", "ETH")

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
          const make = (bump, stamp) => ({
            asOf: new Date().toISOString(), currency: 'KRW', fx: null, usdtPremiumPercent: null, tether: [], errors: [],
            rows: Array.from({ length: 300 }, (_, i) => ({
              base: 'C' + String(i).padStart(3, '0'), flags: [], volumeConverted: '123456789.5',
              reference: { method: 'median', price: '1000.5', priceUSD: '0.73' },
              venues: venues.map((v, j) => ({
                exchange: v, symbol: 'X/KRW', local: true, outlier: false, transfer: 'open',
                last: String(1000 + j + (i < bump && j === 0 ? stamp : 0)) + '.25', lastConverted: '1000.25',
                premiumPercent: (i < bump && j === 0 && stamp % 2 ? '-' : '') + '1.2' + j, usdtPremiumPercent: '0.5' + j,
                volumeConverted: '98765432.1' })) })) });
          const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
          const fresh = () => { state.rows = new Map(); state.trs = new Map(); state.order = []; state.sort = { key: null, direction: 1 };
                                state.filter = ''; state.hidden = new Set(); document.querySelector('#board tbody').replaceChildren(); };
          const renders = [], renderScripts = [], updates = [], updateScripts = [];
          for (let run = 0; run < 3; run += 1) {
            fresh();
            const first = make(0, 0);
            let t = performance.now(); apply(first); renderScripts.push(performance.now() - t);
            document.body.offsetHeight; renders.push(performance.now() - t);
          }
          // Twenty rows change their price and premium, five times; each time exactly those
          // 40 cells get new text, and no row is made, moved or dropped.
          const trs = [...document.querySelectorAll('#board tbody tr')];
          const observer = new MutationObserver(() => {});
          observer.observe(document.querySelector('#board tbody'), { childList: true, subtree: true, characterData: true });
          const touched = [];
          for (let run = 1; run <= 5; run += 1) {
            const next = make(20, run);
            let t = performance.now(); apply(next); updateScripts.push(performance.now() - t);
            document.body.offsetHeight; updates.push(performance.now() - t);
            const records = observer.takeRecords();
            touched.push([records.filter((r) => r.target.tagName === 'TD').length, records.filter((r) => r.target.tagName === 'TBODY').length]);
          }
          observer.disconnect();
          const same = [...document.querySelectorAll('#board tbody tr')].every((tr, i) => tr === trs[i]);
          return [median(renders), median(updates), document.querySelectorAll('#board tbody tr').length, median(renderScripts),
                  median(updateScripts), touched, same, [renders, renderScripts, updates, updateScripts].map((l) => l.map((x) => x.toFixed(1)).join('/'))];
        """)
        print("figure: a 300-coin x 9-venue board (%d rows) renders in %.1f ms (%.1f ms of script); "
              "a board changing 20 rows updates in %.1f ms (%.1f ms of script); medians of 3 and 5 runs "
              "(render, render script, update, update script: %s)"
              % (timing[2], timing[0], timing[3], timing[1], timing[4], "; ".join(timing[7])), flush=True)
        check(timing[2] == 2700, "the synthetic board has its 2,700 rows")
        check(timing[5] == [[40, 0]] * 5 and timing[6],
              "an update of 20 rows writes exactly their 40 changed cells and keeps every row element in place")
    finally:
        driver.quit()
    print("board: all checks passed", flush=True)


if __name__ == "__main__":
    main()
