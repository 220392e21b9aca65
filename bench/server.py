#!/usr/bin/env python3
"""The server row of scripts/bench: `mihiraki serve` under wrk on loopback.

  server.py MIHIRAKI WORKDIR RUNS

Serves the corpus folder (the 40-page manga book among others) with the
default options (`--jobs` = all cores, 256 MiB cache) and measures:
- a cached x300 WebP spread, 64 connections, 10 s;
- uncached x300 PNG spreads, 4 connections: every request a new render (the
  background colour changes each time, which changes no geometry), against
  the CLI's spreads per second on the same book and size;
- overload: 64 connections of new renders, counting 200s, 503s (with and
  without Retry-After) and socket errors;
and the server's peak RSS (VmHWM) over the whole run.
"""
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time

MIHIRAKI, WORK, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3])
CORPUS = os.path.join(WORK, "corpus")
BOOK = "manga"



CACHED = "/api/books/manga/spreads/3.webp?size=x300"
KEY, SALT = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"


def script(mode, cached=CACHED):
    """bench/wrk-count.lua with this run's settings in front."""
    path = os.path.join(WORK, f"wrk-{mode}.lua")
    settings = (f'mode = "{mode}"\ncached = "{cached}"\n'
                f'book = "manga"\nspreads = 22\nsize = "x300"\n')
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "wrk-count.lua")) as f:
        counting = f.read()
    with open(path, "w") as f:
        f.write(settings + counting)
    return path


def wrk(port, mode, connections, seconds, cached=CACHED):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
                          "-s", script(mode, cached), f"http://127.0.0.1:{port}/"], capture_output=True, text=True,
                         check=True)
    text = out.stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    latency = {p: re.search(rf"\s{p}%\s+([\d.]+\w+)", text).group(1) for p in ("50", "90", "99")}
    statuses = dict((k, int(v)) for k, v in re.findall(r"status (\S+) (\d+)", text))
    errors = re.search(r"Socket errors: (.*)", text)
    return rate, latency, statuses, errors.group(1) if errors else "none"


def cli_rate():
    out = os.path.join(WORK, "out", "server-cli")
    times = []
    for _ in range(RUNS):
        subprocess.run(["rm", "-rf", out])
        start = time.perf_counter()
        subprocess.run([MIHIRAKI, "render", os.path.join(CORPUS, BOOK), "-o", out, "--size", "x300", "--quiet"],
                       check=True)
        times.append(time.perf_counter() - start)
    spreads = len([f for f in os.listdir(os.path.join(out, BOOK)) if f.endswith(".png")])
    return spreads / statistics.median(times)


class Scraper:
    """Asks for /metrics ten times a second on one kept-alive connection, in a thread."""

    def __init__(self, port):
        self.port, self.stop, self.count = port, threading.Event(), 0

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        while not self.stop.wait(0.1):
            connection.request("GET", "/metrics")
            answer = connection.getresponse()
            if answer.status != 200 or b"mihiraki_requests_total" not in answer.read():
                raise RuntimeError("/metrics did not answer")
            self.count += 1
        connection.close()

    def __enter__(self):
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def cpu_seconds(pid):
    """The process's user + system CPU time so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_per_request(pid, port, cached):
    """Server CPU microseconds per cached request under 64 connections: a
    measure of cost that the machine's other load changes far less than
    it changes requests per second."""
    before = cpu_seconds(pid)
    rate, _, statuses, _ = wrk(port, "cached", 64, 10, cached=cached)
    return (cpu_seconds(pid) - before) / sum(statuses.values()) * 1e6


def cpu_per_scrape(pid, port, scrapes=2000):
    """Server CPU microseconds per /metrics answer, on one kept-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    before = cpu_seconds(pid)
    for _ in range(scrapes):
        connection.request("GET", "/metrics")
        connection.getresponse().read()
    used = cpu_seconds(pid) - before
    connection.close()
    return used / scrapes * 1e6


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1)) / 1024


