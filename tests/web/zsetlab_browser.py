"""Headless Chromium through Selenium, with the network refused, for zsetlab's web page tests and
its benchmark.

Every request the browser would make to the network goes to a proxy on a closed loopback port
(loopback included: `<-loopback>`), and every host name fails to resolve, so a page that reached
for an address would fail to load it and say so in its console.
"""

import importlib.util
import os
import shutil
import tempfile

SKIP_VARIABLE = "ZSETLAB_SKIP_BROWSER_TESTS"
PACKAGES = "chromium chromium-driver python3-selenium"

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--window-size=1280,1000",
]


def missing_parts():
    """What is missing to run a browser: a list of program or module names, empty when none."""
    missing = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    if importlib.util.find_spec("selenium") is None:
        missing.append("the selenium module")
    return missing


def start(width=1280, height=1000):
    """A headless Chromium (Selenium WebDriver) that keeps its console log."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    profile = tempfile.mkdtemp(prefix="zsetlab-chromium-")
    for flag in FLAGS:
        if flag.startswith("--window-size"):
            flag = "--window-size=%d,%d" % (width, height)
        options.add_argument(flag)
    options.add_argument("--user-data-dir=" + profile)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver"), log_path=os.devnull)
    driver = webdriver.Chrome(service=service, options=options)
    driver.zsetlab_profile = profile
    return driver


def stop(driver):
    try:
        driver.quit()
    finally:
        shutil.rmtree(getattr(driver, "zsetlab_profile", ""), ignore_errors=True)


def file_url(path):
    return "file://" + os.path.abspath(path)


def wait_until_ready(driver, timeout=30):
    """Waits for the page's data to be unpacked and drawn; returns 'yes' or 'error'."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.documentElement.dataset.ready || ''") in ("yes", "error")
    )
    return driver.execute_script("return document.documentElement.dataset.ready")


def network_resources(driver):
    """The resources the page loaded from anywhere but data: and blob: URLs."""
    names = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    return [name for name in names if not name.startswith(("data:", "blob:"))]


def console_errors(driver):
    """The page's console errors (and the browser's own, such as a load refused) since the last call."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def open_time_ms(driver):
    """From the start of navigation to the page's 'zsetlab-ready' mark (data unpacked, page drawn)."""
    return driver.execute_script(
        "const m = performance.getEntriesByName('zsetlab-ready'); return m.length ? m[0].startTime : null"
    )
