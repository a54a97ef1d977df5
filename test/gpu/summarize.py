#!/usr/bin/env python3
"""Turn run_twice's JSON results into test/gpu/RESULTS.md.

    python3 test/gpu/summarize.py PATH/gpu_truth.json [--log PATH/gpu_truth.log]
                                  [--stage .stage/gpu/stage.json] [--out test/gpu/RESULTS.md]

The machine line comes from the `nvidia-smi -L` lines of the log written by
run_on_device.sh (default: gpu_truth.log next to the JSON) and the device
object of the JSON.  With the stage.json written by stage.py (default:
.stage/gpu/stage.json when it exists) the table also names each instance's
source line.  Python 3 standard library only.
"""

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

CLASS_ORDER = ["idempotent", "conditional", "non-idempotent", "unknown", "none"]


def cell(text, limit=None):
    t = "" if text is None else str(text)
    t = t.replace("\n", " ").replace("|", "\\|")
    if limit and len(t) > limit:
        t = t[: limit - 1] + "…"
    return t


def code(text):
    t = cell(text)
    return "`%s`" % t.replace("`", "'") if t else ""


def machine_line(data, log_path):
    parts = []
    if log_path and os.path.exists(log_path):
        with open(log_path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if re.match(r"^GPU \d+:", line):
                    parts.append(re.sub(r"\s*\(UUID:[^)]*\)", "", line.strip()))
    dev = data.get("device")
    if dev:
        drv = dev.get("driver") or 0
        parts.append("device %s: %s, compute capability %s, %d MiB, CUDA driver API %d.%d" % (
            dev.get("ordinal", 0), dev.get("name", "?"), dev.get("cc", "?"),
            (dev.get("total_mem") or 0) >> 20, drv // 1000, (drv % 1000) // 10))
    if data.get("host"):
        parts.append("host %s" % data["host"])
    return "; ".join(parts) or "unknown"


def load_stage(path):
    if not path or not os.path.exists(path):
        return {}
    try:
        with open(path) as fh:
            st = json.load(fh)
    except (OSError, ValueError):
        return {}
    out = {}
    for f in st.get("files", []):
        for i in f.get("instances", []):
            out[i["name"]] = {"source": "%s:%s" % (f.get("source"), i.get("line")),
                              "reason": i.get("instance_reason")}
    return out


def observed_text(r):
    obs = r.get("observed", "?")
    fd = r.get("first_diff")
    if obs == "differs" and fd:
        obs += " (param %s +%s, %s bytes)" % (fd.get("param"), fd.get("offset"),
                                               r.get("diff_bytes"))
    if r.get("deterministic") is False:
        obs += " nondeterministic"
    return obs


def counts(rows):
    c = {"n": len(rows)}
    for key in ("identical", "differs", "error", "skipped", "timeout"):
        c[key] = sum(1 for r in rows if r.get("observed") == key)
    for key in ("idempotent", "not-idempotent", "none"):
        c["pred_" + key] = sum(1 for r in rows if r.get("prediction") == key)
    for key in ("OK", "FALSE-IDEMPOTENT", "MISSED", "NO-PREDICTION", "ERROR", "SKIPPED",
                "TIMEOUT"):
        c[key] = sum(1 for r in rows if r.get("verdict") == key)
    c["pred_identical"] = sum(1 for r in rows if r.get("observed") == "identical"
                              and r.get("prediction") in ("idempotent", "not-idempotent"))
    return c


def rate(num, den):
    return "%d/%d = %.1f%%" % (num, den, 100.0 * num / den) if den else "n/a (%d/0)" % num


def group_table(title, rows, key, note):
    groups = {}
    for r in rows:
        groups.setdefault(r.get(key) or "none", []).append(r)
    order = [k for k in CLASS_ORDER if k in groups] + sorted(k for k in groups
                                                              if k not in CLASS_ORDER)
    out = ["## %s" % title, "", note, "",
           "| %s | instances | identical | differs | error/skipped/timeout | pred idempotent "
           "| pred not-idempotent | pred none | OK | FALSE-IDEMPOTENT | MISSED | FN rate |"
           % key,
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for k in order:
        c = counts(groups[k])
        out.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |" % (
            code(k), c["n"], c["identical"], c["differs"],
            c["error"] + c["skipped"] + c["timeout"], c["pred_idempotent"],
            c["pred_not-idempotent"], c["pred_none"], c["OK"], c["FALSE-IDEMPOTENT"],
            c["MISSED"], rate(c["MISSED"], c["pred_identical"])))
    return out + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="run_twice --json output (gpu_truth.json)")
    ap.add_argument("--log", help="run_on_device.sh log (default: gpu_truth.log next to JSON)")
    ap.add_argument("--stage", default=os.path.join(REPO, ".stage", "gpu", "stage.json"),
                    help="stage.json from stage.py (optional)")
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--command", default="bash test/gpu/run_on_device.sh",
                    help="the command that was run, for the report")
    opts = ap.parse_args()

    with open(opts.json) as fh:
        data = json.load(fh)
    log = opts.log or os.path.join(os.path.dirname(os.path.abspath(opts.json)),
                                   "gpu_truth.log")
    stage = load_stage(opts.stage)
    rows = data.get("instances", [])
    summ = data.get("summary", {})
    c = counts(rows)
    not_run = summ.get("not_run", 0)
    checked = [r for r in rows if r.get("write_check") is not None]
    outside = [r for r in checked if r["write_check"].get("outside_bytes", 0) > 0]
    # read checks: absent from the JSON of runners that predate them
    has_reads = any("read_check" in r for r in rows)
    rchecked = [r for r in rows if r.get("read_check") is not None]
    routside = [r for r in rchecked if r["read_check"].get("bad_bytes", 0) > 0]
    vacuous = sum(1 for r in rchecked if not r["read_check"].get("perturbed_bytes"))
    # an instance fails once, however many of its checks fail (as the runner counts)
    bad_ids = {id(r) for r in outside + routside}
    region_failed = sum(1 for r in rows
                        if r.get("verdict") in ("OK", "MISSED", "NO-PREDICTION")
                        and id(r) in bad_ids)
    failed = c["FALSE-IDEMPOTENT"] + c["ERROR"] + c["TIMEOUT"] + region_failed
    passed = c["OK"] + c["MISSED"] + c["NO-PREDICTION"] - region_failed

    md = ["# GPU ground truth: is the analysis's idempotence prediction sound?", "",
          "Generated by `test/gpu/summarize.py` from `%s`; see `test/gpu/README.md`."
          % os.path.basename(opts.json), "",
          "Each instance runs on deterministic input I (memory becomes S1), then again "
          "on S1 (S2); S1 and S2 are compared byte for byte over every buffer. A "
          "difference proves the instance non-idempotent. Every byte the first launch "
          "changed (I against S1) must also lie in the write region gmem-analyze's "
          "instance mode predicted for its buffer (a region may be too big, never too "
          "small). Read regions: a deterministic instance is run once more on I with "
          "every byte outside its predicted read region changed; where run 1 wrote, it "
          "must write the same, elsewhere leave the changed byte or S1's value (a "
          "difference shows a byte outside the region influenced the result; one-sided: "
          "a read whose value does not matter goes unseen).", "",
          "- **Command:** `%s` (runner: `%s`)" % (opts.command, data.get("command", "?")),
          "- **Machine:** %s" % machine_line(data, log),
          "- **Date:** %s" % data.get("date", "?"),
          "- **Run complete:** %s" % ("yes" if data.get("complete") else
                                      "NO (stopped early; %d instances not run)" % not_run),
          ""]
    verdict = ("**0 — the bar is met.**" if c["FALSE-IDEMPOTENT"] == 0 else
               "**%d — SOUNDNESS FAILURE (the bar is zero).**" % c["FALSE-IDEMPOTENT"])
    md += ["## Totals", "",
           "| | |", "|---|---|",
           "| instances | %d%s |" % (c["n"], " (+%d not run)" % not_run if not_run else ""),
           "| observed identical / differs | %d / %d |" % (c["identical"], c["differs"]),
           "| error / skipped / timeout | %d / %d / %d |" % (c["error"], c["skipped"],
                                                          c["timeout"]),
           "| predictions idempotent / not-idempotent / none | %d / %d / %d |"
           % (c["pred_idempotent"], c["pred_not-idempotent"], c["pred_none"]),
           "| OK | %d |" % c["OK"],
           "| **FALSE-IDEMPOTENT** (predicted idempotent, observed differs) | %s |" % verdict,
           "| MISSED (predicted not-idempotent, observed identical) | %d |" % c["MISSED"],
           "| false-negative rate (MISSED / predicted instances observed identical) | %s |"
           % rate(c["MISSED"], c["pred_identical"]),
           "| no prediction | %d |" % c["NO-PREDICTION"],
           "| write regions checked (the rest write memory the analysis does not "
           "attribute to an argument) | %d of %d |" % (len(checked), c["n"]),
           "| **changed bytes outside the predicted write region** | %s |"
           % ("**0 — the bar is met.**" if not outside else
              "**%d instances — SOUNDNESS FAILURE.**" % len(outside))]
    if has_reads:
        md += ["| read regions checked (the rest read memory the analysis does not "
               "attribute to an argument, or were not found deterministic) | %d of %d "
               "(%d with no byte outside the region to change) |"
               % (len(rchecked), c["n"], vacuous),
               "| **results depending on bytes outside the predicted read region** | %s |"
               % ("**0 — the bar is met.**" if not routside else
                  "**%d instances — SOUNDNESS FAILURE.**" % len(routside))]
    else:
        md += ["| read regions checked | not recorded (the runner predates the read check) |"]
    md += ["| passed / failed (failed = FALSE-IDEMPOTENT + ERROR + TIMEOUT + other "
           "instances with writes or reads outside their region) | %d / %d |"
           % (passed, failed),
           ""]
    fi = [r for r in rows if r.get("verdict") == "FALSE-IDEMPOTENT"]
    if fi:
        md += ["## FALSE-IDEMPOTENT instances", ""]
        for r in fi:
            st = stage.get(r.get("name"), {})
            md.append("- %s%s: %s; analysis reason: %s%s" % (
                code(r.get("name")), " (%s)" % cell(st["source"]) if st.get("source") else "",
                observed_text(r),
                cell(st.get("reason") or "?"),
                " (kernel is nondeterministic on the same input)"
                if r.get("deterministic") is False else ""))
        md.append("")
    if outside:
        md += ["## Writes outside the predicted region", ""]
        for r in outside:
            w = r["write_check"]
            md.append("- %s: %d bytes, first at parameter %d offset %d" % (
                code(r.get("name")), w["outside_bytes"], w["first"]["param"],
                w["first"]["offset"]))
        md.append("")
    if routside:
        md += ["## Reads outside the predicted region", "",
               "Bytes of the result of the run on the changed input that the run on I "
               "does not explain (the byte named is where the result differs, not the "
               "byte read).", ""]
        for r in routside:
            rc = r["read_check"]
            md.append("- %s: %d bytes (of %d bytes changed outside the region), first at "
                      "parameter %d offset %d" % (
                          code(r.get("name")), rc["bad_bytes"], rc.get("perturbed_bytes", 0),
                          rc["first"]["param"], rc["first"]["offset"]))
        md.append("")
    # the runner notes these and leaves the reads unchecked: a kernel that reads
    # nothing outside its region runs on the changed input exactly as on I
    rfault = [r for r in rows if "read-check launch failed" in (r.get("note") or "")]
    if rfault:
        md += ["## Read checks whose launch on the changed input failed", "",
               "Not counted as failures (the cause may be the device), but a kernel that "
               "reads no byte outside its region cannot fail there when it ran on I: look "
               "at these.", ""]
        for r in rfault:
            md.append("- %s: %s" % (code(r.get("name")), cell(r.get("note"))))
        md.append("")
    md += group_table("Per static class", rows, "class",
                      "Static class: `gmem-analyze --json` kernel class (`none`: no tool).")
    if any(r.get("expect") for r in rows):
        md += group_table("Per expected class", rows, "expect",
                          "Expected class: the corpus `GMEM-EXPECT` line.")
    md += ["## Instances", "",
           "| # | instance | source | class | expect | prediction | observed | verdict | notes |",
           "|---:|---|---|---|---|---|---|---|---|"]
    for r in rows:
        w = r.get("write_check")
        wnote = ("writes not checked" if w is None else
                 "%d bytes written outside the region" % w["outside_bytes"]
                 if w.get("outside_bytes") else None)
        rc = r.get("read_check")
        rnote = None
        if has_reads and rc is None and not re.search(r"read[ -]check", r.get("note") or ""):
            rnote = "reads not checked"  # (a note saying why makes this redundant)
        elif rc is not None and rc.get("bad_bytes"):
            rnote = "%d result bytes depend on bytes outside the read region" % rc["bad_bytes"]
        notes = "; ".join(x for x in (r.get("error"), r.get("note"), wnote, rnote) if x)
        v = r.get("verdict", "?")
        if v in ("FALSE-IDEMPOTENT", "ERROR", "TIMEOUT"):
            v = "**%s**" % v
        for bad, label in ((w is not None and w.get("outside_bytes"), "WRITE-OUTSIDE-REGION"),
                           (rc is not None and rc.get("bad_bytes"), "READ-OUTSIDE-REGION")):
            if bad:
                v = "**%s**" % label if v == "OK" else v + ", **%s**" % label
        md.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r.get("index", 0) + 1, code(r.get("name")),
            cell(stage.get(r.get("name"), {}).get("source", "")), cell(r.get("class")),
            cell(r.get("expect") or ""), cell(r.get("prediction")), cell(observed_text(r)),
            v, cell(notes, 160)))
    md.append("")
    with open(opts.out, "w") as fh:
        fh.write("\n".join(md))
    print("wrote %s: %d instances, FALSE-IDEMPOTENT %d, MISSED %d, false-negative rate %s, "
          "writes outside %d, reads outside %s, %d passed, %d failed" % (
              opts.out, c["n"], c["FALSE-IDEMPOTENT"], c["MISSED"],
              rate(c["MISSED"], c["pred_identical"]), len(outside),
              len(routside) if has_reads else "n/a", passed, failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
