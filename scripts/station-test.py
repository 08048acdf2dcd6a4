#!/usr/bin/env python3
"""`make test-station`: a two-station line on one PostgreSQL ledger, watched in a real browser.

    VENV/bin/python scripts/station-test.py run --dfukit .build/debug/dfukit [--keep]   # selenium in VENV
    scripts/station-test.py demo --dfukit .build/debug/dfukit          # make demo-station

`run` starts a throwaway PostgreSQL server (scripts/start-postgres.sh), packages the demo
firmware, makes one Ed25519 key per station (`dfukit station keygen`), and starts
`dfukit station serve` (a token from a file, controls on) and two `dfukit batch run` stations,
st-1 and st-2, on the line `line-a` with `--halt-when 'failed >= 3 of last 10'`, both flashing
the same simulated fleet paced in real time (`sim:vendor-ctrlpt?fleet=16&realtime=2&faulty=...`:
the devices named by `faulty` stop answering in their first attempt, which then runs into the
line's 20 s timeout; a good device takes about 4 s). It opens the dashboard in headless Chromium through chromium-driver
(selenium) and checks, as a supervisor would see it:

1. the page updates live (server-sent events: its snapshot counter grows, and a device in
   flight moves forward without a reload), and both stations are shown;
2. the failure burst halts the line: the page shows `line-a` halted, and both stations stop
   starting devices (no attempt starts between the halt and the resume);
3. a resume from the page without the token is refused (the page says so, the ledger has no
   resume), and with the token is recorded with the operator typed in the page, after which
   both stations start devices again;
4. at the end every device is done, and the page's totals equal the ledger's (psql);
5. a device's history opens from the page with its signed audit record;
6. `dfukit station audit verify` passes on each station's records and fails (exit 65) once
   one record is edited in the database.

Screenshots go to .build/station/ (live.png, halted.png, refused.png, resumed.png, final.png,
device.png), the processes' logs to the work directory (kept on failure or with --keep). Prints
one closing line "N passed, N failed"; exits 1 when a check failed, 2 when the set-up failed.

`demo` starts the same line on a SQLite ledger in .build/demo-station (no PostgreSQL needed) with
40 devices in real time and the dashboard on 127.0.0.1:8080, and prints its URL and token; the
dashboard stays up after the stations end, until Ctrl-C.
"""

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, ".build", "station")
LINE = "line-a"
STATIONS = ["st-1", "st-2"]
FLEET = 16
# Devices 2 to 5 stall in their first attempt: the first four failures of the line, enough to
# trip 'failed >= 3 of last 10' early; their second attempts succeed.
FAULTY = "2,3,4,5"
HALT_RULE = "failed >= 3 of last 10"
OPERATOR = "Ada (supervisor)"


def log(message):
    print(f"station-test: {message}", file=sys.stderr, flush=True)


class SetupError(Exception):
    pass


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"  ok    {name}", flush=True)
        else:
            self.failed += 1
            print(f"  FAIL  {name}{': ' + detail if detail else ''}", flush=True)
        return ok


# ---------------------------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------------------------

