#!/usr/bin/env python3
"""`make test-chaos`: three provisioning stations on one PostgreSQL ledger, abused.

    scripts/chaos-test.py run --dfukit .build/debug/dfukit [--devices 200] [--speed 1] [--lease 6s] [--seed N]
    scripts/chaos-test.py check --work DIR     # the checks again, on what a run left in DIR
    scripts/chaos-test.py self-test            # the checker on synthetic journals with planted faults

`run` starts a throwaway PostgreSQL server (scripts/start-postgres.sh), packages the demo
firmware, runs a control (two stations on separate SQLite ledgers flash the same six devices
at once: the double-write check must see it on that real journal), and starts three `dfukit batch run` stations (station-a, -b, -c) flashing the same
simulated fleet, `sim:vendor-ctrlpt?fleet=N&realtime=SPEED&journal=DIR`, with short leases. Each
station is a separate process with its own in-memory fleet standing for the same devices; the
devices' shared journal (DIR/journal.log, see SimulatedDeviceJournal) is what the physical devices
would have lived through. While they run, the harness SIGKILLs stations at random and restarts
them, restarts PostgreSQL once, and stalls one station past its lease (SIGSTOP, wait, SIGCONT).
Stations that end while devices are left are started again until every device is done (or the
rounds run out). Then it checks, from the ledger (psql) and the journal:

- no double writes: two processes' write intervals on one device (first to last attribute write
  of a connection) never overlap;
- no lost records: every device the journal shows activated has exactly one success record;
- no unfounded records: every success record has an activation of that device by a process of
  that station, before the record ended;
- no writes after done: nobody (not even a station killed later) writes to a device once its
  success record is in;
- every started attempt is recorded or reclaimed: no claim is still active at the end, and every
  connection of a process that was not SIGKILLed falls inside an attempt its station recorded;
- every device of the fleet ends with a success record.

It prints the counts ("0 double writes, 0 lost records, 200 devices, ...") and exits 1 on any
violation (2 when the set-up itself failed).
"""

import argparse
import collections
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIONS = ["station-a", "station-b", "station-c"]  # and station-d, the sweeper started during the stall
# Ledger times and journal times come from the same machine's clock; this much slack covers
# the rounding of the ledger's stored times.
SLACK_NS = 500_000_000


