#!/usr/bin/env python3
"""Checks gmem-analyze's class for every corpus kernel against its
`// GMEM-EXPECT:` line. Exit 1 on any mismatch; a class MORE optimistic than
expected (e.g. idempotent where non-idempotent is expected) is reported as
UNSOUND. Usage: check_classes.py GMEM_ANALYZE [FILES...]"""
import json, os, re, subprocess, sys

ORDER = {"idempotent": 0, "conditional": 1, "unknown": 2, "non-idempotent": 2}
EXPECT = re.compile(r"//\s*GMEM-EXPECT:\s*(\S+)\s+(\S+)")


def main():
    tool = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    files = sys.argv[2:] or sorted(
        os.path.join(here, f) for f in os.listdir(here) if f.endswith(".cu"))
    ok = bad = unsound = 0
    for path in files:
        expects = dict(EXPECT.findall(open(path).read()))
        r = subprocess.run([tool, path, "--json"], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL {os.path.basename(path)}: gmem-analyze exited {r.returncode}: {r.stderr.strip()}")
            bad += len(expects) or 1
            continue
        got = {}
        for k in json.loads(r.stdout)["kernels"]:
            got[k["plain_name"]] = (k["class"], k["class_reason"])
        for name, want in expects.items():
            have, why = got.get(name, ("missing", "kernel not reported"))
            if have == want:
                ok += 1
                continue
            bad += 1
            # "idempotent" or "conditional" where the truth is worse is unsound.
            worse = have in ("idempotent", "conditional") and ORDER.get(want, 3) > ORDER.get(have, 3)
            unsound += worse
            tag = "UNSOUND" if worse else "MISMATCH"
            print(f"{tag} {os.path.basename(path)}:{name}: expected {want}, got {have} ({why})")
    print(f"corpus classes: {ok} passed, {bad} failed ({unsound} unsound)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
