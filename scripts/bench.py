#!/usr/bin/env python3
"""walletwatch's benchmarks, run by scripts/bench: every figure of issues 8 and 13 from one run on one
machine, printed as a table and as JSON. Times are wall-clock seconds of whole processes (the
median of several runs where a run is cheap); peak memory is the kernel's ru_maxrss of the
process. Nothing is asserted: the figures are the result.

usage: bench.py BIN_DIR OUT_JSON [--quick] [--only PART,...]
  --quick  10,000 and 100,000 movements instead of 100,000 and 1,000,000 (a smoke run)
  --only   run only these parts: ark, esplora, month, backfill, hd, electrum, evm (default: all)

The hd part compares walletwatch with the Bitcoin Dev Kit (bdkpython, run by scripts/bench_bdk.py
in its own process; a bench-only dependency) on the same wallet and simulator. The electrum part
compares them again through a real ElectrumX 2.0.0 (stock settings) indexing the simulator's
regtest chain, BDK's Electrum client run by scripts/bench_bdk_electrum.py, both counted by the
same relay; then it measures the daemon's latency from a mempool payment to the stored row. The evm
part watches 2 addresses and 3 tokens over the simulator's generated chain of 2,000 transactions
(walletwatch's first ingest and a no-change pass with each kind of history) beside web3.py (from
.build/python-evm, run by scripts/bench_web3.py) reading the same balances and Transfer logs from
the same simulator, and refuses to report figures unless walletwatch stored what web3.py read.
"""
import asyncio
import collections
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BIN, OUT = sys.argv[1], sys.argv[2]
QUICK = "--quick" in sys.argv[3:]
ONLY = next((sys.argv[i + 1].split(",") for i in range(3, len(sys.argv) - 1) if sys.argv[i] == "--only"),
            ["ark", "esplora", "month", "backfill", "hd", "electrum", "evm"])
HD_USED = 20 if QUICK else 200
# BIP86's test vector account key (any xpub would do), as a wpkh wallet with change.
HD_XPUB = "xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ"
# Made absolute: the peers run with the bench's folder as their working directory, where a
# relative path (scripts/bench passes .build/python-tools/bin/python) would not be found.
PYTHON = os.environ.get("WALLETWATCH_BENCH_PYTHON", sys.executable)
PYTHON = os.path.abspath(PYTHON) if os.sep in PYTHON else PYTHON
SIZES = [10_000, 100_000] if QUICK else [100_000, 1_000_000]
MONTH_SIZES = (1_000, 100_000 if QUICK else 1_000_000)
HISTORY_ROWS = 10_000
ESPLORA_TXS = 10_000
ADDRESS = "bc1qdpekljy00yhuluyl4kehf5wq0stu2zkjsjdq86"
NOW = "2026-11-21T12:00:00Z"
work = tempfile.mkdtemp(prefix="walletwatch-bench.")
simulators = []


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def measured(argv, env=None, stdin_path=None, cwd=None):
    """Runs a program to its end and returns (wall seconds, peak resident KiB, stdout)."""
    wall, _, peak, out = measured_cpu(argv, env=env, stdin_path=stdin_path, cwd=cwd)
    return wall, peak, out