def log(message):
    print(f"chaos: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The checker: pure functions over parsed journal lines and ledger rows.
# ---------------------------------------------------------------------------------------------

def read_journal(path, warn=log):
    """The journal's events, in file order; a torn last line (there should be none) is skipped."""
    events = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line:
                continue
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                warn(f"journal line {number} is not JSON (skipped): {line[:80]!r}")
    return events


def connections(events):
    """Per (device, pid): the connections, each a dict with start, end (last event) and the
    times of its writes. A process killed mid-connection has no disconnect: its connection
    ends at its last event."""
    result = collections.defaultdict(list)
    for event in sorted(events, key=lambda e: e["t"]):
        key = (event["device"], event["pid"])
        kind = event["event"]
        if kind == "connect" or not result[key]:
            result[key].append({"start": event["t"], "end": event["t"], "writes": [], "closed": False})
        current = result[key][-1]
        current["end"] = event["t"]
        if kind == "write":
            current["writes"].append(event["t"])
        if kind == "disconnect":
            current["closed"] = True
    return result


def double_writes(events, station_of):
    """Pairs of connections of different processes on one device whose write intervals overlap."""
    by_device = collections.defaultdict(list)
    for (device, pid), items in connections(events).items():
        for item in items:
            if item["writes"]:
                by_device[device].append((min(item["writes"]), max(item["writes"]), pid))
    found = []
    for device, intervals in by_device.items():
        intervals.sort()
        for index, (start, end, pid) in enumerate(intervals):
            for other_start, other_end, other_pid in intervals[index + 1:]:
                if other_start > end:
                    break
                if other_pid != pid:
                    found.append({"device": device, "first": (station_of.get(pid, "?"), pid, start, end),
                                  "second": (station_of.get(other_pid, "?"), other_pid, other_start, other_end)})
    return found


def check(events, attempts, claims, station_of, killed, devices):
    """Every check; returns (counts, violations). `attempts`: dicts with device, station,
    result, started_ns, ended_ns. `claims`: dicts with device, station, state. `station_of`:
    pid -> station. `killed`: pids that were SIGKILLed. `devices`: the fleet's addresses."""
    violations = []
    doubles = double_writes(events, station_of)
    for item in doubles:
        violations.append(f"double write on {item['device']}: {item['first'][0]} (pid {item['first'][1]}) and "
                          f"{item['second'][0]} (pid {item['second'][1]}) wrote at the same time")

    activations = collections.defaultdict(list)
    for event in events:
        if event["event"] == "activated":
            activations[event["device"]].append(event)
    successes = collections.defaultdict(list)
    for attempt in attempts:
        if attempt["result"] == "succeeded":
            successes[attempt["device"]].append(attempt)

    lost = [device for device in activations if not successes.get(device)]
    for device in sorted(lost):
        violations.append(f"lost record: {device} was flashed (activated by pid "
                          f"{activations[device][0]['pid']}) but the ledger has no success for it")
    duplicated = [device for device, records in successes.items() if len(records) > 1]
    for device in sorted(duplicated):
        violations.append(f"duplicate records: {device} has {len(successes[device])} success records")

    unfounded = []
    for device, records in successes.items():
        for record in records:
            founded = any(station_of.get(event["pid"]) == record["station"]
                          and event["t"] <= record["ended_ns"] + SLACK_NS for event in activations.get(device, []))
            if not founded:
                unfounded.append(device)
                violations.append(f"unfounded record: {device} has a success by {record['station']} but no device "
                                  "activation by that station before it")

    # A device done is never written again, by anyone (a killed station's writes included).
    rewritten = []
    for device, records in successes.items():
        done_at = min(record["ended_ns"] for record in records) + SLACK_NS
        late = [e for e in events if e["device"] == device and e["event"] == "write" and e["t"] > done_at]
        if late:
            rewritten.append(device)
            violations.append(f"written after done: {device} got {len(late)} write(s) after its success record, the first "
                              f"by {station_of.get(late[0]['pid'], '?')} (pid {late[0]['pid']})")

    held = [claim for claim in claims if claim["state"] == "active"]
    for claim in held:
        violations.append(f"claim still held: {claim['device']} by {claim['station']}")

    unrecorded = []
    by_station = collections.defaultdict(list)
    for attempt in attempts:
        by_station[(attempt["device"], attempt["station"])].append(attempt)
    for (device, pid), items in connections(events).items():
        if pid in killed:
            continue  # its unfinished attempt is reclaimed: checked by "claim still held" and "not done"
        station = station_of.get(pid)
        for item in items:
            covered = any(a["started_ns"] - SLACK_NS <= item["start"] and item["end"] <= a["ended_ns"] + SLACK_NS
                          for a in by_station.get((device, station), []))
            if not covered:
                unrecorded.append((device, pid))
                violations.append(f"unrecorded attempt: {station or '?'} (pid {pid}) connected to {device} "
                                  "outside any attempt it recorded")
                break

    not_done = [device for device in devices if not successes.get(device)]
    for device in not_done:
        violations.append(f"not done: {device} has no success record")

    counts = collections.OrderedDict([
        ("double writes", len(doubles)),
        ("lost records", len(lost)),
        ("duplicate records", len(duplicated)),
        ("unfounded records", len(unfounded)),
        ("writes after done", len(rewritten)),
        ("claims held", len(held)),
        ("unrecorded attempts", len(unrecorded)),
        ("devices not done", len(not_done)),
        ("devices", len(devices)),
        ("devices flashed", len(activations)),
        ("success records", sum(len(v) for v in successes.values())),
        ("attempt records", len(attempts)),
        ("connections", sum(len(v) for v in connections(events).values())),
        ("writes", sum(1 for e in events if e["event"] == "write")),
    ])
    return counts, violations


def summary_line(counts):
    return ", ".join(f"{value} {name}" for name, value in counts.items())


# ---------------------------------------------------------------------------------------------
# Self-test: the checker must find what is planted.
# ---------------------------------------------------------------------------------------------

def synthetic_run():
    """Two stations, three devices, everything right."""
    s = 1_000_000_000
    events = []

    def flash(pid, device, start):
        events.append({"t": start, "pid": pid, "device": device, "event": "connect"})
        for index in range(5):
            events.append({"t": start + (index + 1) * s // 10, "pid": pid, "device": device, "event": "write",
                           "handle": 3, "length": 244})
        events.append({"t": start + 6 * s // 10, "pid": pid, "device": device, "event": "activated", "sha256": "ab" * 32})
        events.append({"t": start + 7 * s // 10, "pid": pid, "device": device, "event": "disconnect", "reason": "x"})

    flash(100, "D1", 10 * s)
    flash(200, "D2", 10 * s)
    flash(100, "D3", 12 * s)
    attempts = [
        {"device": "D1", "station": "a", "result": "succeeded", "started_ns": 10 * s - s // 10, "ended_ns": 11 * s},
        {"device": "D2", "station": "b", "result": "succeeded", "started_ns": 10 * s - s // 10, "ended_ns": 11 * s},
        {"device": "D3", "station": "a", "result": "succeeded", "started_ns": 12 * s - s // 10, "ended_ns": 13 * s},
    ]
    claims = [{"device": d, "station": st, "state": "done"} for d, st in [("D1", "a"), ("D2", "b"), ("D3", "a")]]
    return events, attempts, claims, {100: "a", 200: "b"}, set(), ["D1", "D2", "D3"]


def self_test():
    failures = []

    def expect(name, counts, expected):
        for key, value in expected.items():
            if counts[key] != value:
                failures.append(f"{name}: expected {value} {key}, got {counts[key]}")

    events, attempts, claims, stations, killed, devices = synthetic_run()
    counts, violations = check(events, attempts, claims, stations, killed, devices)
    expect("clean run", counts, {"writes after done": 0, "double writes": 0, "lost records": 0, "duplicate records": 0, "unfounded records": 0,
                                 "claims held": 0, "unrecorded attempts": 0, "devices not done": 0, "devices flashed": 3})
    if violations:
        failures.append(f"clean run: unexpected violations {violations}")

    # A double write: station b (pid 200, restarted) writes to D1 while pid 100 still writes.
    events, attempts, claims, stations, killed, devices = synthetic_run()
    s = 1_000_000_000
    events += [{"t": 10 * s + 3 * s // 10 + 1, "pid": 200, "device": "D1", "event": "connect"},
               {"t": 10 * s + 3 * s // 10 + 2, "pid": 200, "device": "D1", "event": "write", "handle": 3, "length": 244}]
    counts, _ = check(events, attempts, claims, stations, killed, devices)
    expect("planted double write", counts, {"double writes": 1, "unrecorded attempts": 1})

    # Writes one after the other (the second station starts once the first one's writes are over) are fine.
    events, attempts, claims, stations, killed, devices = synthetic_run()
    events += [{"t": 11 * s, "pid": 200, "device": "D1", "event": "connect"},
               {"t": 11 * s + 1, "pid": 200, "device": "D1", "event": "write", "handle": 3, "length": 244}]
    attempts.append({"device": "D1", "station": "b", "result": "failed", "started_ns": 11 * s, "ended_ns": 11 * s + 2})
    counts, _ = check(events, attempts, claims, stations, killed, devices)
    expect("writes in turn", counts, {"double writes": 0, "unrecorded attempts": 0})

    # A lost record: D2 was activated but its success record is missing; and D3's record is doubled.
    events, attempts, claims, stations, killed, devices = synthetic_run()
    attempts = [a for a in attempts if a["device"] != "D2"]
    attempts.append(dict(attempts[-1]))
    counts, violations = check(events, attempts, claims, stations, killed, devices)
    expect("planted lost record", counts, {"lost records": 1, "duplicate records": 1, "devices not done": 1,
                                           "unrecorded attempts": 1, "double writes": 0})
    if not any("lost record: D2" in v for v in violations):
        failures.append(f"planted lost record: not named in {violations}")

    # A success record with no device activation behind it, and a claim left active.
    events, attempts, claims, stations, killed, devices = synthetic_run()
    events = [e for e in events if not (e["device"] == "D3" and e["event"] == "activated")]
    claims[0]["state"] = "active"
    counts, _ = check(events, attempts, claims, stations, killed, devices)
    expect("planted unfounded record and held claim", counts, {"unfounded records": 1, "claims held": 1})

    # A killed process's unrecorded connection is not a violation by itself.
    events, attempts, claims, stations, killed, devices = synthetic_run()
    events += [{"t": 20 * s, "pid": 300, "device": "D1", "event": "connect"},
               {"t": 20 * s + 1, "pid": 300, "device": "D1", "event": "write", "handle": 3, "length": 244}]
    stations[300] = "c"
    counts, _ = check(events, attempts, claims, stations, {300}, devices)
    expect("killed process", counts, {"unrecorded attempts": 0, "double writes": 0, "writes after done": 1})
    events = [e for e in events if e["pid"] != 300]
    events += [{"t": 10 * s + 8 * s // 10, "pid": 300, "device": "D1", "event": "connect"}]
    counts, _ = check(events, attempts, claims, stations, {300}, devices)
    expect("a killed process that only connected", counts, {"writes after done": 0})

    # A journal with a torn line is still read.
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "journal.log")
        with open(path, "w") as handle:
            handle.write(json.dumps({"t": 1, "pid": 1, "device": "D1", "event": "connect"}) + "\n{\"t\": 2, \"pi")
        if len(read_journal(path, warn=lambda _: None)) != 1:
            failures.append("a torn last journal line was not skipped")

    for failure in failures:
        print(f"self-test FAILED: {failure}")
    print(f"chaos checker self-test: {'passed' if not failures else 'failed'} "
          "(planted double write, lost record, duplicate, unfounded record, write after done and held claim all found)"
          if not failures else "chaos checker self-test: failed")
    return 0 if not failures else 1


# ---------------------------------------------------------------------------------------------
# The run.
# ---------------------------------------------------------------------------------------------

def psql_rows(url, query):
    output = subprocess.run(["psql", url, "-X", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", query],
                            check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in output.splitlines() if line]


def ledger_rows(url, package_sha):
    attempts = [{"device": row[0], "station": row[1], "result": row[2],
                 "started_ns": int(float(row[3]) * 1e9), "ended_ns": int(float(row[4]) * 1e9), "claim": row[5]}
                for row in psql_rows(url, "SELECT device, station, result, extract(epoch FROM started_at), "
                                          "extract(epoch FROM ended_at), claim_id FROM dfukit_attempts "
                                          f"WHERE package_sha256 = '{package_sha}' ORDER BY id")]
    claims = [{"device": row[0], "station": row[1], "state": row[2]}
              for row in psql_rows(url, "SELECT device, station, state FROM dfukit_claims "
                                        f"WHERE package_sha256 = '{package_sha}'")]
    return attempts, claims


class Station:
    def __init__(self, name, arguments, work, label=None):
        self.name = name
        self.label = label or name  # for its files: two processes may share a station name
        self.arguments = arguments
        self.work = work
        self.process = None
        self.runs = 0
        self.exits = []  # (run, exit status; negative: the signal that ended it)

    def start(self, pids):
        self.finish()
        self.runs += 1
        out = open(os.path.join(self.work, f"{self.label}-{self.runs}.json"), "w")
        err = open(os.path.join(self.work, f"{self.label}-{self.runs}.log"), "w")
        self.process = subprocess.Popen(self.arguments + ["--station", self.name], stdout=out, stderr=err)
        pids[self.process.pid] = self.name
        log(f"started {self.label} (pid {self.process.pid}, run {self.runs})")

    def finish(self):
        """Notes how the current run ended, once it has."""
        if self.process is not None and self.process.poll() is not None and len(self.exits) < self.runs:
            self.exits.append((self.runs, self.process.returncode))

    def running(self):
        return self.process is not None and self.process.poll() is None


def parse_seconds(text):
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    for suffix in sorted(units, key=len, reverse=True):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * units[suffix]
    return float(text)


def run(options):
    rng = random.Random(options.seed)
    work = options.work or tempfile.mkdtemp(prefix="dfukit-chaos.")
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)  # the server runs as the postgres user (when we are root): it must reach postgres/
    journal_dir = os.path.join(work, "journal")
    server_dir = os.path.join(work, "postgres")
    dfukit = os.path.abspath(options.dfukit)
    log(f"work directory {work}; seed {options.seed}")

    package = os.path.join(work, "firmware.zip")
    subprocess.run([dfukit, "package", "create", "--profile", "vendor-ctrlpt", "--version", "2.0.0",
                    "--output", package, os.path.join(ROOT, "firmware-samples", "demo-app.hex")],
                   check=True, stdout=subprocess.DEVNULL)
    started = subprocess.run([os.path.join(ROOT, "scripts", "start-postgres.sh"), server_dir],
                             capture_output=True, text=True)
    if started.returncode != 0:
        log("PostgreSQL did not start:\n" + started.stderr)
        return 2
    url = started.stdout.strip()
    if not control(dfukit, package, work):
        subprocess.run([os.path.join(ROOT, "scripts", "stop-postgres.sh"), server_dir],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return 1
    lease = parse_seconds(options.lease)
    help_text = subprocess.run([dfukit, "batch", "run", "--help"], capture_output=True, text=True).stdout
    lease_arguments = ["--lease", options.lease] if "--lease" in help_text else []
    if not lease_arguments:
        log("WARNING: this dfukit has no --lease option: the stations run with the default lease")

    device = f"sim:vendor-ctrlpt?fleet={options.devices}&realtime={options.speed}&journal={journal_dir}"
    arguments = [dfukit, "batch", "run", "--profile", os.path.join(ROOT, "profiles", "vendor-ctrlpt.yaml"),
                 "--package", package, "--device", device, "--ledger", url, "--concurrency", str(options.concurrency),
                 "--retries", "3", "--json"] + lease_arguments
    pids = {}
    killed = set()
    stations = [Station(name, arguments, work) for name in STATIONS]
    bin_dir = sorted(d for d in os.listdir("/usr/lib/postgresql"))[-1]
    pg_ctl = os.path.join("/usr/lib/postgresql", bin_dir, "bin", "pg_ctl")
    as_server = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    status = 2
    try:
        for station in stations:
            station.start(pids)
        start = time.monotonic()
        chaos_until = start + options.chaos_seconds
        restarted_postgres = stalled = False
        spared = {}  # station -> until when it is not killed (the stalled one, to see what it does on waking)
        next_kill = start + rng.uniform(4, 10)
        while time.monotonic() < chaos_until and any(s.running() for s in stations):
            now = time.monotonic()
            if not restarted_postgres and now - start > options.chaos_seconds * 0.3:
                log("restarting PostgreSQL")
                subprocess.run(as_server + [pg_ctl, "-D", os.path.join(server_dir, "data"), "-m", "fast", "-w",
                                            "restart"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                restarted_postgres = True
            if not stalled and now - start > options.chaos_seconds * 0.5:
                victim = rng.choice([s for s in stations if s.running()] or stations)
                if victim.running():
                    # Past the lease, a fourth station sweeps the fleet and takes over the stalled
                    # station's devices; the stalled one then wakes up in the middle of that.
                    same_name = options.takeover == "same-name"
                    # same-name: the station is started again while its earlier process hangs,
                    # well within the lease (an operator restarting a hung station).
                    before, after = (1, 1.5) if same_name else (lease + 2, 3)
                    log(f"stalling {victim.name} (pid {victim.process.pid}) for {before + after:.0f} s (lease {lease:.0f} s)")
                    victim.process.send_signal(signal.SIGSTOP)
                    time.sleep(before)
                    if same_name:
                        sweeper = Station(victim.name, arguments, work, label=victim.name + "-again")
                    else:
                        sweeper = Station("station-d", arguments, work)
                    sweeper.start(pids)
                    stations.append(sweeper)
                    time.sleep(after)
                    victim.process.send_signal(signal.SIGCONT)
                    log(f"resumed {victim.name} while {sweeper.label} works on the devices it held")
                    spared[victim.name] = time.monotonic() + 2 * lease
                stalled = True
            if now >= next_kill:
                running = [s for s in stations if s.running() and spared.get(s.name, 0) < time.monotonic()]
                if running:
                    victim = rng.choice(running)
                    log(f"SIGKILL {victim.name} (pid {victim.process.pid})")
                    victim.process.kill()
                    victim.process.wait()
                    killed.add(victim.process.pid)
                    time.sleep(rng.uniform(0.5, 2))
                    victim.start(pids)
                next_kill = time.monotonic() + rng.uniform(6, 14)
            time.sleep(0.2)
        log("chaos over: letting the stations finish")
        with open(package, "rb") as handle:
            package_sha = hashlib.sha256(handle.read()).hexdigest()  # what the stations key the ledger by
        hung = []

        def wait_for(station):
            """Waits for the station's run to end; one that does not within 10 minutes is killed and noted."""
            try:
                station.process.wait(timeout=600)
            except subprocess.TimeoutExpired:
                hung.append(f"{station.label} (pid {station.process.pid})")
                station.process.kill()
                station.process.wait()

        for round_number in range(options.rounds):
            for station in stations:
                if station.process:
                    wait_for(station)
            attempts, claims = ledger_rows(url, package_sha)
            done = {a["device"] for a in attempts if a["result"] == "succeeded"}
            if len(done) >= options.devices:
                break
            log(f"round {round_number + 1}: {options.devices - len(done)} device(s) left; waiting out the lease "
                "and starting the stations again")
            time.sleep(lease + 1)
            for station in stations:
                station.start(pids)
        for station in stations:
            if station.running():
                wait_for(station)
        attempts, claims = ledger_rows(url, package_sha)
        with open(os.path.join(work, "pids.json"), "w") as handle:
            json.dump({"stations": {str(k): v for k, v in pids.items()}, "killed": sorted(killed),
                       "package_sha256": package_sha, "devices": options.devices}, handle)
        with open(os.path.join(work, "ledger.json"), "w") as handle:
            json.dump({"attempts": attempts, "claims": claims}, handle)
        for station in stations:
            station.finish()
        exits = dict((f"{s.label}-{run}", code) for s in stations for run, code in s.exits)
        log("station runs: " + ", ".join(f"{name}: exit {exits.get(name, '?')}, {summary}"
                                          for name, summary in station_exits(work)))
        status = check_work(work)
        chaos = f"{len(killed)} SIGKILLs, {int(restarted_postgres)} PostgreSQL restart, {int(stalled)} stall ({'the same station started again within the lease' if options.takeover == 'same-name' else 'past the lease, station-d taking over'})"
        print(f"chaos: {chaos}")
        for station in hung:
            print(f"violation: {station} did not finish within 10 minutes of the chaos ending (killed)")
            status = 1
        if not (killed and restarted_postgres and stalled):
            print("violation: the stations finished before the harness did all its chaos; run longer "
                  "(a lower CHAOS_SPEED, more CHAOS_DEVICES)")
            status = 1
        log(f"took {time.monotonic() - start:.0f} s")
    finally:
        for station in stations:
            if station.running():
                station.process.kill()
        subprocess.run([os.path.join(ROOT, "scripts", "stop-postgres.sh"), server_dir],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if status == 0 and not options.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            log(f"kept {work} (journal, ledger rows, each station run's summary and log)")
    return status


def control(dfukit, package, work):
    """The double-write check on real journal data: two stations that do not share a ledger
    (each its own SQLite file) flash the same six devices at once; the checker must see it."""
    directory = os.path.join(work, "control")
    os.makedirs(directory)
    processes = [subprocess.Popen([dfukit, "batch", "run", "--profile", os.path.join(ROOT, "profiles", "vendor-ctrlpt.yaml"),
                                   "--package", package, "--device",
                                   f"sim:vendor-ctrlpt?fleet=6&realtime=8&journal={directory}/journal",
                                   "--ledger", f"sqlite:{directory}/{name}.sqlite", "--station", name,
                                   "--concurrency", "6", "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for name in ("control-x", "control-y")]
    for process in processes:
        process.wait()
    found = double_writes(read_journal(os.path.join(directory, "journal", "journal.log")), {})
    devices = len({item["device"] for item in found})
    print(f"control: two stations without a shared ledger: {len(found)} double writes on {devices} of 6 devices "
          "(the check sees them)" if devices else "control: FAILED: two stations without a shared ledger wrote to the "
          "same devices at once and the checker saw no double write")
    return devices > 0


def station_exits(work):
    exits = []
    for name in sorted(os.listdir(work)):
        if name.startswith("station-") and name.endswith(".json"):
            try:
                with open(os.path.join(work, name)) as handle:
                    summary = json.load(handle)
                exits.append((name[:-5], f"{summary.get('succeeded')} flashed, {summary.get('skipped')} skipped"))
            except (json.JSONDecodeError, OSError):
                exits.append((name[:-5], "no summary (killed, or it failed: see its .log)"))
    return exits


def check_work(work):
    with open(os.path.join(work, "pids.json")) as handle:
        meta = json.load(handle)
    with open(os.path.join(work, "ledger.json")) as handle:
        ledger = json.load(handle)
    events = read_journal(os.path.join(work, "journal", "journal.log"))
    station_of = {int(k): v for k, v in meta["stations"].items()}
    first = 0xC0FFEE000001
    devices = [":".join(f"{(first + i) >> (8 * b) & 0xFF:02X}" for b in reversed(range(6)))
               for i in range(meta["devices"])]
    counts, violations = check(events, ledger["attempts"], ledger["claims"], station_of, set(meta["killed"]), devices)
    for violation in violations[:50]:
        print(f"violation: {violation}")
    if len(violations) > 50:
        print(f"... and {len(violations) - 50} more")
    print(summary_line(counts))
    return 1 if violations else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run")
    run_parser.add_argument("--dfukit", default=os.path.join(ROOT, ".build", "debug", "dfukit"))
    run_parser.add_argument("--devices", type=int, default=200)
    run_parser.add_argument("--speed", default="2", help="the fleet's realtime= factor")
    run_parser.add_argument("--lease", default="6s")
    run_parser.add_argument("--concurrency", type=int, default=4)
    run_parser.add_argument("--chaos-seconds", type=float, default=60)
    run_parser.add_argument("--rounds", type=int, default=4)
    run_parser.add_argument("--seed", type=int, default=int(os.environ.get("CHAOS_SEED", "0")) or random.randrange(1 << 30))
    run_parser.add_argument("--takeover", choices=["sweeper", "same-name"], default="sweeper",
                            help="who takes the stalled station's devices: a fourth station (station-d), or the "
                                 "stalled station's own name started again while the stalled process hangs")
    run_parser.add_argument("--work")
    run_parser.add_argument("--keep", action="store_true", help="keep the work directory even when every check passes")
    check_parser = commands.add_parser("check")
    check_parser.add_argument("--work", required=True)
    commands.add_parser("self-test")
    options = parser.parse_args()
    if options.command == "self-test":
        return self_test()
    if options.command == "check":
        return check_work(options.work)
    return run(options)


if __name__ == "__main__":
    sys.exit(main())
