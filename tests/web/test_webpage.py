"""The web page of a replay, opened in headless Chromium with the network refused.

Replays are recorded by zsetlab-cli from a private redis-server of its own (`zsetlab-cli server`),
exported by `zsetlab-cli replay FILE --export-html` and `zsetlab --replay FILE --export-html`, and
the page is checked as a reader and a test would use it: what it loads, what `state()` says after
`seek(n)` against `zsetlab-cli replay FILE --at n --members --json`, the keys, the language, two
runs in step, an iframe, and its console.

Run by ctest (`webpage_browser`), which sets ZSETLAB_CLI and ZSETLAB_APP. Without chromium, chromedriver or
the selenium module the test fails, saying what to install, unless ZSETLAB_SKIP_BROWSER_TESTS=1
(see README, "Tests"): then it is skipped (exit 77).
"""

import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zsetlab_browser as browser  # noqa: E402

CLI = os.environ.get("ZSETLAB_CLI", "")
APP = os.environ.get("ZSETLAB_APP", "")
SKIPPED = 77

work = None
server = None
replays = {}
pages = {}
driver = None


def cli(*args, check=True):
    result = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError("zsetlab-cli %s exited %d: %s" % (" ".join(args), result.returncode, result.stderr))
    return result


def cli_state(replay, n):
    return json.loads(cli("replay", replay, "--at", str(n), "--members", "--json").stdout)


def record(name, *plan):
    path = os.path.join(work, name + ".zsetreplay")
    cli("run", "--redis", server_url, *plan, "--save-replay", path)
    replays[name] = path
    return path