def measured_cpu(argv, env=None, stdin_path=None, cwd=None):
    """Runs a program to its end and returns (wall seconds, CPU seconds (user + system), peak
    resident KiB, stdout)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    out_path = os.path.join(work, "stdout")
    err_path = os.path.join(work, "stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err, stdin=stdin, env={**os.environ, **(env or {})}, cwd=cwd or work)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if stdin_path:
        stdin.close()
    if process.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv)} failed ({process.returncode}): {open(err_path).read()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, open(out_path).read()


def curl_paced():
    """scripts/curl-paced.c, compiled once into the bench's folder by the toolchain's clang."""
    program = os.path.join(work, "curl-paced")
    if not os.path.exists(program):
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "curl-paced.c")
        subprocess.run([shutil.which("clang") or "cc", "-O2", "-o", program, source, "-lcurl"], check=True)
    return program


def median(values):
    return statistics.median(values)


def start_simulator(name, scenario, extra=(), ready_file=None):
    """Starts walletwatch-sim on `scenario` and returns it and its base URL once it listens (and,
    with `ready_file`, once it has written that file: its endpoints file, which follows the port)."""
    path = os.path.join(work, f"{name}.json")
    port_file = os.path.join(work, f"{name}.port")
    with open(path, "w") as file:
        json.dump(scenario, file)
    process = subprocess.Popen([f"{BIN}/walletwatch-sim", "--scenario", path, "--port", "0", "--port-file", port_file, *extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    simulators.append(process)
    deadline = time.time() + 60
    while not all(os.path.exists(f) and open(f).read().strip() for f in (port_file, ready_file or port_file)):
        if time.time() > deadline or process.poll() is not None:
            raise SystemExit("bench: the simulator did not start")
        time.sleep(0.05)
    return process, f"http://127.0.0.1:{open(port_file).read().strip()}"


def stop_simulator(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    simulators.remove(process)


def http(method, url, body=None, token=None):
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=600) as response:
        return response.read()


def write_config(folder, sources, database="walletwatch.sqlite"):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "token"), "w") as file:
        file.write("t\n")
    with open(os.path.join(folder, "walletwatch.toml"), "w") as file:
        file.write(f'database = "{database}"\n{sources}\n[rates]\nprovider = "static"\n[rates.static]\n"BTC/USD" = "65000"\n')
    return {"WALLETWATCH_CONFIG": os.path.join(folder, "walletwatch.toml"), "WALLETWATCH_NOW": NOW}


def walletwatch(folder, env, *arguments):
    return measured([f"{BIN}/walletwatch", *arguments], env=env, cwd=folder)


def sqlite(database, sql):
    return subprocess.run(["sqlite3", database, sql], capture_output=True, check=True, text=True).stdout.strip()


class Probes:
    """Beside a running walletwatch command: how long a writer waits for SQLite's write lock,
    and how long `walletwatch tag create` takes, run every `every` seconds, as a user would
    type it.

    Two writers take and release the lock every 10 ms. One tries again every millisecond while
    the lock is held, as walletwatch's own connections do (AppDatabase.busyHandler): its
    longest wait is about the longest time anything else held the lock. The other waits as
    SQLite's own busy timeout does (the sqlite3 shell's `.timeout`, Python's sqlite3), with
    tries ever further apart, up to 100 ms: beside an ingest's pieces of writing, a few
    milliseconds apart, it keeps waking while the next piece holds the lock, so its wait says
    how a third-party tool fares, not how long the lock was held."""

    def __init__(self, database, folder, env, every=0.5):
        self.database, self.folder, self.env, self.every = database, folder, env, every
        self.label = f"probe-{time.monotonic_ns()}"
        self.stop = threading.Event()
        self.lock_waits, self.timeout_waits, self.tag_creates = [], [], []
        self.threads = [threading.Thread(target=self.lock_probe, args=(True, self.lock_waits)),
                        threading.Thread(target=self.lock_probe, args=(False, self.timeout_waits)),
                        threading.Thread(target=self.tag_probe)]

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def lock_probe(self, prompt, waits):
        import sqlite3
        connection = None
        while not self.stop.is_set():
            if connection is None:
                try:
                    connection = sqlite3.connect(f"file:{self.database}?mode=rw", uri=True, timeout=0 if prompt else 120,
                                                 isolation_level=None)
                    connection.execute("SELECT 1 FROM change_counter")
                except sqlite3.Error:
                    connection = None
                    time.sleep(0.01)
                    continue
            started = time.perf_counter()
            while True:
                try:
                    connection.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as error:
                    if not prompt or "locked" not in str(error):
                        raise
                    time.sleep(0.001)
            connection.execute("COMMIT")
            waits.append(time.perf_counter() - started)
            time.sleep(0.01)
        if connection is not None:
            connection.close()

    def tag_probe(self):
        index = 0
        while not self.stop.is_set():
            if not os.path.exists(self.database):
                time.sleep(0.01)
                continue
            index += 1
            started = time.perf_counter()
            result = subprocess.run([f"{BIN}/walletwatch", "tag", "create", f"{self.label}-{index}"],
                                    env={**os.environ, **self.env}, cwd=self.folder, capture_output=True)
            if result.returncode == 0:
                self.tag_creates.append(time.perf_counter() - started)
            else:
                self.tag_creates.append(float("nan"))
                log(f"tag create failed beside the ingest: {result.stderr.decode()[-300:]}")
            self.stop.wait(self.every)

    def figures(self):
        creates = [t for t in self.tag_creates if t == t]
        return {"longest_lock_wait_s": max(self.lock_waits, default=0.0), "lock_probes": len(self.lock_waits),
                "longest_lock_wait_sqlite_timeout_s": max(self.timeout_waits, default=0.0),
                "tag_create_s": self.tag_creates, "tag_create_max_s": max(creates, default=float("nan")),
                "tag_create_failures": len(self.tag_creates) - len(creates)}


PLAIN_TABLE = """CREATE TABLE transactions (asset_id INTEGER, txid TEXT PRIMARY KEY, amount INTEGER, type TEXT, status TEXT,
    direction TEXT, date TEXT, round INTEGER, board_txid TEXT, fee INTEGER, counterparty TEXT, note TEXT, first_seen_at TEXT,
    last_updated TEXT, rule1_applied_at TEXT);"""


def ark_ingest(count):
    """The first ingest of `count` movements against its floor, a no-change re-ingest against
    curl, and the write lock beside both."""
    log(f"{count:,} movements: starting the simulator (the history is rendered once, then served as bytes)")
    sim, base = start_simulator(f"ark{count}", {"wallets": [
        {"name": "ark", "token": "t", "generated_movements": {"count": count, "seed": 1, "prerender": True}}]})
    url = f"{base}/barkd/ark/api/v1/history"
    body_path = os.path.join(work, f"body{count}.json")
    subprocess.run(["curl", "-sf", "-H", "Authorization: Bearer t", "-o", body_path, url], check=True)
    body_bytes = os.path.getsize(body_path)

    log(f"{count:,} movements: the floor, curl fetching the body")
    curl_runs, curl_transfers = [], []
    for _ in range(5):
        wall, _, out = measured(["curl", "-sf", "-H", "Authorization: Bearer t", "-o", "/dev/null", "-w", "%{time_total}", url])
        curl_runs.append(wall)
        curl_transfers.append(float(out))

    sources = f'[[sources]]\nname = "ark"\nkind = "barkd"\nurl = "{base}/barkd/ark"\ntoken_file = "token"\nark_asset = "Ark wallet"\n'
    runs = 3 if count <= 100_000 else 1
    ingest_runs, ingest_peaks = [], []
    for index in range(runs):
        log(f"{count:,} movements: first ingest, run {index + 1} of {runs}")
        folder = os.path.join(work, f"ingest{count}-{index}")
        env = write_config(folder, sources)
        wall, peak, out = walletwatch(folder, env, "ingest", "--json")
        report = json.loads(out)["sources"][0]
        assert report["ok"] and report["new"] == count, report
        ingest_runs.append(wall)
        ingest_peaks.append(peak)
    database = os.path.join(folder, "walletwatch.sqlite")

    log(f"{count:,} movements: the same history again (nothing changed), 3 runs")
    before = sqlite(database, "SELECT COUNT(*) FROM transactions WHERE last_updated > '2026-11-21T12:00:00.000Z'")
    reingest_runs, reingest_peaks = [], []
    for index in range(3):
        reenv = {**env, "WALLETWATCH_NOW": f"2026-11-21T12:0{index + 5}:00Z"}
        rewall, repeak, out = walletwatch(folder, reenv, "ingest", "--json")
        report = json.loads(out)["sources"][0]
        assert report["ok"] and report["new"] + report["updated"] + report["dropped"] == 0, report
        reingest_runs.append(rewall)
        reingest_peaks.append(repeak)
    rows_changed = int(sqlite(database, "SELECT COUNT(*) FROM transactions WHERE last_updated > '2026-11-21T12:00:00.000Z'")) - int(before)

    log(f"{count:,} movements: the daemon's no-change passes (`run`, a pass a second)")
    daemon_passes = daemon_pass_durations(folder, sources, passes=9)
    # Each of the daemon's passes starts after a second of idling, and a transfer that starts
    # from idle is slower here than one that follows another (scripts/curl-paced.c says more):
    # its floor is libcurl at the same pace, in a process that stays up, the first request
    # left out as the daemon's first pass is.
    log(f"{count:,} movements: libcurl at the daemon's pace (scripts/curl-paced.c, a request a second)")
    paced = [float(line) for line in measured([curl_paced(), url, "t", "10", "1000"])[2].split()][1:]

    log(f"{count:,} movements: the write lock and `tag create` beside a first ingest and beside a no-change re-ingest")
    probe_folder = os.path.join(work, f"probe{count}")
    probe_env = write_config(probe_folder, sources)
    probe_database = os.path.join(probe_folder, "walletwatch.sqlite")
    with Probes(probe_database, probe_folder, probe_env) as first_probes:
        walletwatch(probe_folder, probe_env, "ingest", "--json")
    # A no-change pass is short: five in a row, so that the probes meet each of its moments.
    with Probes(probe_database, probe_folder, probe_env, every=0.02) as again_probes:
        for index in range(5):
            walletwatch(probe_folder, {**probe_env, "WALLETWATCH_NOW": f"2026-11-21T12:1{index}:00Z"}, "ingest", "--json")

    log(f"{count:,} movements: the floor, the sqlite3 CLI importing the same rows in one transaction into a plain table keyed by txid")
    rows_csv = os.path.join(work, f"rows{count}.csv")
    with open(rows_csv, "w") as file:
        subprocess.run(["sqlite3", "-csv", database, "SELECT * FROM transactions"], stdout=file, check=True)
    script = os.path.join(work, "import.sql")
    with open(script, "w") as file:
        file.write(f"BEGIN;\n.mode csv\n.import {rows_csv} transactions\nCOMMIT;\n")
    import_runs = []
    for index in range(3):
        floor_db = os.path.join(work, f"floor{count}-{index}.sqlite")
        subprocess.run(["sqlite3", floor_db], input=PLAIN_TABLE + "\nPRAGMA journal_mode=WAL;\n", text=True, check=True, capture_output=True)
        wall, _, _ = measured(["sqlite3", floor_db], stdin_path=script)
        assert sqlite(floor_db, "SELECT COUNT(*) FROM transactions") == str(count)
        import_runs.append(wall)
        os.remove(floor_db)

    log(f"{count:,} movements: the ingest's steps alone (walletwatch-bench)")
    decode = json.loads(measured([f"{BIN}/walletwatch-bench", "decode", body_path])[2])
    write_db = os.path.join(work, f"write{count}.sqlite")
    write = json.loads(measured([f"{BIN}/walletwatch-bench", "write", str(count), write_db])[2])
    stop_simulator(sim)
    for path in (body_path, rows_csv, write_db):
        os.remove(path)
    for index in range(runs):
        shutil.rmtree(os.path.join(work, f"ingest{count}-{index}"), ignore_errors=True)
    shutil.rmtree(probe_folder, ignore_errors=True)

    curl = median(curl_runs)
    floor = curl + median(import_runs)
    return {
        "movements": count, "body_bytes": body_bytes,
        "ingest_s": median(ingest_runs), "ingest_runs_s": ingest_runs, "ingest_peak_kib": max(ingest_peaks),
        "floor_curl_s": curl, "floor_curl_runs_s": curl_runs, "floor_sqlite_import_s": median(import_runs), "floor_s": floor,
        "ratio_to_floor": median(ingest_runs) / floor,
        "reingest_s": median(reingest_runs), "reingest_runs_s": reingest_runs, "reingest_peak_kib": max(reingest_peaks),
        "reingest_ratio_to_curl": median(reingest_runs) / curl, "reingest_rows_changed": rows_changed,
        "floor_curl_transfer_s": median(curl_transfers), "daemon_pass_s": median(daemon_passes), "daemon_passes_s": daemon_passes,
        "daemon_pass_ratio_to_curl": median(daemon_passes) / curl,
        "daemon_pass_ratio_to_curl_transfer": median(daemon_passes) / median(curl_transfers),
        "paced_libcurl_s": median(paced), "paced_libcurl_runs_s": paced,
        "daemon_pass_ratio_to_paced_libcurl": median(daemon_passes) / median(paced),
        "first_ingest_probes": first_probes.figures(), "reingest_probes": again_probes.figures(),
        "step_decode_s": decode["wall_s"], "step_decode_mb_per_s": decode["mb_per_s"],
        "step_write_s": write["wall_s"], "step_write_us_per_row": write["per_item_us"],
    }


def process_start(runs=21):
    """`walletwatch --version` beside `curl --version`, alternated, `runs` each: what a process
    costs before it does anything, the part of a no-change `ingest` that its pass inside `run`
    does not pay. Both load libcurl and its 30-odd libraries; walletwatch also starts Swift's
    runtime and swift-argument-parser."""
    log(f"process start: walletwatch --version beside curl --version, {runs} runs each")
    walletwatch_runs, curl_runs = [], []
    for _ in range(runs):
        walletwatch_runs.append(measured([f"{BIN}/walletwatch", "--version"])[0])
        curl_runs.append(measured(["curl", "--version"])[0])
    return {"runs": runs, "walletwatch_s": median(walletwatch_runs), "walletwatch_runs_s": walletwatch_runs,
            "curl_s": median(curl_runs), "curl_runs_s": curl_runs}


def daemon_pass_durations(folder, sources, passes):
    """`walletwatch run` on `folder`'s ingested database, each source on a 1-second interval,
    until it has logged `passes` passes after its first: their durations as it logged them
    (`duration_ms`, from the pass's start to its published result), the first left out (it
    prepares the statements the others reuse). What a pass of the daemon costs, without a
    process's start, which `run` pays once."""
    config = os.path.join(folder, "daemon.toml")
    with open(os.path.join(folder, "walletwatch.toml")) as file:
        text = file.read()
    with open(config, "w") as file:
        file.write(text.replace(sources, sources + "interval_seconds = 1\n"))
    os.chmod(config, 0o600)
    err_path = os.path.join(work, "daemon.err")
    with open(err_path, "wb") as err:
        daemon = subprocess.Popen([f"{BIN}/walletwatch", "run"], stdout=subprocess.DEVNULL, stderr=err, cwd=folder,
                                  env={**os.environ, "WALLETWATCH_CONFIG": config, "WALLETWATCH_LOG_LEVEL": "info"})
        lines, deadline = [], time.time() + 120 + passes * 10
        while len(lines) < passes + 1 and time.time() < deadline and daemon.poll() is None:
            time.sleep(0.2)
            lines = [line for line in open(err_path).read().splitlines() if line.endswith(" ingested")]
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)
    if len(lines) < passes + 1:
        raise SystemExit(f"bench: the daemon logged {len(lines)} passes: {open(err_path).read()[-2000:]}")
    durations = []
    for line in lines[1:passes + 1]:
        fields = dict(re.findall(r"(\w+)=(\S+)", line))
        assert fields["new"] == fields["updated"] == fields["dropped"] == "0", line
        durations.append(int(fields["duration_ms"]) / 1000)
    return durations


