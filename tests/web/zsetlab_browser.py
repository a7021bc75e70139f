"""Headless Chromium through Selenium, with the network refused, for zsetlab's web page tests and
its benchmark.

Every request the browser would make to the network goes to a proxy on a closed loopback port
(loopback included: `<-loopback>`), and every host name fails to resolve, so a page that reached
for an address would fail to load it and say so in its console.
"""

import importlib.util
import os
import re
import selectors
import shutil
import socket
import subprocess
import tempfile
import threading
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


def wait_for_line(process, stream, text, timeout):
    """What `stream` of `process` said up to a line holding `text` (empty: it never came)."""
    said = ""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as waiting:
        waiting.register(stream, selectors.EVENT_READ)
        while text not in said and time.monotonic() < deadline and process.poll() is None:
            if waiting.select(timeout=1):
                line = stream.readline()
                if not line:
                    break
                said += line
    return said if text in said else ""


def drain(stream):
    """Reads `stream` to its end on a thread of its own, so that the process never blocks on it."""
    threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()


def stop_process(process):
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start(width=1280, height=1000):
    """A headless Chromium (Selenium WebDriver) that keeps its console log.

    Chromium and chromedriver are started here and reached by address (127.0.0.1), not by the
    name "localhost", which a machine without /etc/hosts (a fresh debootstrap root) cannot
    resolve; chromedriver attaches to the browser's DevTools port."""
    from selenium import webdriver

    profile = tempfile.mkdtemp(prefix="zsetlab-chromium-")
    flags = [("--window-size=%d,%d" % (width, height)) if f.startswith("--window-size") else f for f in FLAGS]
    processes = []
    try:
        chromium = subprocess.Popen([shutil.which("chromium"), *flags, "--user-data-dir=" + profile,
                                     "--remote-debugging-port=0", "about:blank"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        processes.append(chromium)
        said = wait_for_line(chromium, chromium.stderr, "DevTools listening on", 60)
        devtools = re.search(r"DevTools listening on ws://([0-9.]+:[0-9]+)/", said)
        if not devtools:
            raise RuntimeError("chromium did not start")
        drain(chromium.stderr)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        chromedriver = subprocess.Popen([shutil.which("chromedriver"), "--port=%d" % port],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        processes.append(chromedriver)
        if not wait_for_line(chromedriver, chromedriver.stdout, "started successfully", 30):
            raise RuntimeError("chromedriver did not start")
        drain(chromedriver.stdout)
        options = webdriver.ChromeOptions()
        options.debugger_address = devtools.group(1)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Remote(command_executor="http://127.0.0.1:%d" % port, options=options)
    except BaseException:
        for process in reversed(processes):
            stop_process(process)
        shutil.rmtree(profile, ignore_errors=True)
        raise
    driver.zsetlab_processes = processes
    driver.zsetlab_profile = profile
    return driver


def stop(driver):
    try:
        driver.quit()
    finally:
        for process in reversed(driver.zsetlab_processes):
            stop_process(process)
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
