"""Opens zsetlab web pages in headless Chromium (network refused) and prints, per page, one JSON
line: the times from the start of navigation to the page's 'zsetlab-ready' mark (its data
unpacked and the page drawn), one per opening, and the times of seek(n) to random requests with
the page drawn again. Run by bench_web, which prints the figures beside their targets.

    web_open_time.py [--openings K] [--seeks S] PAGE.html...
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zsetlab_browser as browser  # noqa: E402

SEEKS = """
const n = arguments[0], times = [];
let x = 12345;
for (let k = 0; k < arguments[1]; ++k) {
  x = (x * 1103515245 + 12345) % 2147483648;
  const at = 1 + (x % n), start = performance.now();
  window.zsetlab.seek(at);
  times.push(performance.now() - start);
}
return times;
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--openings", type=int, default=3)
    parser.add_argument("--seeks", type=int, default=50)
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    missing = browser.missing_parts()
    if missing:
        print(json.dumps({"error": "no %s: install %s" % (", ".join(missing), browser.PACKAGES)}))
        return 1
    driver = browser.start(1280, 900)
    try:
        for page in args.pages:
            openings = []
            for _ in range(args.openings):
                driver.get("about:blank")
                driver.get(browser.file_url(page))
                if browser.wait_until_ready(driver, timeout=120) != "yes":
                    print(json.dumps({"page": page, "error": driver.find_element("id", "notice").text}))
                    break
                openings.append(browser.open_time_ms(driver))
            requests = driver.execute_script("return window.zsetlab.state().requests")
            seeks = driver.execute_script(SEEKS, requests, args.seeks)
            print(json.dumps({
                "page": page,
                "open_ms": openings,
                "seek_ms": seeks,
                "network": browser.network_resources(driver),
                "console_errors": browser.console_errors(driver),
            }), flush=True)
    finally:
        browser.stop(driver)
    return 0


if __name__ == "__main__":
    random.seed(1)
    sys.exit(main())