def esplora_incremental():
    """(e): an address with 10,000 transactions, then one new one."""
    log(f"Esplora: an address with {ESPLORA_TXS:,} transactions")
    sim, base = start_simulator("esplora", {"esplora": {"generated": [{"address": ADDRESS, "count": ESPLORA_TXS, "seed": 7}]}})
    sources = f'[[sources]]\nname = "cold"\nkind = "esplora"\nurl = "{base}/esplora"\nasset = "Cold storage"\naddresses = ["{ADDRESS}"]\n'
    folder = os.path.join(work, "esplora")
    env = write_config(folder, sources)
    first_wall, first_peak, out = walletwatch(folder, env, "ingest", "--json")
    first = json.loads(out)["sources"][0]
    first_requests = len([r for r in json.loads(http("GET", f"{base}/control/requests")) if r["path"].startswith("/esplora")])
    tip = int(http("GET", f"{base}/esplora/blocks/tip/height"))
    http("POST", f"{base}/control/esplora/transactions",
         {"txid": "f" * 63 + "1", "outputs": [{"address": ADDRESS, "value": 12_345}], "fee": 150, "block_height": tip})
    http("DELETE", f"{base}/control/requests")
    wall, peak, out = walletwatch(folder, {**env, "WALLETWATCH_NOW": "2026-11-21T12:10:00Z"}, "ingest", "--json")
    report = json.loads(out)["sources"][0]
    requests = [r["path"] for r in json.loads(http("GET", f"{base}/control/requests")) if r["path"].startswith("/esplora")]
    stop_simulator(sim)
    return {"transactions": ESPLORA_TXS, "first_sync_s": first_wall, "first_sync_new": first["new"], "first_sync_requests": first_requests,
            "first_sync_peak_kib": first_peak, "incremental_s": wall, "incremental_new": report["new"],
            "incremental_requests": len(requests), "incremental_request_paths": requests, "addresses": 1, "incremental_peak_kib": peak}


