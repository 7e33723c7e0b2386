#!/usr/bin/env python3
"""Checks every file of the tampered set (make_tampered.py) against its
expected refusal, through one tool:

    check_tampered.py --smoke BLK-ARTIFACT-SMOKE --real DIR --tampered DIR
    check_tampered.py --blkc BLKC --real DIR --tampered DIR

--smoke: the sanitized in-process driver (fuzz/ArtifactSmoke.cpp) runs over
both directories once; it must exit 0 (no crash, no sanitizer report), accept
every real fatbin and refuse every tampered one whose expected.tsv line gives
a message, with a message containing that text.
--blkc: `blkc inspect FILE` per file: a real fatbin exits 0 and describes its
kernels; a tampered one exits 1 with nothing on stdout and one
`blkc: error: blk: <file>: ...` message containing the expected text. Files
marked `*` (seeded byte flips) may exit 0 or 1, never anything else.
Run by ctest (tests/fuzz/CMakeLists.txt). Standard library only.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys


def load_expected(tampered):
    with open(os.path.join(tampered, "expected.tsv")) as f:
        rows = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]
    return {os.path.join(tampered, name): text for name, text in rows}


def real_files(real):
    return sorted(os.path.join(real, f) for f in os.listdir(real) if f.endswith(".fatbin"))


def check_smoke(tool, real, expected):
    run = subprocess.run([tool, "--print", real] + sorted(expected), capture_output=True, text=True,
                         errors="replace")
    if run.returncode != 0:
        return ["blk-artifact-smoke exited %d:\n%s%s" % (run.returncode, run.stdout[-4000:],
                                                        run.stderr[-8000:])]
    verdicts = {}  # file -> None (accepted) or the refusal's message
    for line in run.stdout.splitlines():
        file, refused, message = line.partition(": refused: ")
        if refused:
            verdicts[file] = message
        elif line.endswith(": ok"):
            verdicts[line[:-len(": ok")]] = None
    failures = []
    for file in real_files(real):
        if verdicts.get(file, "missing") is not None:
            failures.append("%s: expected success, got %s" % (file, verdicts.get(file, "no line")))
    for file, text in expected.items():
        if file not in verdicts:
            failures.append("%s: no verdict" % file)
        elif text != "*" and (verdicts[file] is None or text not in verdicts[file]):
            failures.append("%s: expected a refusal containing %r, got %r" %
                            (file, text, verdicts[file] or "success"))
    print(run.stdout.splitlines()[-1])
    return failures


def inspect_one(blkc, file, text):
    """None when `blkc inspect file` behaves as expected, else why not."""
    run = subprocess.run([blkc, "inspect", file], capture_output=True, text=True, errors="replace")
    if text is None:  # a real fatbin
        if run.returncode != 0 or "\nkernel " not in run.stdout:
            return "%s: expected success, exit %d: %s" % (file, run.returncode, run.stderr)
        return None
    if run.returncode == 0 and text == "*" and run.stdout.startswith("artifact: "):
        return None
    prefix = "blkc: error: blk: %s: " % file
    one_line = run.stderr.count("\n") == 1 or text == "*"
    if (run.returncode != 1 or run.stdout or not run.stderr.startswith(prefix) or not one_line
            or (text != "*" and text not in run.stderr)):
        return "%s: expected exit 1 and one error containing %r; exit %d, stdout %d bytes, stderr %r" % (
            file, text, run.returncode, len(run.stdout), run.stderr[:500])
    return None


def check_blkc(blkc, real, expected):
    jobs = [(f, None) for f in real_files(real)] + sorted(expected.items())
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda job: inspect_one(blkc, *job), jobs))
    print("check_tampered: blkc inspect on %d files" % len(jobs))
    return [r for r in results if r]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tool = parser.add_mutually_exclusive_group(required=True)
    tool.add_argument("--smoke")
    tool.add_argument("--blkc")
    parser.add_argument("--real", required=True)
    parser.add_argument("--tampered", required=True)
    args = parser.parse_args()
    expected = load_expected(args.tampered)
    if args.smoke:
        failures = check_smoke(args.smoke, args.real, expected)
    else:
        failures = check_blkc(args.blkc, args.real, expected)
    for failure in failures:
        print("FAIL " + failure)
    refusals = sum(1 for t in expected.values() if t != "*")
    print("check_tampered: %d real, %d tampered (%d with an expected message): %s" %
          (len(real_files(args.real)), len(expected), refusals,
           "%d failures" % len(failures) if failures else "all as expected"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
