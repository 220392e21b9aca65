#!/usr/bin/env python3
"""The workers row of scripts/bench: what rendering in worker processes and
the access log cost `mihiraki serve`, side by side in one run.

  server_workers.py MIHIRAKI WORKDIR RUNS [EARLIER_MIHIRAKI]

Alternating RUNS rounds, each a fresh server on the corpus:
- a cached x300 WebP spread under 64 connections for 5 s: with the access
  log (default, written to a file) and with --quiet, and, given EARLIER_MIHIRAKI (another
  build, such as the release before this one), that build with --quiet;
- new x300 PNG renders (every request a new render) under 4 connections
  for 8 s: with rendering workers (the default) and with --workers 0, the
  spreads drawn in the server's own process.
Prints the medians and their ratios.
"""
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import CACHED, CORPUS, cpu_seconds, script  # noqa: E402  (the server row's corpus, wrk script, CPU clock)

MIHIRAKI, WORK, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3])
EARLIER = sys.argv[4] if len(sys.argv) > 4 else None


def rate(binary, flags, mode, connections, seconds):
    """Requests per second of one fresh server under wrk, the server's CPU
    microseconds per request, and the non-200 answers."""
    # The log goes to a file, as under systemd or a container runtime it goes to a pipe or a file.
    log = open(os.path.join(WORK, "serve-stderr.log"), "w")
    server = subprocess.Popen([binary, "serve", CORPUS, "--port", "0", "--refresh", "3600"] + flags,
                              stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        subprocess.run(["curl", "-sf", "-o", "/dev/null", f"http://127.0.0.1:{port}{CACHED}"], check=True)
        before = cpu_seconds(server.pid)
        out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", script(mode),
                              f"http://127.0.0.1:{port}/"], capture_output=True, text=True, check=True).stdout
        used = cpu_seconds(server.pid) - before
    finally:
        server.terminate()
        server.wait()
        log.close()
    statuses = dict((k, int(v)) for k, v in re.findall(r"status (\S+) (\d+)", out))
    others = {k: v for k, v in statuses.items() if k != "200"}
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), used / max(sum(statuses.values()), 1) * 1e6, others


def main():
    cases = [("cached, access log", MIHIRAKI, [], "cached", 64, 5),
             ("cached, --quiet", MIHIRAKI, ["--quiet"], "cached", 64, 5),
             ("new renders, workers", MIHIRAKI, ["--quiet"], "new", 4, 8),
             ("new renders, --workers 0", MIHIRAKI, ["--quiet", "--workers", "0"], "new", 4, 8)]
    if EARLIER:
        # A build from before the access log has no --quiet: it is quiet already.
        help_text = subprocess.run([EARLIER, "serve", "--help"], capture_output=True, text=True).stdout
        quiet = ["--quiet"] if "--quiet" in help_text else []
        cases.insert(2, ("cached, --quiet, earlier build", EARLIER, quiet, "cached", 64, 5))
    results = {label: [] for label, *_ in cases}
    cpu = {label: [] for label, *_ in cases}
    errors = {}
    for _ in range(RUNS):
        for label, binary, flags, mode, connections, seconds in cases:
            value, micros, others = rate(binary, flags, mode, connections, seconds)
            results[label].append(value)
            cpu[label].append(micros)
            if others:
                errors[label] = others
    median = {label: statistics.median(values) for label, values in results.items()}
    print(f"\nmihiraki serve: workers and the access log ({RUNS} alternating rounds, wrk -t2 on loopback, medians)")
    print("| load | requests/s | rounds | server CPU per request (the server's own threads; workers apart) |")
    print("|---|---|---|---|")
    for label, values in results.items():
        print(f"| {label} | {median[label]:,.0f} | {', '.join(f'{v:,.0f}' for v in values)} | "
              f"{statistics.median(cpu[label]):,.0f} us |")
    log_cpu = statistics.median(cpu["cached, access log"]) / statistics.median(cpu["cached, --quiet"])
    print(f"access log on: {median['cached, access log'] / median['cached, --quiet']:.2f}x --quiet "
          f"(CPU per request {log_cpu:.2f}x); "
          f"new renders with workers: {median['new renders, workers'] / median['new renders, --workers 0']:.2f}x in-process"
          + (f"; --quiet against the earlier build: {median['cached, --quiet'] / median['cached, --quiet, earlier build']:.2f}x"
             if EARLIER else ""))
    if errors:
        print(f"answers other than 200: {errors}")


if __name__ == "__main__":
    main()