def backfill():
    """(g): rates backfill of five years of daily prices for two currencies (mempool, which answers
    its whole history), then the same again: requests, wall time, rows written; and CoinGecko's
    public API, which answers only the past 365 days (the rest is reported, not asked)."""
    results = {}
    sim, base = start_simulator("prices", {"now": NOW, "prices": {"USD": 65000, "EUR": 60000}})
    since = "2021-11-22"  # five years (1,826 days) up to and including 2026-11-21
    for provider, url in (("mempool", f"{base}/mempool/api"), ("coingecko", f"{base}/coingecko/api/v3")):
        log(f"rates backfill from {provider}: {since} through {NOW[:10]}, USD and EUR")
        folder = os.path.join(work, f"backfill-{provider}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "walletwatch.toml"), "w") as file:
            file.write(f'database = "walletwatch.sqlite"\n[rates]\nprovider = "{provider}"\nurl = "{url}"\ncurrencies = ["USD", "EUR"]\n')
        env = {"WALLETWATCH_CONFIG": os.path.join(folder, "walletwatch.toml"), "WALLETWATCH_NOW": NOW}
        database = os.path.join(folder, "walletwatch.sqlite")
        runs = []
        for _ in range(2):
            http("DELETE", f"{base}/control/requests")
            before = int(sqlite(database, "SELECT COUNT(*) FROM rate_history")) if os.path.exists(database) else 0
            wall, peak, out = walletwatch(folder, env, "rates", "backfill", "--since", since, "--json")
            report = json.loads(out)
            served = [r for r in json.loads(http("GET", f"{base}/control/requests")) if "historical-price" in r["path"] or "market_chart" in r["path"]]
            rows = int(sqlite(database, "SELECT COUNT(*) FROM rate_history")) - before
            runs.append({"s": wall, "peak_kib": peak, "requests": report["requests"], "requests_served": len(served), "rows_written": rows,
                         "days_added": sum(p["days_added"] for p in report["pairs"]),
                         "days_unavailable": sum(u["days"] for u in report.get("unavailable", []))})
        results[provider] = {"first": runs[0], "second": runs[1]}
    stop_simulator(sim)
    return {"since": since, "until": NOW[:10], "currencies": ["USD", "EUR"], **results}


def esplora_requests(base):
    return [r for r in json.loads(http("GET", f"{base}/control/requests")) if r["path"].startswith("/esplora/")]


def hd_wallets():
    """An HD wallet with HD_USED used addresses on each chain: walletwatch's first sync and a
    no-change pass against BDK's full_scan and sync of the same descriptor, same simulator."""
    descriptor = f"wpkh({HD_XPUB}/<0;1>/*)"
    log(f"HD wallet: {HD_USED} used addresses on each chain")
    sim, base = start_simulator("hd", {"esplora": {"hd_wallets": [{
        "name": "bench", "descriptors": [descriptor], "receive": list(range(HD_USED)), "change": list(range(HD_USED)), "seed": 84}]}})
    sources = f'[[sources]]\nname = "hodl"\nkind = "esplora"\nurl = "{base}/esplora"\nasset = "HD wallet"\ndescriptors = ["{descriptor}"]\n'
    runs = 1 if QUICK else 3
    first, quiet = [], []
    for index in range(runs):
        log(f"HD wallet: walletwatch first sync and no-change pass, run {index + 1} of {runs}")
        folder = os.path.join(work, f"hd{index}")
        env = write_config(folder, sources + "[http]\nconcurrency = 4\n")
        http("DELETE", f"{base}/control/requests")
        wall, peak, out = walletwatch(folder, env, "ingest", "--json")
        report = json.loads(out)["sources"][0]
        assert report["ok"], report
        first.append({"s": wall, "peak_kib": peak, "requests": len(esplora_requests(base)), "new": report["new"]})
        http("DELETE", f"{base}/control/requests")
        wall, peak, out = walletwatch(folder, {**env, "WALLETWATCH_NOW": "2026-11-21T12:05:00Z"}, "ingest", "--json")
        report = json.loads(out)["sources"][0]
        quiet.append({"s": wall, "peak_kib": peak, "requests": len(esplora_requests(base)),
                      "changed": report["new"] + report["updated"] + report["dropped"]})
    asset = json.loads(walletwatch(folder, env, "asset", "show", "HD wallet", "--json")[2])
    transactions = len(json.loads(walletwatch(folder, env, "tx", "list", "--asset", "HD wallet", "--json")[2]))
    bdk = []
    for index in range(runs):
        log(f"HD wallet: BDK full_scan and sync, run {index + 1} of {runs}")
        _, _, out = measured([PYTHON, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_bdk.py"), base,
                              f"wpkh({HD_XPUB}/0/*)", f"wpkh({HD_XPUB}/1/*)", "20", "4"])
        bdk.append(json.loads(out))
    stop_simulator(sim)
    pick = lambda runs, key: median([run[key] for run in runs])
    return {
        "used_per_chain": HD_USED, "descriptor": descriptor, "gap_limit": 20, "concurrency": 4, "bdkpython": bdk[0]["bdkpython"],
        "walletwatch": {"first_s": pick(first, "s"), "first_requests": first[0]["requests"], "first_new": first[0]["new"],
                        "first_peak_kib": max(run["peak_kib"] for run in first),
                        "quiet_s": pick(quiet, "s"), "quiet_requests": quiet[0]["requests"], "quiet_changed": quiet[0]["changed"],
                        "confirmed": asset["balance"], "pending": asset["pending"], "transactions": transactions,
                        "first_runs_s": [run["s"] for run in first], "quiet_runs_s": [run["s"] for run in quiet]},
        "bdk": {"full_scan_s": pick(bdk, "full_scan_s"), "full_scan_requests": bdk[0]["full_scan_requests"],
                "full_scan_block_requests": bdk[0]["full_scan_block_requests"],
                "sync_s": pick(bdk, "sync_s"), "sync_requests": bdk[0]["sync_requests"],
                "confirmed": bdk[0]["confirmed"], "pending": bdk[0]["pending"], "transactions": bdk[0]["transactions"],
                "revealed": bdk[0]["revealed"],
                "full_scan_runs_s": [run["full_scan_s"] for run in bdk], "sync_runs_s": [run["sync_s"] for run in bdk]},
    }


def hd_table(hd):
    ww, bdk = hd["walletwatch"], hd["bdk"]
    lines = ["", f"HD wallet, {hd['used_per_chain']} used addresses on each chain ({hd['descriptor'][:12]}...), gap limit "
             f"{hd['gap_limit']}, {hd['concurrency']} requests in flight; BDK {hd['bdkpython']}",
             f"{'':<36}{'walletwatch':>24}{'BDK (bdkpython)':>24}",
             f"{'first sync: requests':<36}{ww['first_requests']:>24}{bdk['full_scan_requests']:>24}",
             f"{'first sync: wall time':<36}{ww['first_s']:>23.2f}s{bdk['full_scan_s']:>23.2f}s",
             f"{'no-change pass: requests':<36}{ww['quiet_requests']:>24}{bdk['sync_requests']:>24}",
             f"{'no-change pass: wall time':<36}{ww['quiet_s']:>23.2f}s{bdk['sync_s']:>23.2f}s",
             f"{'balance (confirmed sats)':<36}{ww['confirmed']:>24}{bdk['confirmed']:>24}",
             f"{'transactions':<36}{ww['transactions']:>24}{bdk['transactions']:>24}",
             f"walletwatch: first sync = ingest of an empty database, no-change pass = the next ingest; times are whole processes "
             f"(start, config, database, requests, write). BDK: full_scan then sync (revealed addresses, {bdk['revealed']} on "
             f"receive/change) of one in-memory wallet; times are the calls alone. BDK's full scan includes "
             f"{bdk['full_scan_block_requests']} block requests (/blocks, /block-height/N) for its checkpoints; its sync asks only "
             f"the revealed addresses, none past them, while walletwatch's pass also asks the {2 * hd['gap_limit']} unused addresses "
             f"of its window (a deposit to any of them is found)."]
    return "\n".join(lines)


# --- The electrum part: walletwatch and BDK's Electrum client on a real ElectrumX -------------------

ELECTRUM_RECEIVE, ELECTRUM_CHANGE = (20, 10) if QUICK else (200, 100)
# BIP84's test vector account key (m/84'/0'/0' of "abandon ... about"), watched on the simulator's
# regtest chain as a vpub (the same key, SLIP-132's testnet wpkh version): walletwatch refuses a
# server whose genesis block is not its source's network's.
ELECTRUM_ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
ELECTRUM_GAP = 20
# How many scripts BDK asks in one batch: its callers choose (bdkpython has no default); 10 is
# between the 5 of bdk_wallet's example_wallet_electrum and walletwatch's 500.
BDK_BATCH = 10
LATENCY_PAYMENTS = 5
ELECTRUMX = os.path.join(os.path.dirname(PYTHON), "electrumx_server")
HISTORY_METHODS = ("blockchain.scripthash.get_history", "blockchain.transaction.get", "blockchain.block.header",
                   "blockchain.block.headers")
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def electrum_vpub():
    """The electrum part's account key as a vpub (SLIP-132's testnet P2WPKH version bytes)."""
    return extended_key(ELECTRUM_ZPUB, "045f1cf6")


def extended_key(key, version):
    """`key` (an xpub/zpub/tpub...) re-encoded with another 4-byte version (hex): the same key."""
    number = 0
    for char in key:
        number = number * 58 + BASE58.index(char)
    raw = number.to_bytes(82, "big")
    payload = bytes.fromhex(version) + raw[4:78]
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, text = int.from_bytes(data, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        text = BASE58[digit] + text
    return text


def scripthash(address):
    """The Electrum scripthash of a segwit address (SHA-256 of its output script, reversed, hex).
    The checksum is not checked: the simulator made the address."""
    _, data = address.lower().rsplit("1", 1)
    values = [BECH32.index(char) for char in data[:-6]]
    accumulator, bits, program = 0, 0, []
    for value in values[1:]:
        accumulator, bits = (accumulator << 5) | value, bits + 5
        while bits >= 8:
            bits -= 8
            program.append((accumulator >> bits) & 0xFF)
    script = bytes([values[0] + 0x50 if values[0] else 0, len(program)]) + bytes(program)
    return hashlib.sha256(script).digest()[::-1].hex()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ElectrumSocket:
    """A minimal Electrum client (newline-delimited JSON-RPC over TCP) for the bench's own
    questions: ElectrumX's tip, and the subscriber that timestamps notifications. Its session
    stays under ElectrumX's 1 KiB warm-up budget, so the server never holds what it sends it."""

    def __init__(self, port, timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer, self.next_id, self.arrived, self.notifications = b"", 0, 0.0, []
        self.call("server.version", ["walletwatch-bench", ["1.4", "1.6"]])

    def read(self):
        """The next message, and when the bytes that completed it arrived (time.monotonic())."""
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            self.arrived = time.monotonic()
            if not chunk:
                raise ConnectionError("the Electrum server closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line), self.arrived

    def call(self, method, params=()):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": list(params)}).encode() + b"\n")
        while True:
            message, arrived = self.read()
            if message.get("id") == self.next_id:
                if message.get("error"):
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result")
            self.notifications.append((arrived, message))

    def notification(self, method, first, timeout):
        """When the first notification of `method` about `first` arrived (time.monotonic()), waiting
        up to `timeout` seconds; None if none came."""
        deadline = time.monotonic() + timeout
        while True:
            for arrived, message in self.notifications:
                if message.get("method") == method and (message.get("params") or [None])[0] == first:
                    return arrived
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                message, arrived = self.read()
            except socket.timeout:
                return None
            self.notifications.append((arrived, message))

    def close(self):
        self.sock.close()


class ElectrumRelay:
    """A TCP relay between Electrum clients and the server, in a thread of the bench, through which
    BDK and walletwatch alike talk to ElectrumX, so that both are counted the same way from
    outside: every JSON-RPC request (a line, or each element of an array line) by method, and a
    round trip for each time the client wrote and then the server answered (writes without an
    answer between them are one round trip, as are several answer packets to one write; server
    notifications are not answers). A round trip lasts from the write to the last answer before
    the client writes again: ElectrumX may send the first answers at once and hold the rest.
    Each event is kept with its time.monotonic(), so any window of time can be counted. Bytes
    are forwarded first and looked at after, unchanged."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.lock = threading.Lock()
        self.requests = []       # (time, connection, method)
        self.trips = []          # {"asked", "first", "last" (answer times), "methods"}, oldest first
        self.notifications = []  # (time, connection, method, first param)
        self.connections = 0
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.thread = threading.Thread(target=self.serve, args=(started,), daemon=True)
        self.thread.start()
        started.wait()

    def serve(self, started):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self.accept, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    async def accept(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client_writer.close()
            return
        with self.lock:
            self.connections += 1
            connection = self.connections
        state = {"trip": None, "client": b"", "server": b""}
        await asyncio.gather(self.pump(client_reader, server_writer, lambda now, data: self.from_client(connection, state, now, data)),
                             self.pump(server_reader, client_writer, lambda now, data: self.from_server(connection, state, now, data)))

    @staticmethod
    async def pump(reader, writer, observe):
        try:
            while data := await reader.read(1 << 16):
                now = time.monotonic()
                writer.write(data)
                await writer.drain()
                observe(now, data)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    @staticmethod
    def lines(state, key, data):
        state[key] += data
        *complete, state[key] = state[key].split(b"\n")
        for line in complete:
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError:
                    yield {"method": "(not JSON)"}

    def from_client(self, connection, state, now, data):
        with self.lock:
            # A write after an answer starts a round trip; one before any answer joins the last.
            if state["trip"] is None or state["trip"]["first"] is not None:
                state["trip"] = {"asked": now, "first": None, "last": None, "methods": collections.Counter()}
                self.trips.append(state["trip"])
        for message in self.lines(state, "client", data):
            with self.lock:
                for call in message if isinstance(message, list) else [message]:
                    method = call.get("method") if isinstance(call, dict) else None
                    self.requests.append((now, connection, method))
                    state["trip"]["methods"][method] += 1

    def from_server(self, connection, state, now, data):
        for message in self.lines(state, "server", data):
            calls = message if isinstance(message, list) else [message]
            with self.lock:
                if any(isinstance(c, dict) and "method" not in c for c in calls):
                    if state["trip"] is not None:
                        state["trip"]["first"] = state["trip"]["first"] or now
                        state["trip"]["last"] = now
                else:
                    for call in calls:
                        self.notifications.append((now, connection, call.get("method"), (call.get("params") or [None])[0]))

    def window(self, start, end=float("inf")):
        """What went through from `start` to `end` (time.monotonic())."""
        with self.lock:
            requests = [r for r in self.requests if start <= r[0] < end]
            trips = [dict(t) for t in self.trips if start <= t["asked"] < end and t["first"] is not None]
            notifications = [n for n in self.notifications if start <= n[0] < end]
        methods = collections.Counter(method for _, _, method in requests)
        waits = [trip["last"] - trip["asked"] for trip in trips]
        return {"requests": len(requests), "round_trips": len(trips), "methods": dict(methods),
                "history_requests": sum(methods.get(m, 0) for m in HISTORY_METHODS),
                "connections": len({r[1] for r in requests}),
                "round_trip_wait_median_s": median(waits) if waits else 0.0,
                "round_trip_wait_max_s": max(waits, default=0.0),
                "round_trips_waiting_over_0_5_s": len([w for w in waits if w > 0.5]),
                # How many round trips asked what: {"10 scripthash.get_history": 34, ...}.
                "round_trip_kinds": dict(collections.Counter(methods_text(trip["methods"]) for trip in trips).most_common()),
                "notifications": [(t, method, first) for t, _, method, first in notifications], "trips": trips}


class ElectrumX:
    """ElectrumX 2.0.0 (from scripts/setup's .build/python-tools) indexing the simulator's chain
    through its Core face, as Tests/TestSupport/Electrum/ElectrumXServer.swift starts it, but with
    ElectrumX's stock settings: only what a test machine needs is set (coin and network, the
    database engine and folder, the daemon, one TCP service, no peers, root allowed); its cost
    limits and its 5 s block and mempool polls are its own defaults."""

    STOCK_LINES = ("session cost hard limit", "session cost soft limit", "bandwidth unit cost", "request sleep",
                   "initial concurrent", "session timeout")

    def __init__(self, core_rpc):
        self.folder = os.path.join(work, "electrumx")
        os.makedirs(self.folder, exist_ok=True)
        self.port = free_port()
        self.settings = {"COIN": "Bitcoin", "NET": "regtest", "DB_ENGINE": "leveldb", "DB_DIRECTORY": self.folder,
                         "DAEMON_URL": core_rpc, "SERVICES": f"tcp://127.0.0.1:{self.port}", "PEER_DISCOVERY": "off"}
        if os.getuid() == 0:
            self.settings["ALLOW_ROOT"] = "1"
        self.log_path = os.path.join(work, "electrumx.log")
        with open(self.log_path, "wb") as log_file:
            self.process = subprocess.Popen([ELECTRUMX], env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.folder, **self.settings},
                                            stdout=log_file, stderr=subprocess.STDOUT, cwd=self.folder)

    def log(self):
        with open(self.log_path, errors="replace") as file:
            return file.read()

    def wait_indexed(self, height, timeout=180):
        """Returns once ElectrumX answers with a tip at `height` or above (polled)."""
        deadline, last = time.monotonic() + timeout, "no answer yet"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"bench: ElectrumX exited ({self.process.returncode}):\n{self.log()[-3000:]}")
            try:
                client = ElectrumSocket(self.port, timeout=5)
                tip = client.call("blockchain.headers.subscribe")["height"]
                client.close()
                if tip >= height:
                    return
                last = f"indexed up to {tip}"
            except (OSError, ValueError, RuntimeError) as error:
                last = str(error)
            time.sleep(0.2)
        raise SystemExit(f"bench: ElectrumX did not index height {height} within {timeout} s ({last}):\n{self.log()[-3000:]}")

    def stock(self):
        """The limits ElectrumX logged at start (its defaults, since none is set)."""
        found = {}
        for line in self.log().splitlines():
            for name in self.STOCK_LINES:
                if f":{name} " in line:
                    found[name] = line.split(f":{name} ", 1)[1].strip()
        return found

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def electrum_ingest(folder, env, relay):
    """One `walletwatch ingest --json` through the relay: wall time, walletwatch's report, the relay's counts."""
    started = time.monotonic()
    wall, peak, out = walletwatch(folder, env, "ingest", "--json")
    counted = relay.window(started)
    report = json.loads(out)["sources"][0]
    assert report["ok"], report
    return {"s": wall, "peak_kib": peak, "new": report["new"], "changed": report["new"] + report["updated"] + report["dropped"],
            "requests": report.get("requests"), "round_trips": report.get("round_trips"), "relay": without_timeline(counted),
            "round_trip_sequence": [{"s": trip["last"] - trip["asked"], "methods": dict(trip["methods"])} for trip in counted["trips"]]}


def methods_text(methods):
    """`{"blockchain.scripthash.subscribe": 70, ...}` as "70 scripthash.subscribe, ..."."""
    return ", ".join(f"{count} {(method or '?').removeprefix('blockchain.')}" for method, count in methods.items())


def sequence(run):
    """A pass's round trips in order: what each asked and how long it took."""
    return "; ".join(f"{methods_text(trip['methods'])} {trip['s']:.2f}s" for trip in run["round_trip_sequence"])


def without_timeline(counted):
    return {key: value for key, value in counted.items() if key not in ("notifications", "trips")}


def bdk_electrum(url, relay):
    """BDK's full_scan then sync through the relay, in its own process (scripts/bench_bdk_electrum.py),
    the relay's counts read between the two."""
    # BDK checks that the server's chain starts at its network's genesis block: the regtest
    # chain needs a regtest wallet, so the same key goes to BDK as a tpub (same scripts).
    tpub = extended_key(ELECTRUM_ZPUB, "043587cf")
    started = time.monotonic()
    process = subprocess.Popen([PYTHON, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_bdk_electrum.py"), url,
                                f"wpkh({tpub}/0/*)", f"wpkh({tpub}/1/*)", "regtest", str(ELECTRUM_GAP), str(BDK_BATCH)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=work)
    line = process.stdout.readline()
    if not line:
        raise SystemExit(f"bench: bench_bdk_electrum.py failed ({process.wait()})")
    full_scan = json.loads(line)
    between = time.monotonic()
    process.stdin.write("\n")
    process.stdin.flush()
    sync = json.loads(process.stdout.readline())
    if process.wait() != 0:
        raise SystemExit(f"bench: bench_bdk_electrum.py failed ({process.returncode})")
    return {**full_scan, **sync, "full_scan": without_timeline(relay.window(started, between)),
            "sync": without_timeline(relay.window(between))}


def wait_for_log(path, predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = open(path, errors="replace").read() if os.path.exists(path) else ""
        if predicate(text):
            return text
        time.sleep(0.1)
    raise SystemExit(f"bench: {what} within {timeout} s; the daemon's log:\n{text[-3000:]}")


def push_latency(folder, env, base, electrumx, relay, database):
    """The daemon (`walletwatch run`, through the relay) on the synced database; mempool payments
    to the wallet's next unused receive addresses, one at a time, each timed from ElectrumX's
    notification to a subscriber of our own (beside walletwatch, directly on ElectrumX) and from
    the control API call, to the moment its row is in the database."""
    log_path = os.path.join(folder, "daemon.log")
    with open(log_path, "wb") as log_file:
        daemon = subprocess.Popen([f"{BIN}/walletwatch", "run"], env={**os.environ, **env}, cwd=folder,
                                  stdout=subprocess.DEVNULL, stderr=log_file)
    try:
        # Ingesting: its session is open and a pass ran on it; then quiet (one pass may follow another at start).
        wait_for_log(log_path, lambda text: "electrum session open" in text and "ingested" in text.split("electrum session open", 1)[1],
                     120, "the daemon did not open its electrum session and ingest")
        size = -1
        while size != os.path.getsize(log_path):
            size = os.path.getsize(log_path)
            time.sleep(2)
        reader = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
        runs = []
        for index in range(LATENCY_PAYMENTS):
            receive_index = ELECTRUM_RECEIVE + index
            address = json.loads(http("GET", f"{base}/control/esplora/hd/bench/address/receive/{receive_index}"))["address"]
            watched = scripthash(address)
            subscriber = ElectrumSocket(electrumx.port)
            assert subscriber.call("blockchain.scripthash.subscribe", [watched]) is None, f"{address} is already used"
            # Listening from now on, so that the notification is timed when it arrives.
            heard = {}
            listener = threading.Thread(target=lambda: heard.update(at=subscriber.notification(
                "blockchain.scripthash.subscribe", watched, timeout=60)))
            listener.start()
            # What a payment meets on an idle node: nothing sent to walletwatch for a while, so
            # no padding timer of ElectrumX is running for its session.
            time.sleep(1.5)
            called = time.monotonic()
            txid = json.loads(http("POST", f"{base}/control/chain/payments", {"address": address, "value": 100_000 + index}))["txid"]
            stored, deadline = None, time.monotonic() + 60
            while stored is None and time.monotonic() < deadline:
                if reader.execute("SELECT 1 FROM transactions WHERE txid = ?", (txid,)).fetchone():
                    stored = time.monotonic()
                else:
                    time.sleep(0.02)
            listener.join(timeout=60)
            notified = heard.get("at")
            subscriber.close()
            if stored is None or notified is None:
                raise SystemExit(f"bench: payment {index + 1} ({txid}) {'never stored' if stored is None else 'never notified'}; "
                                 f"the daemon's log:\n{open(log_path, errors='replace').read()[-3000:]}")
            counted = relay.window(called, stored)
            seen = [t for t, method, first in counted["notifications"] if method == "blockchain.scripthash.subscribe" and first == watched]
            after = [{"wrote": trip["asked"] - notified, "answered": trip["last"] - notified, "methods": dict(trip["methods"])}
                     for trip in counted["trips"]]
            runs.append({"receive_index": receive_index, "txid": txid, "call_to_notified_s": notified - called,
                         "notified_to_row_s": stored - notified, "call_to_row_s": stored - called,
                         "walletwatch_notified_to_row_s": stored - seen[0] if seen else None,
                         "requests": counted["requests"], "round_trips": counted["round_trips"], "methods": counted["methods"],
                         "round_trips_after_notification_s": after})
            log(f"electrum: payment {index + 1} of {LATENCY_PAYMENTS}: notified {notified - called:.2f} s after the call, "
                f"stored {stored - notified:.2f} s after the notification, {counted['round_trips']} round trips")
            time.sleep(1.0)
        reader.close()
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
    notified_to_row = [run["notified_to_row_s"] for run in runs]
    call_to_row = [run["call_to_row_s"] for run in runs]
    return {"payments": runs, "notified_to_row_median_s": median(notified_to_row), "notified_to_row_max_s": max(notified_to_row),
            "call_to_row_median_s": median(call_to_row), "call_to_row_max_s": max(call_to_row)}


def electrum():
    """An HD wallet with ELECTRUM_RECEIVE + ELECTRUM_CHANGE used addresses on a real regtest chain,
    indexed by ElectrumX: walletwatch's first sync and no-change pass against BDK's Electrum
    full_scan and sync, both through one counting relay; then the daemon's push latency."""
    used = ELECTRUM_RECEIVE + ELECTRUM_CHANGE
    log(f"electrum: a real chain with an HD wallet of {used} used addresses ({ELECTRUM_RECEIVE} receive, {ELECTRUM_CHANGE} change)")
    endpoints_file = os.path.join(work, "electrum-endpoints.json")
    sim, base = start_simulator("electrum", {
        # Deposits and spends take a block each, ending below the tip.
        "tip_height": used + 100, "bitcoin": {"network": "regtest"},
        "esplora": {"hd_wallets": [{"name": "bench", "xpub": electrum_vpub(), "network": "regtest", "receive": list(range(ELECTRUM_RECEIVE)),
                                    "change": list(range(ELECTRUM_CHANGE)), "seed": 84}]}},
        extra=["--electrum-tcp-port", "0", "--electrum-tls-port", "0", "--endpoints-file", endpoints_file], ready_file=endpoints_file)
    endpoints = json.load(open(endpoints_file))
    tip = json.loads(http("GET", f"{base}/control/chain"))["tip_height"]
    log(f"electrum: starting ElectrumX 2.0.0 (stock settings) on the simulator's Core face; waiting until it has indexed block {tip}")
    electrumx = ElectrumX(endpoints["core_rpc"])
    relay = None
    try:
        started = time.monotonic()
        electrumx.wait_indexed(tip)
        indexed_s = time.monotonic() - started
        relay = ElectrumRelay(electrumx.port)
        url = f"tcp://127.0.0.1:{relay.port}"
        sources = (f'[[sources]]\nname = "node"\nkind = "electrum"\nurl = "{url}"\nasset = "Electrum wallet"\nnetwork = "regtest"\n'
                   f'xpub = "{electrum_vpub()}"\ngap_limit = {ELECTRUM_GAP}\nchange_gap_limit = {ELECTRUM_GAP}\n')
        runs = 1 if QUICK else 3
        first, quiet = [], []
        for index in range(runs):
            log(f"electrum: walletwatch first sync and no-change pass, run {index + 1} of {runs}")
            folder = os.path.join(work, f"electrum{index}")
            env = write_config(folder, sources)
            first.append(electrum_ingest(folder, env, relay))
            quiet.append(electrum_ingest(folder, env, relay))
        asset = json.loads(walletwatch(folder, env, "asset", "show", "Electrum wallet", "--json")[2])
        transactions = len(json.loads(walletwatch(folder, env, "tx", "list", "--asset", "Electrum wallet", "--json")[2]))
        log(f"electrum: BDK full_scan (stop gap {ELECTRUM_GAP}, batches of {BDK_BATCH}) and sync through the same relay")
        bdk = bdk_electrum(url, relay)
        log(f"electrum: the daemon's latency, {LATENCY_PAYMENTS} mempool payments")
        latency = push_latency(folder, env, base, electrumx, relay, os.path.join(folder, "walletwatch.sqlite"))
        stock = electrumx.stock()
    finally:
        if relay is not None:
            relay.stop()
        electrumx.stop()
        stop_simulator(sim)
    pick = lambda runs, key: median([run[key] for run in runs])
    return {
        "receive_used": ELECTRUM_RECEIVE, "change_used": ELECTRUM_CHANGE, "gap_limit": ELECTRUM_GAP, "bdk_batch_size": BDK_BATCH,
        "bdkpython": bdk["bdkpython"], "electrumx": "2.0.0", "electrumx_settings": electrumx.settings, "electrumx_stock": stock,
        "electrumx_indexed_s": indexed_s, "tip_height": tip,
        "walletwatch": {"first_s": pick(first, "s"), "first_runs": first, "quiet_s": pick(quiet, "s"), "quiet_runs": quiet,
                        "confirmed": asset["balance"], "pending": asset["pending"], "transactions": transactions},
        "bdk": bdk, "latency": latency,
    }


def electrum_table(result):
    ww, bdk, latency = result["walletwatch"], result["bdk"], result["latency"]
    first, quiet = ww["first_runs"][0], ww["quiet_runs"][0]
    stock = result["electrumx_stock"]
    row = lambda label, ours, theirs, target="": f"{label:<44}{ours:>16}{theirs:>20}{target:>14}"
    seconds = lambda value: f"{value:.2f}s"
    trips = lambda counted: f"{counted['round_trip_wait_median_s']:.2f}s / {counted['round_trip_wait_max_s']:.2f}s"
    kinds = lambda counted: "; ".join(f"{count} x [{kind}]" for kind, count in counted["round_trip_kinds"].items())
    def agree(run):
        ours, relay = (run["requests"], run["round_trips"]), (run["relay"]["requests"], run["relay"]["round_trips"])
        if ours == relay:
            return "agree"
        # walletwatch counts writes; the relay counts a write sent while an earlier one still
        # waited for its answer (a long batch goes out in chunks, several in flight) as part of
        # that round trip.
        if ours[0] == relay[0] and ours[1] > relay[1]:
            return f"the same requests; {ours[1]} writes, {relay[1]} round trips to the relay, which counts batches in flight together as one"
        return f"DIFFER from the relay's {relay[0]} requests, {relay[1]} round trips"
    lines = [
        "", f"Electrum: an HD wallet with {result['receive_used'] + result['change_used']} used addresses ({result['receive_used']} receive, "
        f"{result['change_used']} change; wpkh, BIP84's test key), gap limit {result['gap_limit']}, BDK {result['bdkpython']} "
        f"(batches of {result['bdk_batch_size']}),",
        f"on ElectrumX {result['electrumx']} with its stock settings (cost soft/hard limit {stock.get('session cost soft limit', '?')}/"
        f"{stock.get('session cost hard limit', '?')}, request sleep {stock.get('request sleep', '?')}, initial concurrency "
        f"{stock.get('initial concurrent', '?')}; DAEMON_POLL_INTERVAL_* unset: block and mempool polls every 5 s)",
        row("", "walletwatch", "BDK (bdkpython)", "target"),
        row("first sync: round trips (relay)", first["relay"]["round_trips"], bdk["full_scan"]["round_trips"], "<= BDK"),
        row("first sync: requests (relay)", first["relay"]["requests"], bdk["full_scan"]["requests"]),
        row("first sync: wall time", seconds(ww["first_s"]), seconds(bdk["connect_s"] + bdk["full_scan_s"]), "<= BDK"),
        row("first sync: round trip, median/max", trips(first["relay"]), trips(bdk["full_scan"])),
        row("no-change pass: round trips (relay)", quiet["relay"]["round_trips"], bdk["sync"]["round_trips"]),
        row("no-change pass: requests (relay)", quiet["relay"]["requests"], bdk["sync"]["requests"]),
        row("no-change pass: history+tx+header requests", quiet["relay"]["history_requests"], bdk["sync"]["history_requests"], "0"),
        row("no-change pass: wall time", seconds(ww["quiet_s"]), seconds(bdk["sync_s"]), "<= BDK"),
        row("no-change pass: round trip, median/max", trips(quiet["relay"]), trips(bdk["sync"])),
        row("balance: confirmed sats", ww["confirmed"], bdk["confirmed"], "equal"),
        row("balance: pending sats", ww["pending"], bdk["pending"], "equal"),
        row("transactions", ww["transactions"], bdk["transactions"]),
        f"walletwatch: whole processes (start, config, database, connection, write), the median of {len(ww['first_runs'])}; BDK: the "
        f"calls alone (connect {bdk['connect_s']:.2f}s + full_scan; sync of the {bdk['revealed'][0] + 1} + {bdk['revealed'][1] + 1} "
        f"revealed scripts), one run. Round trips and requests are counted by the relay both talk to ElectrumX through; a round "
        f"trip is a client write the server then answered, and lasts until the last answer before the next write.",
        f"walletwatch's own counts (ingest --json): first sync {first['requests']} requests, {first['round_trips']} round trips "
        f"({agree(first)} with the relay); no-change pass {quiet['requests']} requests, {quiet['round_trips']} round trips ({agree(quiet)}).",
        f"walletwatch's first sync, round trip by round trip: {sequence(first)}",
        f"its no-change pass: {sequence(quiet)}",
        f"BDK's full_scan asked: {methods_text(bdk['full_scan']['methods'])}",
        f"  in round trips of: {kinds(bdk['full_scan'])}",
        f"BDK's sync asked: {methods_text(bdk['sync']['methods'])}",
        f"  in round trips of: {kinds(bdk['sync'])}",
        "",
        f"push latency: `walletwatch run` on that database, {len(latency['payments'])} mempool payments to the next unused receive addresses",
        row("", "median", "max", "target"),
        row("ElectrumX notifies a subscriber -> row stored", seconds(latency["notified_to_row_median_s"]),
            seconds(latency["notified_to_row_max_s"]), "< 2s"),
        row("control API call -> row stored", seconds(latency["call_to_row_median_s"]), seconds(latency["call_to_row_max_s"])),
        "(the second includes ElectrumX's mempool poll, every 5 s by default; each round trip below: when walletwatch wrote -> "
        "when its last answer came, in seconds after the subscriber's notification, and what it asked)",
    ]
    for number, run in enumerate(latency["payments"], 1):
        lines.append(f"  payment {number}: {run['notified_to_row_s']:.2f}s, {run['round_trips']} round trips: " + "; ".join(
            f"+{trip['wrote']:.2f}->+{trip['answered']:.2f} {methods_text(trip['methods'])}" for trip in run["round_trips_after_notification_s"]))
    return "\n".join(lines)


# --- The evm part: walletwatch's evm source beside web3.py, on the simulator's generated chain ------

EVM_TRANSACTIONS = 200 if QUICK else 2000
EVM_PER_BLOCK = 20
EVM_WATCHED = ("bench-alice", "bench-bob")
EVM_TOKENS = ("USDC", "USDT", "DAI")
EVM_HISTORIES = ("etherscan", "otterscan", "none")
# web3.py (and the oracle the tests use) live in the build folder's .build/python-evm, which
# scripts/setup makes for the EVM tests; scripts/bench passes its python.
EVM_PYTHON = os.environ.get("WALLETWATCH_BENCH_EVM_PYTHON", ".build/python-evm/bin/python")
EVM_PYTHON = os.path.abspath(EVM_PYTHON) if os.sep in EVM_PYTHON else EVM_PYTHON


def process_cpu(process):
    """The CPU seconds (user + system) a running child has used so far, from /proc."""
    fields = open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def evm_served(base):
    """What the simulator's EVM face answered since the last reset: HTTP requests (a JSON-RPC batch
    is one), calls (each element of a batch, each explorer request) and calls by face and method."""
    records = json.loads(http("GET", f"{base}/control/evm/requests"))
    methods = collections.Counter(f"{r['face']} {r['method']}" for r in records)
    return {"http_requests": len({r["request"] for r in records}), "calls": len(records),
            "largest_batch": max((r.get("batch") or 1 for r in records), default=0), "methods": dict(sorted(methods.items()))}


def evm_measured(sim, base, argv, env=None, cwd=None):
    """One process against the simulator: its wall and CPU time, peak memory, the simulator's CPU
    time meanwhile and what the EVM face answered it; and its stdout."""
    http("DELETE", f"{base}/control/evm/requests")
    sim_before = process_cpu(sim)
    wall, cpu, peak, out = measured_cpu(argv, env=env, cwd=cwd)
    return {"s": wall, "cpu_s": cpu, "peak_kib": peak, "sim_cpu_s": process_cpu(sim) - sim_before, **evm_served(base)}, out


def evm():
    """2 watched addresses and 3 tokens over the simulator's generated chain: walletwatch's first
    ingest and a no-change pass with each kind of history, beside web3.py (the tests' oracle)
    reading the same balances and Transfer logs from the same simulator. Refuses to report
    figures when walletwatch's stored balances are not what web3.py read."""
    log(f"evm: a chain of {EVM_TRANSACTIONS:,} transactions, {EVM_PER_BLOCK} a block (generated by the simulator)")
    sim, base = start_simulator("evm", {"evm": {"chain_id": 1, "generated": {"transactions": EVM_TRANSACTIONS, "per_block": EVM_PER_BLOCK}}})
    try:
        chain = json.loads(http("GET", f"{base}/control/evm"))
        addresses = [next(a["address"] for a in chain["accounts"] if a["name"] == name) for name in EVM_WATCHED]
        contracts = {t["symbol"]: t["address"] for t in chain["tokens"] if t["symbol"] in EVM_TOKENS}
        runs = 1 if QUICK else 3

        peer = []
        for index in range(runs):
            log(f"evm: web3.py reading the balances and Transfer logs, run {index + 1} of {runs}")
            argv = [EVM_PYTHON, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_web3.py"), f"{base}/evm"]
            argv += [part for address in addresses for part in ("--address", address)]
            argv += [part for symbol in EVM_TOKENS for part in ("--token", contracts[symbol])]
            figures, out = evm_measured(sim, base, argv)
            reply = json.loads(out)
            peer.append({**figures, "import_s": reply["import_s"], "read_s": reply["read_s"], "web3": reply["web3"]})
        read = reply["read"]
        by_symbol = {token["symbol"]: token for token in read["tokens"].values()}
        # What each asset must hold: the sum over the watched addresses, final and at the tip.
        expected = {"ETH": (sum(v["finalized"] for v in read["native"].values()), sum(v["latest"] for v in read["native"].values()))}
        for symbol in EVM_TOKENS:
            balances = by_symbol[symbol]["balances"].values()
            expected[symbol] = (sum(v["finalized"] for v in balances), sum(v["latest"] for v in balances))
        watched = {address.lower() for address in addresses}
        # A token row is a transaction that moves the token in or out of the wallet: a transfer
        # between two watched addresses makes none.
        expected_token_rows = {symbol: len({t["transactionHash"] for t in by_symbol[symbol]["transfers"]
                                            if (t["from"].lower() in watched) != (t["to"].lower() in watched)})
                               for symbol in EVM_TOKENS}

        results = {}
        mismatches = []
        for history in EVM_HISTORIES:
            sources = (f'[[sources]]\nname = "eth"\nkind = "evm"\nchain = "ethereum"\nurl = "{base}/evm"\n'
                       f'addresses = [{", ".join(json.dumps(a) for a in addresses)}]\n'
                       f'tokens = [{", ".join(f"{{ contract = {json.dumps(contracts[s])}, currency = {json.dumps(s)} }}" for s in EVM_TOKENS)}]\n'
                       f'history = "{history}"\n' + (f'history_url = "{base}/etherscan/v2/api"\n' if history == "etherscan" else ""))
            first, quiet = [], []
            for index in range(runs):
                log(f"evm: walletwatch first ingest and no-change pass, history = {history}, run {index + 1} of {runs}")
                folder = os.path.join(work, f"evm-{history}-{index}")
                env = write_config(folder, sources)
                figures, out = evm_measured(sim, base, [f"{BIN}/walletwatch", "ingest", "--json"], env=env, cwd=folder)
                report = json.loads(out)["sources"][0]
                assert report["ok"], report
                first.append({**figures, "reported_requests": report["requests"], "history_requests": report["history_requests"],
                              "new": report["new"], "warning": report.get("warning")})
                figures, out = evm_measured(sim, base, [f"{BIN}/walletwatch", "ingest", "--json"],
                                            env={**env, "WALLETWATCH_NOW": "2026-11-21T12:05:00Z"}, cwd=folder)
                report = json.loads(out)["sources"][0]
                assert report["ok"], report
                quiet.append({**figures, "reported_requests": report["requests"], "history_requests": report["history_requests"],
                              "changed": report["new"] + report["updated"] + report["dropped"]})
            stored, rows = {}, {}
            for currency in ("ETH",) + EVM_TOKENS:
                asset = json.loads(walletwatch(folder, env, "asset", "show", f"eth {currency}", "--json")[2])
                stored[currency] = (asset["balance"], asset["balance"] + asset["pending"])
                rows[currency] = len(json.loads(walletwatch(folder, env, "tx", "list", "--asset", f"eth {currency}", "--json")[2]))
                if stored[currency] != expected[currency]:
                    mismatches.append(f"history = {history}: eth {currency} stored final {stored[currency][0]}, with pending "
                                      f"{stored[currency][1]}; web3.py read final {expected[currency][0]}, latest {expected[currency][1]}")
            pick = lambda runs, key: median([run[key] for run in runs])
            results[history] = {
                "first_s": pick(first, "s"), "first_cpu_s": pick(first, "cpu_s"), "first_peak_kib": max(r["peak_kib"] for r in first),
                "quiet_s": pick(quiet, "s"), "quiet_cpu_s": pick(quiet, "cpu_s"), "quiet_peak_kib": max(r["peak_kib"] for r in quiet),
                "first_runs": first, "quiet_runs": quiet, "stored": {c: list(v) for c, v in stored.items()}, "rows": rows}
        if mismatches:
            raise SystemExit("bench: evm: walletwatch's stored balances are not what web3.py read; no figures:\n  " + "\n  ".join(mismatches))
    finally:
        stop_simulator(sim)
    pick = lambda runs, key: median([run[key] for run in runs])
    return {
        "transactions": EVM_TRANSACTIONS, "per_block": EVM_PER_BLOCK, "tip_height": chain["tip_height"], "finalized": chain["finalized"],
        "addresses": addresses, "tokens": contracts, "web3": peer[0]["web3"],
        "expected": {c: list(v) for c, v in expected.items()}, "expected_token_rows": expected_token_rows,
        "token_transfers": {s: len(by_symbol[s]["transfers"]) for s in EVM_TOKENS},
        "walletwatch": results,
        "peer": {"s": pick(peer, "s"), "cpu_s": pick(peer, "cpu_s"), "peak_kib": max(r["peak_kib"] for r in peer),
                 "import_s": pick(peer, "import_s"), "read_s": pick(peer, "read_s"), "runs": peer},
    }


def evm_table(result):
    peer, ww = result["peer"], result["walletwatch"]
    mib = lambda kib: f"{kib / 1024:.0f} MiB"
    row = lambda label, run, s, cpu, peak, ratio: (f"{label:<40}{s:>7.2f}s{cpu:>7.2f}s{mib(peak):>9}{run['http_requests']:>9}"
                                                   f"{run['calls']:>7}{run['sim_cpu_s']:>8.2f}s{ratio:>9}")
    lines = ["", f"EVM: {len(result['addresses'])} addresses, {len(result['tokens'])} tokens ({', '.join(result['tokens'])}), "
             f"{result['transactions']:,} transactions, {result['per_block']} a block (tip {result['tip_height']}, finalized "
             f"{result['finalized']}) on the simulator's EVM face; web3.py {result['web3']}",
             f"{'':<40}{'wall':>8}{'CPU':>8}{'peak RSS':>9}{'HTTP req':>9}{'calls':>7}{'sim CPU':>9}{'/web3.py':>9}"]
    peer_run = peer["runs"][0]
    lines.append(row("web3.py: balances + Transfer logs", peer_run, peer["s"], peer["cpu_s"], peer["peak_kib"], "1.00x"))
    for history, figures in ww.items():
        first, quiet = figures["first_runs"][0], figures["quiet_runs"][0]
        lines.append(row(f"walletwatch first ingest, {history}", first, figures["first_s"], figures["first_cpu_s"],
                         figures["first_peak_kib"], f"{figures['first_s'] / peer['s']:.2f}x"))
        lines.append(row(f"walletwatch no-change pass, {history}", quiet, figures["quiet_s"], figures["quiet_cpu_s"],
                         figures["quiet_peak_kib"], f"{figures['quiet_s'] / peer['s']:.2f}x"))
    runs = len(peer["runs"])
    lines.append(f"Times are whole processes, the median of {runs}; requests, calls (a batch's elements, each explorer request) "
                 f"and the simulator's CPU time are the first run's. web3.py's process: import {peer['import_s']:.2f}s, the "
                 f"reading alone {peer['read_s']:.2f}s.")
    stored = ww[next(iter(ww))]["stored"]
    lines.append("balances (final / at the tip, summed over the addresses): equal to web3.py's with every history: " +
                 "; ".join(f"{c} {v[0]} / {v[1]}" for c, v in stored.items()))
    lines.append("rows: " + "; ".join(f"{h}: " + ", ".join(f"{c} {n}" for c, n in f["rows"].items()) for h, f in ww.items()) +
                 "; token transfers moving into or out of the wallet (web3.py's logs): " +
                 ", ".join(f"{s} {n}" for s, n in result["expected_token_rows"].items()))
    for history, figures in ww.items():
        first, quiet = figures["first_runs"][0], figures["quiet_runs"][0]
        lines.append(f"{history}: first ingest reported {first['reported_requests']} requests ({first['history_requests']} history), "
                     f"largest batch {first['largest_batch']}: " + ", ".join(f"{n} x {m}" for m, n in first["methods"].items()))
        lines.append(f"  no-change pass reported {quiet['reported_requests']} requests ({quiet['history_requests']} history), "
                     f"{quiet['changed']} rows changed: " + ", ".join(f"{n} x {m}" for m, n in quiet["methods"].items()))
    lines.append("web3.py: " + ", ".join(f"{n} x {m}" for m, n in peer_run["methods"].items()))
    return "\n".join(lines)


def month_status():
    """(f): month status with 1,000,000 transactions and 10,000 history rows against 1,000."""
    results = {}
    for count in MONTH_SIZES:
        log(f"month status: seeding {count:,} transactions and {HISTORY_ROWS:,} allocation-history rows")
        folder = os.path.join(work, f"month{count}")
        env = write_config(folder, "")
        measured([f"{BIN}/walletwatch-bench", "seed-month", os.path.join(folder, "walletwatch.sqlite"), str(count), str(HISTORY_ROWS)])
        walletwatch(folder, {**env, "WALLETWATCH_NOW": "2026-11-02T00:00:00Z"}, "month", "start")
        walls, peaks = [], []
        for _ in range(7):
            wall, peak, out = walletwatch(folder, env, "month", "status", "--json")
            walls.append(wall)
            peaks.append(peak)
        results[count] = {"s": median(walls), "runs_s": walls, "peak_kib": max(peaks), "goals": len(json.loads(out)["goals"])}
    small, large = MONTH_SIZES
    return {"small_transactions": small, "large_transactions": large, "history_rows": HISTORY_ROWS,
            "small_s": results[small]["s"], "large_s": results[large]["s"], "ratio": results[large]["s"] / results[small]["s"],
            "small_peak_kib": results[small]["peak_kib"], "large_peak_kib": results[large]["peak_kib"],
            "small_runs_s": results[small]["runs_s"], "large_runs_s": results[large]["runs_s"]}


def table(results):
    mib = lambda kib: f"{kib / 1024:.0f} MiB"
    lines = ["", "walletwatch benchmarks" + (" (quick)" if QUICK else ""),
             f"machine: {os.cpu_count()} cores, {results['machine']['load_before']} load average before the run", ""]
    lines.append(f"{'first ingest':<34}{'walletwatch':>12}{'curl':>8}{'sqlite3':>9}{'floor':>8}{'ratio':>7}{'target':>8}{'peak RSS':>10}")
    for ark in results["ark"]:
        lines.append(f"{ark['movements']:>9,} movements ({ark['body_bytes'] / 1e6:>5.0f} MB)  {ark['ingest_s']:>10.2f}s"
                     f"{ark['floor_curl_s']:>7.2f}s{ark['floor_sqlite_import_s']:>8.2f}s{ark['floor_s']:>7.2f}s"
                     f"{ark['ratio_to_floor']:>6.2f}x{'<=1.6x':>8}{mib(ark['ingest_peak_kib']):>10}")
    lines.append("  (floor: curl fetching the body + the sqlite3 CLI importing the same rows into a plain table keyed by txid)")
    lines.append("")
    lines.append(f"{'no-change re-ingest':<34}{'walletwatch':>12}{'curl':>8}{'ratio':>7}{'target':>8}{'rows written':>14}{'peak RSS':>10}")
    for ark in results["ark"]:
        lines.append(f"{ark['movements']:>9,} movements{'':<17}{ark['reingest_s']:>10.2f}s{ark['floor_curl_s']:>7.2f}s"
                     f"{ark['reingest_ratio_to_curl']:>6.2f}x{'<=1.3x':>8}{ark['reingest_rows_changed']:>14}{mib(ark['reingest_peak_kib']):>10}")
    lines.append("  (walletwatch: the `ingest` command, a whole process; curl: a whole process too)")
    start = results["process_start"]
    lines.append(f"{'process start (--version)':<34}{start['walletwatch_s'] * 1000:>10.1f}ms{start['curl_s'] * 1000:>6.1f}ms"
                 f"{start['walletwatch_s'] / start['curl_s']:>6.2f}x")
    lines.append(f"  (the median of {start['runs']} alternated runs of each: what every command pays before its work begins)")
    lines.append("")
    lines.append(f"{'no-change pass of the daemon':<34}{'walletwatch':>12}{'curl':>8}{'ratio':>7}{'curl -w':>9}{'ratio':>7}{'target':>8}")
    for ark in results["ark"]:
        lines.append(f"{ark['movements']:>9,} movements{'':<17}{ark['daemon_pass_s']:>10.3f}s{ark['floor_curl_s']:>7.3f}s"
                     f"{ark['daemon_pass_ratio_to_curl']:>6.2f}x{ark['floor_curl_transfer_s']:>8.3f}s"
                     f"{ark['daemon_pass_ratio_to_curl_transfer']:>6.2f}x{'<=1.3x':>8}")
    lines.append("  (walletwatch: the median of 9 passes of `run` as it logs them, a pass a second; curl: its process,")
    lines.append("   then its own time_total, which leaves out its start; both back to back, as for the re-ingest)")
    lines.append(f"{'the same beside libcurl at its pace':<34}{'walletwatch':>12}{'libcurl':>9}{'ratio':>7}{'target':>8}")
    for ark in results["ark"]:
        lines.append(f"{ark['movements']:>9,} movements{'':<17}{ark['daemon_pass_s']:>10.3f}s{ark['paced_libcurl_s']:>8.3f}s"
                     f"{ark['daemon_pass_ratio_to_paced_libcurl']:>6.2f}x{'<=1.3x':>8}")
    lines.append("  (libcurl: scripts/curl-paced.c, one process fetching the body a second apart over one connection,")
    lines.append("   the median of 9 after the first: a transfer that starts from idle is slower on this machine)")
    lines.append("")
    lines.append(f"{'beside the ingest':<34}{'longest lock wait':>18}{'tag create max':>16}{'runs':>6}{'target':>8}"
                 f"{'SQLite timeout':>16}")
    for ark in results["ark"]:
        for label, key in (("first ingest", "first_ingest_probes"), ("no-change re-ingest", "reingest_probes")):
            probe = ark[key]
            lines.append(f"{ark['movements']:>9,} movements, {label:<21}{probe['longest_lock_wait_s']:>17.3f}s{probe['tag_create_max_s']:>15.3f}s"
                         f"{len(probe['tag_create_s']):>6}{'<1s':>8}{probe['longest_lock_wait_sqlite_timeout_s']:>15.3f}s"
                         + (f"  ({probe['tag_create_failures']} failed)" if probe['tag_create_failures'] else ""))
    lines.append("  (lock wait: a writer trying every millisecond, as walletwatch's connections do; SQLite timeout: one")
    lines.append("   waiting as SQLite's own busy timeout does, tries ever further apart, as a third-party tool would)")
    lines.append("")
    lines.append(f"{'ingest steps alone':<34}{'decode':>14}{'write':>16}")
    for ark in results["ark"]:
        lines.append(f"{ark['movements']:>9,} movements{'':<17}{ark['step_decode_s']:>6.2f}s {ark['step_decode_mb_per_s']:>4.0f} MB/s"
                     f"{ark['step_write_s']:>7.2f}s {ark['step_write_us_per_row']:>4.1f} us/row")
    if not all(part in results for part in ("esplora", "month", "backfill")):
        lines.append("")
        return "\n".join(lines)
    esplora = results["esplora"]
    lines.append("")
    lines.append(f"Esplora, 1 address with {esplora['transactions']:,} transactions: first sync {esplora['first_sync_s']:.2f}s, "
                 f"{esplora['first_sync_requests']} requests, peak {mib(esplora['first_sync_peak_kib'])}")
    lines.append(f"  after 1 new transaction: {esplora['incremental_s']:.2f}s, {esplora['incremental_new']} new, "
                 f"{esplora['incremental_requests']} requests for 1 address (target <= 2), peak {mib(esplora['incremental_peak_kib'])}")
    month = results["month"]
    lines.append("")
    lines.append(f"month status ({month['history_rows']:,} allocation-history rows): {month['large_transactions']:,} transactions "
                 f"{month['large_s'] * 1000:.0f} ms, {month['small_transactions']:,} transactions {month['small_s'] * 1000:.0f} ms, "
                 f"ratio {month['ratio']:.2f}x (target <= 2x); peak {mib(month['large_peak_kib'])} / {mib(month['small_peak_kib'])}")
    prices = results["backfill"]
    lines.append("")
    lines.append(f"rates backfill, {prices['since']} through {prices['until']}, USD and EUR:")
    lines.append(f"{'':<12}{'run':>8}{'requests':>10}{'time':>9}{'rows written':>14}{'days not available':>20}{'peak RSS':>10}")
    for provider in ("mempool", "coingecko"):
        for label in ("first", "second"):
            run = prices[provider][label]
            lines.append(f"{provider:<12}{label:>8}{run['requests']:>10}{run['s']:>8.2f}s{run['rows_written']:>14}{run['days_unavailable']:>20}{mib(run['peak_kib']):>10}")
    lines.append("")
    return "\n".join(lines)


def main():
    try:
        load = open("/proc/loadavg").read().split()[0]
        results = {"machine": {"cores": os.cpu_count(), "load_before": load, "quick": QUICK}}
        if "ark" in ONLY:
            results["ark"] = [ark_ingest(count) for count in SIZES]
            results["process_start"] = process_start()
        if "esplora" in ONLY:
            results["esplora"] = esplora_incremental()
        if "month" in ONLY:
            results["month"] = month_status()
        if "backfill" in ONLY:
            results["backfill"] = backfill()
        if "hd" in ONLY:
            results["hd"] = hd_wallets()
        if "electrum" in ONLY:
            results["electrum"] = electrum()
        if "evm" in ONLY:
            results["evm"] = evm()
        with open(OUT, "w") as file:
            json.dump(results, file, indent=2)
        if "ark" in results:
            print(table(results))
        if "hd" in results:
            print(hd_table(results["hd"]))
        if "electrum" in results:
            print(electrum_table(results["electrum"]))
        if "evm" in results:
            print(evm_table(results["evm"]))
        print(json.dumps(results, indent=2))
        log(f"results also written to {OUT}")
    finally:
        for process in list(simulators):
            process.kill()
        shutil.rmtree(work, ignore_errors=True)


main()
