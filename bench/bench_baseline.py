"""bench/run.py's baseline part: x300 renders against an earlier build of
Mihiraki (BENCH_BASELINE=BIN), CPU time side by side in alternating runs."""
import os
import shutil
import statistics
import subprocess

from bench_common import *  # noqa: F401,F403


def cpu_seconds(args, env=None, report=None):
    """User + system CPU seconds of a command and every process it waited for;
    `report`, a descriptor, becomes the command's descriptor 3."""
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, **(env or {})),
                               pass_fds=(report,) if report is not None else (),
                               preexec_fn=(lambda: os.dup2(report, 3)) if report is not None else None)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(args)}")
    return usage.ru_utime + usage.ru_stime


def baseline_bench():
    """Each book at x300 (PNG, two workers) rendered by BENCH_BASELINE and by
    this build, alternating, and by this build's rendering process alone:
    `render` runs in a child it supervises (docs/decisions-process.md), and
    the last column leaves that child's process start out (the child told
    by the environment it is supervised, its report pipe on /dev/null)."""
    baseline = os.environ.get("BENCH_BASELINE")
    if not baseline:
        print("\nbaseline: set BENCH_BASELINE to a mihiraki binary built from an earlier commit")
        return
    print(f"\nx300 CPU time (user + system) against {baseline}, median of {RUNS} alternating runs, 2 workers each")
    print("| book | baseline (ms) | this (ms) | this / baseline | rendering process alone (ms) | alone / baseline |")
    print("|---|---|---|---|---|---|")
    alone = {"MIHIRAKI_SUPERVISED_FD": "3", "MIHIRAKI_SUPERVISED_BOOKS": "0", "MIHIRAKI_SUPERVISED_TERMINAL": "0"}
    for name in ("manga", "comic"):
        book = os.path.join(WORK, "corpus", name)
        times = {"baseline": [], "this": [], "alone": []}
        devnull = os.open(os.devnull, os.O_WRONLY)
        for _ in range(RUNS):
            for label, binary, env in (("baseline", baseline, None), ("this", MIHIRAKI, None), ("alone", MIHIRAKI, alone)):
                out = os.path.join(WORK, "out", "baseline", label)
                shutil.rmtree(out, ignore_errors=True)
                times[label].append(cpu_seconds([binary, "render", book, "-o", out, "--jobs", "2", "--quiet",
                                                 "--size", "x300"], env, devnull if env else None))
        os.close(devnull)
        base, this, solo = (statistics.median(times[k]) * 1000 for k in ("baseline", "this", "alone"))
        print(f"| {name} | {base:.0f} | {this:.0f} | {this / base:.3f}x | {solo:.0f} | {solo / base:.3f}x |")
