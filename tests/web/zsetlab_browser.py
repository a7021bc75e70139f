"""Headless Chromium through Selenium, with the network refused, for zsetlab's web page tests and
its benchmark.

Every request the browser would make to the network goes to a proxy on a closed loopback port
(loopback included: `<-loopback>`), and every host name fails to resolve, so a page that reached
for an address would fail to load it and say so in its console.
"""

import importlib.util
import os
import selectors
import shutil
import socket
import subprocess
import tempfile
import time

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


def start_chromedriver(timeout=30):
    """chromedriver on a free loopback port, once it says it listens: (process, port).

    Started here rather than by Selenium's Service, which reaches it as "localhost": a machine
    without /etc/hosts (a fresh debootstrap root) cannot resolve that name."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    driver = subprocess.Popen([shutil.which("chromedriver"), "--port=%d" % port],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    said = ""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as waiting:
        waiting.register(driver.stdout, selectors.EVENT_READ)
        while "started successfully" not in said and time.monotonic() < deadline and driver.poll() is None:
            if waiting.select(timeout=1):
                line = driver.stdout.readline()
                if not line:
                    break
                said += line
    if "started successfully" not in said:
        driver.kill()
        driver.wait()
        raise RuntimeError("chromedriver did not start: " + said)
    return driver, port


def start(width=1280, height=1000):
    """A headless Chromium (Selenium WebDriver) that keeps its console log."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    profile = tempfile.mkdtemp(prefix="zsetlab-chromium-")
    for flag in FLAGS:
        if flag.startswith("--window-size"):
            flag = "--window-size=%d,%d" % (width, height)
        options.add_argument(flag)
    options.add_argument("--user-data-dir=" + profile)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromedriver, port = start_chromedriver()
    try:
        driver = webdriver.Remote(command_executor="http://127.0.0.1:%d" % port, options=options)
    except Exception:
        chromedriver.kill()
        chromedriver.wait()
        shutil.rmtree(profile, ignore_errors=True)
        raise
    driver.zsetlab_chromedriver = chromedriver
    driver.zsetlab_profile = profile
    return driver


def stop(driver):
    try:
        driver.quit()
    finally:
        chromedriver = driver.zsetlab_chromedriver
        chromedriver.terminate()
        chromedriver.wait(timeout=30)
        chromedriver.stdout.close()
        shutil.rmtree(driver.zsetlab_profile, ignore_errors=True)


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