class Line:
    """The line's processes: the dashboard and the stations, with their logs in `work`."""

    def __init__(self, dfukit, work, ledger, fleet_spec, station_args=()):
        self.dfukit = dfukit
        self.work = work
        self.ledger = ledger
        self.fleet_spec = fleet_spec
        self.station_args = list(station_args)
        self.package = os.path.join(work, "app.zip")
        self.token_file = os.path.join(work, "token")
        self.serve = None
        self.stations = {}
        self.url = None

    def run(self, *args, check=True):
        result = subprocess.run([self.dfukit, *args], capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise SetupError(f"dfukit {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
        return result

    def prepare(self):
        self.run("package", "create", "--profile", "vendor-ctrlpt", "--version", "1.0.0", "--output", self.package,
                 os.path.join(ROOT, "firmware-samples", "demo-app.hex"))
        for station in STATIONS:
            self.run("station", "keygen", "--out", os.path.join(self.work, f"{station}.key"))
        with open(self.token_file, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_hex(16) + "\n")
        os.chmod(self.token_file, 0o600)

    @property
    def token(self):
        with open(self.token_file, encoding="utf-8") as handle:
            return handle.read().strip()

    def start_dashboard(self, listen="127.0.0.1:0"):
        out = open(os.path.join(self.work, "serve.log"), "w", encoding="utf-8")
        self.serve = subprocess.Popen([self.dfukit, "station", "serve", "--ledger", self.ledger, "--listen", listen,
                                       "--token-file", self.token_file],
                                      stdout=subprocess.PIPE, stderr=out, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.serve.stdout.readline()
            if not line:
                break
            match = re.search(r"dashboard: (http://\S+)", line)
            if match:
                self.url = match.group(1).rstrip("/") + "/"
                return self.url
        raise SetupError(f"station serve printed no 'dashboard: URL' (see {out.name})")

    def start_station(self, station):
        args = [self.dfukit, "batch", "run", "--profile", "vendor-ctrlpt", "--package", self.package,
                "--device", self.fleet_spec, "--ledger", self.ledger, "--station", station, "--line", LINE,
                "--halt-when", HALT_RULE, "--concurrency", "2", "--retries", "2", "--timeout", "20s",
                "--audit-key", os.path.join(self.work, f"{station}.key"), "--operator", f"{station}-operator",
                *self.station_args]
        out = open(os.path.join(self.work, f"{station}.log"), "w", encoding="utf-8")
        self.stations[station] = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, text=True)

    def stop(self):
        for process in [*self.stations.values(), self.serve]:
            if process and process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [*self.stations.values(), self.serve]:
            if process:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()


def start_postgres(work):
    result = subprocess.run([os.path.join(ROOT, "scripts", "start-postgres.sh"), os.path.join(work, "postgres")],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SetupError(f"PostgreSQL did not start: {result.stderr.strip()[-800:]}")
    return result.stdout.strip().splitlines()[-1]


def psql(url, query):
    result = subprocess.run(["psql", url, "-At", "-F", "\t", "-c", query], capture_output=True, text=True)
    if result.returncode != 0:
        raise SetupError(f"psql: {result.stderr.strip()}")
    return [row.split("\t") for row in result.stdout.strip().splitlines() if row]


def ledger_counts(url):
    """The contract's totals, computed from the ledger with SQL (not by DFUKit)."""
    devices = psql(url, """
        SELECT device,
               bool_or(result IN ('succeeded', 'skipped')) AS done,
               (array_agg(result ORDER BY id DESC))[1] AS last,
               (array_agg(result ORDER BY attempt_number, id))[1] AS first
        FROM dfukit_attempts GROUP BY device, package_sha256""")
    attempts = int(psql(url, "SELECT count(*) FROM dfukit_attempts")[0][0])
    done = sum(1 for _, d, _, _ in devices if d == "t")
    failed = sum(1 for _, d, last, _ in devices if d != "t" and last == "failed")
    first_pass = sum(1 for _, _, _, first in devices if first == "succeeded")
    return {"devices": len(devices), "done": done, "failed": failed, "attempts": attempts,
            "firstPass": first_pass}


def line_events(url):
    return psql(url, "SELECT kind, coalesce(operator, ''), extract(epoch FROM at) FROM dfukit_line_events "
                     f"WHERE line = '{LINE}' ORDER BY id")


# ---------------------------------------------------------------------------------------------
# The browser
# ---------------------------------------------------------------------------------------------

def open_browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1800",
                     "--disable-gpu"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def wait_for(condition, timeout, interval=0.25):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # a page being re-rendered under the query
            value = None
        if value:
            return value
        time.sleep(interval)
    return None


def snapshots_seen(browser):
    return int(browser.execute_script("return Number(document.body.dataset.snapshots || 0)"))


def page_totals(browser):
    return browser.execute_script("""
        const totals = {};
        document.querySelectorAll('[data-total]').forEach(e => totals[e.dataset.total] = e.textContent.trim());
        return totals;""")


def in_flight(browser):
    """The devices in flight as the page shows them: device -> the row's text."""
    return browser.execute_script("""
        const rows = {};
        document.querySelectorAll('#in-flight [data-device]').forEach(r => rows[r.dataset.device] = r.innerText);
        return rows;""")


def line_state(browser):
    return browser.execute_script(f"""
        const e = document.querySelector('#lines [data-line="{LINE}"]');
        return e ? e.dataset.state : null;""")


def submit_resume(browser, operator, token):
    """Opens the line's resume form from its halt banner, fills it in (operator, token) and
    submits it, as a supervisor would."""
    from selenium.webdriver.common.by import By
    browser.find_element(By.CSS_SELECTOR, f'#lines button[data-action="resume"][data-target="{LINE}"]').click()
    form = browser.find_element(By.ID, "resume-form")
    wait_for(lambda: form.is_displayed(), 5)
    operator_field = form.find_element(By.NAME, "operator")
    operator_field.clear()
    operator_field.send_keys(operator)
    token_field = form.find_element(By.NAME, "token")
    if token_field.is_displayed():
        token_field.clear()
        if token:
            token_field.send_keys(token)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()


def resume_answer(browser):
    return browser.execute_script(
        "const o = document.querySelector('#resume-form [data-field=\"answer\"]'); return o ? o.textContent : ''")


# ---------------------------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------------------------

def run_test(arguments):
    checks = Checks()
    work = tempfile.mkdtemp(prefix="dfukit-station-")
    os.chmod(work, 0o755)  # the PostgreSQL server runs as its own user inside it
    os.makedirs(SHOTS, exist_ok=True)
    for name in os.listdir(SHOTS):
        os.remove(os.path.join(SHOTS, name))
    postgres_dir = os.path.join(work, "postgres")
    line = browser = None
    try:
        url = start_postgres(work)
        log(f"ledger {url}")
        fleet = f"sim:vendor-ctrlpt?fleet={FLEET}&realtime=2&faulty={FAULTY}"
        line = Line(arguments.dfukit, work, url, fleet)
        line.prepare()
        dashboard = line.start_dashboard()
        log(f"dashboard {dashboard}")
        for station in STATIONS:
            line.start_station(station)
        browser = open_browser()
        browser.get(dashboard)
        checks.check("the page loads and receives a first snapshot", wait_for(lambda: snapshots_seen(browser) >= 1, 30),
                     "no snapshot after 30 s")

        # 1. Live.
        seen = wait_for(lambda: in_flight(browser), 30)
        checks.check("devices in flight appear on the page without a reload", bool(seen), "none after 30 s")
        first_count = snapshots_seen(browser)
        moved = None
        if seen:
            device, text = next(iter(seen.items()))
            moved = wait_for(lambda: (in_flight(browser).get(device) or text) != text or device not in in_flight(browser), 15)
        checks.check("a device in flight moves forward on the page (progress or phase changes, or it finishes)",
                     bool(moved), f"{seen}")
        checks.check("snapshots keep arriving (server-sent events)",
                     wait_for(lambda: snapshots_seen(browser) > first_count + 2, 20), f"{snapshots_seen(browser)}")
        stations_shown = wait_for(lambda: browser.execute_script(
            "return [...document.querySelectorAll('#stations [data-station]')].map(e => e.dataset.station)"), 15) or []
        checks.check("both stations are shown", set(STATIONS) <= set(stations_shown), f"{stations_shown}")
        browser.save_screenshot(os.path.join(SHOTS, "live.png"))

        # 2. The halt.
        halted = wait_for(lambda: line_state(browser) == "halted", 90)
        checks.check("the failure burst halts the line, and the page shows it", bool(halted),
                     f"line state {line_state(browser)!r}, events {line_events(url)}")
        if not halted:
            raise SetupError("the line never halted; nothing more to check")
        browser.save_screenshot(os.path.join(SHOTS, "halted.png"))
        halted_at = float([e for e in line_events(url) if e[0] == "halted"][0][2])
        # Devices in flight finish; afterwards no station starts one while the line is halted.
        time.sleep(12)

        # 3. Resume: refused without the token, recorded with it.
        import urllib.error
        import urllib.request
        request = urllib.request.Request(f"{dashboard}api/lines/{LINE}/resume", method="POST",
                                         data=json.dumps({"operator": "intruder"}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            status = urllib.request.urlopen(request, timeout=10).status
        except urllib.error.HTTPError as error:
            status = error.code
        checks.check("the server refuses a resume without the token (401)", status == 401, f"HTTP {status}")
        submit_resume(browser, OPERATOR, "not-the-token")
        refused = wait_for(lambda: "401" in resume_answer(browser), 10)
        browser.save_screenshot(os.path.join(SHOTS, "refused.png"))
        checks.check("a resume from the page with a wrong token is refused (401), and the page says so", bool(refused),
                     resume_answer(browser))
        checks.check("the refused resume is not in the ledger", not any(e[0] == "resumed" for e in line_events(url)),
                     f"{line_events(url)}")
        started_while_halted = psql(url, f"""SELECT device, station, attempt_number FROM dfukit_attempts
            WHERE line = '{LINE}' AND extract(epoch FROM started_at) > {halted_at + 10}""")
        checks.check("no station starts a device while the line is halted", not started_while_halted,
                     f"{started_while_halted}")
        submit_resume(browser, OPERATOR, line.token)
        resumed = wait_for(lambda: any(e[0] == "resumed" for e in line_events(url)), 10)
        checks.check("a resume from the page with the token is recorded with the operator",
                     bool(resumed) and any(e[0] == "resumed" and e[1] == OPERATOR for e in line_events(url)),
                     f"{line_events(url)}")
        checks.check("the page shows the line running again", wait_for(lambda: line_state(browser) == "running", 15),
                     f"{line_state(browser)!r}")
        browser.save_screenshot(os.path.join(SHOTS, "resumed.png"))
        resumed_at = float([e for e in line_events(url) if e[0] == "resumed"][-1][2])
        restarted = wait_for(lambda: {row[0] for row in psql(url, f"""SELECT DISTINCT station FROM dfukit_attempts
            WHERE extract(epoch FROM started_at) >= {resumed_at}""")} >= set(STATIONS), 60)
        checks.check("both stations start devices again after the resume", bool(restarted))

        # 4. The end: every device done, the page's counts are the ledger's.
        for station, process in line.stations.items():
            try:
                process.wait(timeout=240)
            except subprocess.TimeoutExpired:
                # Another halt may have come; the test resumes only once, so stop here.
                log(f"{station} still running after 240 s: stopping it")
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
        counts = ledger_counts(url)
        checks.check(f"every one of the {FLEET} devices is done", counts["done"] == FLEET, f"{counts}")
        shown = wait_for(lambda: (lambda t: t if t.get("attempts") == str(counts["attempts"]) else None)(page_totals(browser)),
                         15) or page_totals(browser)
        for key in ("devices", "done", "failed", "attempts"):
            checks.check(f"the page's '{key}' equals the ledger's ({counts[key]})", shown.get(key) == str(counts[key]),
                         f"page {shown.get(key)!r}")
        checks.check("the page shows no device in flight at the end", wait_for(lambda: not in_flight(browser), 15),
                     f"{in_flight(browser)}")
        browser.save_screenshot(os.path.join(SHOTS, "final.png"))

        # 5. A device's history, with its audit record.
        from selenium.webdriver.common.by import By
        rows = browser.find_elements(By.CSS_SELECTOR, "#recent-attempts [data-device]")
        if rows:
            device = rows[0].get_attribute("data-device")
            rows[0].click()
            opened = wait_for(lambda: browser.execute_script(
                "const h = document.getElementById('device-history'); return h && h.dataset.loaded && h.textContent"), 10) or ""
            checks.check("a device's history opens from the page with its signed audit record",
                         device in opened and "audit record" in opened.lower() and "signature" in opened.lower(), opened[-600:])
            browser.save_screenshot(os.path.join(SHOTS, "device.png"))
        else:
            checks.check("a device's history opens from the page with its signed audit record", False,
                         "no recent attempt on the page")

        # 6. Audit records.
        for station in STATIONS:
            verify = line.run("station", "audit", "verify", "--key", os.path.join(work, f"{station}.pub"),
                              "--ledger", url, "--station", station, check=False)
            checks.check(f"station audit verify passes on {station}'s records", verify.returncode == 0,
                         verify.stdout[-400:] + verify.stderr[-400:])
        psql(url, """UPDATE dfukit_audit_records SET record = replace(record, '"st-1"', '"st-9"')
                     WHERE attempt_id = (SELECT min(a.id) FROM dfukit_attempts a JOIN dfukit_audit_records r
                                         ON r.attempt_id = a.id WHERE a.station = 'st-1')""")
        tampered = line.run("station", "audit", "verify", "--key", os.path.join(work, "st-1.pub"), "--ledger", url,
                            "--station", "st-1", check=False)
        checks.check("station audit verify fails (65) on a tampered record", tampered.returncode == 65,
                     f"exit {tampered.returncode}: {tampered.stdout[-300:]}")
    except SetupError as error:
        log(f"set-up failed: {error}")
        checks.failed += 1
    finally:
        if browser:
            browser.quit()
        if line:
            line.stop()
        subprocess.run([os.path.join(ROOT, "scripts", "stop-postgres.sh"), postgres_dir], capture_output=True)
    print(f"{checks.passed} passed, {checks.failed} failed (screenshots in .build/station/)")
    if checks.failed or arguments.keep:
        log(f"logs kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if checks.failed else 0


def run_demo(arguments):
    work = os.path.join(ROOT, ".build", "demo-station")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ledger = f"sqlite:{os.path.join(work, 'ledger.sqlite')}"
    line = None
    try:
        line = Line(arguments.dfukit, work, ledger, "sim:vendor-ctrlpt?fleet=40&realtime=1&faulty=3,4,5,17")
        line.prepare()
        url = line.start_dashboard(arguments.listen)
        print(f"\n  dashboard: {url}\n  token (for the line controls): {line.token}\n  ledger: {ledger}\n"
              f"  Two stations flash {40} simulated devices in real time; devices 3, 4, 5 and 17 fail their\n"
              f"  first attempt, which halts the line ('{HALT_RULE}'): resume it from the page.\n"
              f"  Ctrl-C stops the demo.\n", flush=True)
        for station in STATIONS:
            line.start_station(station)
        while any(process.poll() is None for process in line.stations.values()):
            time.sleep(1)
        print("  every station has ended; the dashboard stays up until Ctrl-C", flush=True)
        line.serve.wait()
    except KeyboardInterrupt:
        pass
    except SetupError as error:
        log(f"set-up failed: {error}")
        return 2
    finally:
        if line:
            line.stop()
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("--dfukit", required=True)
    run.add_argument("--keep", action="store_true")
    demo = commands.add_parser("demo")
    demo.add_argument("--dfukit", required=True)
    demo.add_argument("--listen", default="127.0.0.1:8080")
    arguments = parser.parse_args()
    arguments.dfukit = os.path.abspath(arguments.dfukit)
    return run_test(arguments) if arguments.command == "run" else run_demo(arguments)


if __name__ == "__main__":
    sys.exit(main())