def main():
    cli = cli_rate()
    server = subprocess.Popen([MIHIRAKI, "serve", CORPUS, "--port", "0", "--refresh", "3600", "--quiet"], stdout=subprocess.PIPE,
                              text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/api/books/manga/spreads/3.webp?size=x300"],
                       check=True)
        rows = [("cached x300 WebP spread", 64, wrk(port, "cached", 64, 10)),
                ("new x300 PNG renders", 4, wrk(port, "new", 4, 10)),
                ("overload: new renders", 64, wrk(port, "new", 64, 10))]
        rss = peak_rss(server.pid)
        # /metrics scraped ten times a second (Prometheus scrapes every 15 s or so) under the cached load, by
        # one client on one kept-alive connection as Prometheus does, alternating with unscraped runs.
        for _ in range(2):
            rows.append(("cached x300 WebP spread, again", 64, wrk(port, "cached", 64, 10)))
            with Scraper(port):
                rows.append(("cached, /metrics scraped 10/s", 64, wrk(port, "cached", 64, 10)))
        unsigned_cpu = cpu_per_request(server.pid, port, CACHED)
        scrape_cpu = cpu_per_scrape(server.pid, port)
    finally:
        server.terminate()
        server.wait()
    # The same cached spread through a signed URL, on a server that answers only those.
    signed = subprocess.run([MIHIRAKI, "sign", CACHED, "--sign-key", KEY, "--sign-salt", SALT], capture_output=True,
                            text=True, check=True).stdout.strip()
    server = subprocess.Popen([MIHIRAKI, "serve", CORPUS, "--port", "0", "--refresh", "3600", "--quiet",
                               "--sign-key", KEY, "--sign-salt", SALT], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        subprocess.run(["curl", "-sf", "-o", "/dev/null", f"http://127.0.0.1:{port}{signed}"], check=True)
        rows.append(("cached, signed URL", 64, wrk(port, "cached", 64, 10, cached=signed)))
        signed_cpu = cpu_per_request(server.pid, port, signed)
    finally:
        server.terminate()
        server.wait()
    print(f"\nmihiraki serve under wrk (2 threads, loopback; CLI at x300 on the same book: {cli:.1f} spreads/s)")
    print("| load | connections | requests/s | latency p50 / p90 / p99 | answers | socket errors |")
    print("|---|---|---|---|---|---|")
    for label, connections, (rate, latency, statuses, errors) in rows:
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
        print(f"| {label} | {connections} | {rate:,.0f} | {latency['50']} / {latency['90']} / {latency['99']} | "
              f"{answers} | {errors} |")
    print(f"new renders at 4 connections: {rows[1][2][0] / cli:.2f}x the CLI's spreads per second; "
          f"server peak RSS {rss:.0f} MiB (default 256 MiB cache)")
    plain = [rate for label, _, (rate, *_) in rows if label.startswith("cached x300")]
    scraped = [rate for label, _, (rate, *_) in rows if label.startswith("cached, /metrics")]
    signed = next(rate for label, _, (rate, *_) in rows if label == "cached, signed URL")
    unsigned = statistics.median(plain)
    print(f"cached at 64 connections against the median of the {len(plain)} unsigned, unscraped runs ({unsigned:,.0f}/s): "
          f"signed {signed / unsigned:.2f}x, /metrics scraped 10/s {statistics.median(scraped) / unsigned:.3f}x "
          f"(median of {len(scraped)}, alternating)")
    # Requests per second swing by a fifth within one run on a shared machine; CPU per request does not.
    share = 10 * scrape_cpu / (10 * scrape_cpu + unsigned * unsigned_cpu)
    print(f"server CPU per cached request: unsigned {unsigned_cpu:.1f} us, signed {signed_cpu:.1f} us "
          f"({signed_cpu / unsigned_cpu:.2f}x); per /metrics answer {scrape_cpu:.0f} us, so scraping 10/s under "
          f"{unsigned:,.0f} requests/s takes {100 * share:.3f} % of the server's CPU (Prometheus's usual 15 s interval: "
          f"{100 * share / 150:.5f} %)")

if __name__ == "__main__":
    main()