def record_watched(name):
    """A key of a burst seen through MONITOR by `zsetlab-cli watch --save-replay` (scores as Redis wrote them)."""
    path = os.path.join(work, name + ".zsetreplay")
    key = "zsetlab:webpage-watched"
    watch = subprocess.Popen([CLI, "watch", "--redis", server_url, "--pattern", key, "--duration", "4000",
                              "--save-replay", path, "--key", key],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = ""
    deadline = time.monotonic() + 30
    with selectors.DefaultSelector() as waiting:  # MONITOR is on before the burst starts
        waiting.register(watch.stderr, selectors.EVENT_READ)
        while "MONITOR is on" not in seen and time.monotonic() < deadline and watch.poll() is None:
            if waiting.select(timeout=1):
                seen += watch.stderr.readline()
    if "MONITOR is on" not in seen:
        watch.kill()
        raise AssertionError("zsetlab-cli watch did not start: " + seen)
    cli("run", "--redis", server_url, "--limiter", "now", "--requests", "300", "--pace", "poisson:3",
        "--clock", "system-ms", "--window", "60000", "--key", "webpage-watched")
    watch.wait(timeout=60)
    if not os.path.exists(path):
        raise AssertionError("zsetlab-cli watch saved no replay: " + seen + watch.stderr.read())
    replays[name] = path


def export(name, *args):
    pages[name] = os.path.join(work, name + ".html")
    cli("replay", *args, "--export-html", pages[name])


def setUpModule():
    global work, server, server_url, driver
    work = tempfile.mkdtemp(prefix="zsetlab-webpage-")
    server = subprocess.Popen([CLI, "server"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    server_url = server.stdout.readline().strip()
    if not server_url:
        raise AssertionError("zsetlab-cli server printed no URL")
    poisson = ["--pace", "poisson:3", "--clock", "schedule", "--window", "50", "--limit", "20", "--seed", "7"]
    record("now", "--limiter", "now", "--requests", "400", *poisson)
    record("request-id", "--limiter", "request-id", "--requests", "400", *poisson)
    record("users", "--limiter", "random", "--users", "3", "--requests", "300", "--pace", "poisson:2",
           "--clock", "schedule", "--window", "30", "--limit", "10", "--seed", "3")
    record("frozen", "--limiter", "now", "--clock", "frozen", "--requests", "5", "--limit", "3")
    record("counts", "--limiter", "token-bucket", "--requests", "200", *poisson)
    record_watched("watched")
    export("now", replays["now"])
    export("compare", replays["now"], "--beside", replays["request-id"])
    export("users", replays["users"])
    export("frozen", replays["frozen"], "--lang", "vi")
    export("counts", replays["counts"])
    export("watched", replays["watched"])
    pages["app"] = os.path.join(work, "app.html")
    app = subprocess.run([APP, "--replay", replays["now"], "--export-html", pages["app"], "--lang", "vi"],
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    if app.returncode != 0:
        raise AssertionError("zsetlab --export-html exited %d: %s" % (app.returncode, app.stderr))
    driver = browser.start()


def tearDownModule():
    if driver is not None:
        browser.stop(driver)
    if server is not None:
        server.terminate()
        server.wait(timeout=30)
    if work:
        shutil.rmtree(work, ignore_errors=True)


def open_page(path):
    browser.console_errors(driver)  # what came before is not this page's
    driver.get(browser.file_url(path))
    ready = browser.wait_until_ready(driver)
    if ready != "yes":
        raise AssertionError("%s did not open: %s" % (path, driver.find_element("id", "notice").text))


def seek(n, members=True):
    return driver.execute_script("window.zsetlab.seek(arguments[0]); return window.zsetlab.state(arguments[1]);",
                                 n, members)


def state():
    return driver.execute_script("return window.zsetlab.state();")


def press(key):
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def unfocus():
    driver.execute_script("if (document.activeElement) document.activeElement.blur();")


def first_overwrite(replay):
    """The first request whose ZADD answered 0, as the CLI tells it."""
    for n in range(1, 200):
        if cli_state(replay, n)["added"] == 0:
            return n
    raise AssertionError("no overwrite in the first 200 requests of " + replay)


def without_extras(page_state):
    return {key: value for key, value in page_state.items() if key not in ("sides", "position", "playing")}


class WebPageTest(unittest.TestCase):
    maxDiff = None

    def assertClean(self):
        self.assertEqual(browser.network_resources(driver), [], "the page loaded something from the network")
        self.assertEqual(browser.console_errors(driver), [], "the page wrote errors to its console")

    def assertSameAsCli(self, replay, n, page_state):
        self.assertEqual(without_extras(page_state), cli_state(replay, n), "state() after seek(%d)" % n)

    def test_state_after_seek_is_what_the_cli_prints(self):
        for name in ("now", "users", "frozen", "app", "counts", "watched"):
            replay = replays["now" if name == "app" else name]
            with self.subTest(page=name):
                open_page(pages[name])
                requests = state()["requests"]
                points = {1, 2, requests // 3, requests // 2, requests - 1, requests}
                if name in ("now", "app", "watched"):
                    points.add(first_overwrite(replay))  # random members do not collide on Redis 7
                elif name == "frozen":
                    points.update(range(1, 6))
                for n in sorted(p for p in points if 1 <= p <= requests):
                    self.assertSameAsCli(replay, n, seek(n))
                self.assertClean()

    def test_the_first_overwrite_is_told_in_the_caption(self):
        open_page(pages["now"])
        n = first_overwrite(replays["now"])
        seek(n)
        caption = driver.find_element("css selector", "#side-0 .caption").text
        self.assertIn("ZADD answered 0", caption)
        row = driver.find_element("css selector", "#side-0 tr.current")
        self.assertEqual(row.get_attribute("aria-current"), "true")
        self.assertClean()

    def test_keys_move_one_request(self):
        open_page(pages["now"])
        from selenium.webdriver.common.keys import Keys

        unfocus()
        seek(10)
        press(Keys.ARROW_RIGHT)
        self.assertEqual(state()["request"], 11)
        press(Keys.ARROW_LEFT)
        press(Keys.ARROW_LEFT)
        self.assertEqual(state()["request"], 9)
        press(Keys.HOME)
        self.assertEqual(state()["request"], 1)
        press(Keys.END)
        self.assertEqual(state()["request"], state()["requests"])
        press(" ")
        self.assertTrue(state()["playing"])
        press(" ")
        self.assertFalse(state()["playing"])
        self.assertClean()

    def test_every_control_is_reached_with_tab_and_named(self):
        open_page(pages["now"])
        wanted = {"language", "to-start", "step-back", "play", "step-forward", "to-end", "speed", "scrubber"}
        from selenium.webdriver.common.keys import Keys

        reached = {}
        unfocus()
        for _ in range(40):
            press(Keys.TAB)
            active = driver.switch_to.active_element
            key = active.get_attribute("id") or active.get_attribute("class")
            reached[key] = active.accessible_name
            if wanted <= set(reached) and "zset" in reached:
                break
        self.assertTrue(wanted <= set(reached), "not reached with Tab: %s" % (wanted - set(reached)))
        self.assertIn("zset", reached, "the ZSET table's scrolling region is not reached with Tab")
        for key, name in reached.items():
            self.assertTrue(name and name.strip(), "%s has no accessible name" % key)
        self.assertClean()

    def test_text_contrast_meets_wcag_aa(self):
        for name in ("now", "frozen"):
            with self.subTest(page=name):
                open_page(pages[name])
                failures = driver.execute_script(CONTRAST_SCRIPT)
                self.assertEqual(failures, [], "text below WCAG AA contrast")
        # The check sees a grey that a projector washes out.
        driver.execute_script("document.querySelector('.keys').style.color = '#aaaaaa'")
        self.assertEqual(len(driver.execute_script(CONTRAST_SCRIPT)), 1)

    def test_compare_page_plays_both_sides_in_step(self):
        open_page(pages["compare"])
        self.assertEqual(len(driver.find_elements("css selector", "section.side canvas")), 2)
        for n in (1, first_overwrite(replays["now"]), 200, 400):
            page_state = seek(n)
            self.assertSameAsCli(replays["now"], n, page_state["sides"][0])
            self.assertSameAsCli(replays["request-id"], n, page_state["sides"][1])
        from selenium.webdriver.common.keys import Keys

        seek(50)
        unfocus()
        press(Keys.ARROW_RIGHT)
        sides = state()["sides"]
        self.assertEqual([side["request"] for side in sides], [51, 51])
        # The same timestamps at both limiters: one overwrites, the other never does.
        self.assertGreater(sides[0]["overwritten"], 0)
        self.assertEqual(sides[1]["overwritten"], 0)
        self.assertClean()

    def test_language_switch_and_the_exporting_language(self):
        open_page(pages["app"])  # exported by the window's program with --lang vi
        self.assertEqual(driver.execute_script("return document.documentElement.lang"), "vi")
        self.assertIn("Phát", driver.find_element("id", "play").text)
        driver.find_element("id", "language").click()
        self.assertEqual(driver.execute_script("return document.documentElement.lang"), "en")
        self.assertIn("Play", driver.find_element("id", "play").text)
        self.assertClean()

    def test_it_works_inside_an_iframe(self):
        frame = os.path.join(work, "embedding.html")
        with open(frame, "w") as out:
            out.write('<!DOCTYPE html><title>course</title><iframe src="now.html#request=5" title="replay" '
                      'width="1200" height="900"></iframe>')
        browser.console_errors(driver)
        driver.get(browser.file_url(frame))
        driver.switch_to.frame(driver.find_element("tag name", "iframe"))
        try:
            self.assertEqual(browser.wait_until_ready(driver), "yes")
            self.assertEqual(state()["request"], 5)  # the request the link names
            self.assertSameAsCli(replays["now"], 7, seek(7))
            self.assertEqual(browser.network_resources(driver), [])
        finally:
            driver.switch_to.default_content()
        self.assertEqual(browser.console_errors(driver), [])

    def test_the_page_forbids_reaching_out_and_the_checks_would_see_it(self):
        with open(pages["now"], encoding="utf-8") as page:
            text = page.read()
        self.assertIn("default-src 'none'", text)
        self.assertNotIn("http://", text.split("<script")[0])
        # The same page with a picture from an address: the policy refuses it, and the console says so.
        tampered = os.path.join(work, "tampered.html")
        with open(tampered, "w", encoding="utf-8") as out:
            out.write(text.replace("<main", '<img src="http://192.0.2.1/pixel.png" alt="x"><main', 1))
        browser.console_errors(driver)
        driver.get(browser.file_url(tampered))
        browser.wait_until_ready(driver)
        errors = browser.console_errors(driver)
        self.assertTrue(any("192.0.2.1" in e for e in errors), "a refused load would go unnoticed: %s" % errors)


class PageTextTest(unittest.TestCase):
    def test_every_text_has_both_languages(self):
        source = os.path.join(os.environ.get("ZSETLAB_SOURCE_DIR", ""), "resources", "web", "text.js")
        with open(source, encoding="utf-8") as text:
            script = text.read()
        english = script[script.index("  en: {"):script.index("  vi: {")]
        vietnamese = script[script.index("  vi: {"):script.index("var language")]
        keys = lambda block: re.findall(r"^    (\w+): ", block, re.M)
        self.assertGreater(len(keys(english)), 50)
        self.assertEqual(sorted(keys(english)), sorted(keys(vietnamese)))
        for key, value in re.findall(r'^    (\w+): "(.*)",$', vietnamese, re.M):
            self.assertTrue(value.strip(), key)


# Every element with text of its own: its colour against the first opaque background behind it,
# as WCAG 2 computes contrast; AA asks 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
CONTRAST_SCRIPT = r"""
function rgb(text) { const m = text.match(/[\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; }
function lum(c) { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); }
function background(e) { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.a > 0.5) return c; }
  return {r: 255, g: 255, b: 255, a: 1}; }
const failures = [];
for (const e of document.querySelectorAll('body *')) {
  if (!e.offsetParent && getComputedStyle(e).position !== 'fixed') continue;
  const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const style = getComputedStyle(e), fg = rgb(style.color), bg = background(e);
  const a = lum(fg), b = lum(bg), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  if (ratio < needed) failures.push(e.tagName + '.' + e.className + ' "' + e.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
}
return failures;
"""


def main():
    missing = browser.missing_parts()
    if not CLI or not APP:
        print("webpage_browser: ZSETLAB_CLI and ZSETLAB_APP are not set (run through ctest)")
        return SKIPPED
    if missing:
        why = "no %s: install %s (scripts/deps.sh does)" % (", ".join(missing), browser.PACKAGES)
        if os.environ.get(browser.SKIP_VARIABLE) == "1":
            print("webpage_browser: SKIPPED, %s; %s=1 is set" % (why, browser.SKIP_VARIABLE))
            return SKIPPED
        print("webpage_browser: FAILED, %s, or set %s=1 to skip the browser tests on this machine" % (why, browser.SKIP_VARIABLE))
        return 1
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
