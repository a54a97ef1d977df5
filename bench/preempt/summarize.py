#!/usr/bin/env python3
"""RESULTS.md from the preemption harness's JSON (bench/preempt).

    python3 bench/preempt/summarize.py OUTDIR [--out RESULTS.md]

OUTDIR holds correctness.json, overhead.json, latency.json, stops.json (any may be
missing) and device.txt, as bench/preempt/run_on_device.sh writes them.
Python 3 standard library only.
"""

import argparse
import json
import math
import os
import sys


def load(outdir, part):
    p = os.path.join(outdir, part + ".json")
    if not os.path.exists(p):
        return None
    with open(p) as fh:
        return json.load(fh)


def fmt(x, spec="%.1f"):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else spec % x


def clone_kind(i):
    """The clone's launch: "persistent P=N", "grid" (user's grid), or "-" when
    the results predate ABI version 2 (no "persistent" key)."""
    if "persistent" not in i:
        return "-"
    if "error" in i and i.get("info_version") != 2:
        return "info v%s" % i["info_version"] if "info_version" in i else "-"
    return "persistent P=%d" % i.get("P", 0) if i["persistent"] else "grid"


def correctness(doc, lines):
    items = [i for i in doc["items"] if not i.get("not_preemptible")]
    nopre = [i for i in doc["items"] if i.get("not_preemptible")]
    ok = [i for i in items if "error" not in i]
    err = [i for i in items if "error" in i]
    det = [i for i in ok if i.get("compared", i.get("deterministic"))]
    tot = lambda k, xs=ok: sum(i.get(k, 0) for i in xs)
    lines += ["## 3. Bit-exactness under forced preemption", "",
              "Command: `%s`" % doc.get("command", ""), "",
              "| | count |", "| --- | --- |",
              "| instances run / with errors | %d / %d |" % (len(ok), len(err)),
              "| instances without a clone (run as compiled, not preemptible) | %d%s |"
              % (len(nopre), (": " + ", ".join("`%s`" % i["name"] for i in nopre)) if nopre else ""),
              "| ... run with a persistent clone (ABI 2, grid (P,1,1)) | %s |"
              % (sum(1 for i in ok if i.get("persistent")) if any("persistent" in i for i in ok)
                 else "-"),
              "| preemptions (trials) | %d |" % tot("trials"),
              "| ... that cut work (some CTA skipped or aborted) | %d |" % tot("cut"),
              "| ... that came too late (every CTA had finished) | %d |" % tot("too_late"),
              "| cut trials, request 2 (idempotent instances) | %d |"
              % sum(i.get("cut", 0) for i in ok if i.get("request") == 2),
              "| cut trials, request 1 (others) | %d |"
              % sum(i.get("cut", 0) for i in ok if i.get("request") == 1),
              "| ... of the trials, on a light twin (instances with one: %d) / cut / mismatches "
              "| %d / %d / %d |" % (sum(1 for i in ok if "light_trials" in i), tot("light_trials"),
                                    tot("light_cut"), tot("light_mismatches")),
              "| ... on an alternate full clone (instances with one: %d) / cut / mismatches "
              "| %d / %d / %d |" % (sum(1 for i in ok if "alt_trials" in i), tot("alt_trials"),
                                    tot("alt_cut"), tot("alt_mismatches")),
              "| ... on a barrier-free clone, request 2 only (instances with one: %d) / cut / "
              "mismatches | %s |" % (sum(1 for i in ok if "free_trials" in i),
                                     "%d / %d / %d" % (tot("free_trials"), tot("free_cut"),
                                                       tot("free_mismatches"))
                                     if any("free_trials" in i for i in ok) else "-"),
              "| ... on the full clone at 4x its resident CTAs (spread; instances with more "
              "virtual CTAs than that: %d) / cut / mismatches | %s |" % (
                  sum(1 for i in ok if "spread_trials" in i),
                  "%d / %d / %d" % (tot("spread_trials"), tot("spread_cut"),
                                    tot("spread_mismatches"))
                  if any("spread_trials" in i for i in ok) else "-"),
              "| relaunches that left a CTA unfinished | %d |" % tot("relaunch_incomplete"),
              "| trials compared bit-exact (deterministic instances) | %d |" % tot("trials", det),
              "| **mismatches against the unpreempted original** | **%d** |" % tot("mismatches"),
              "| clone without preemption differs from the original | %d |"
              % sum(1 for i in det if not i.get("clone_unpreempted_exact")),
              "| idempotent launches whose clone on one CTA (every virtual CTA in turn) "
              "differs | %d |" % sum(1 for i in ok if i.get("pred") == "idempotent"
                                     and i.get("sequential_exact") is False),
              ""]
    modes = {}
    for i in ok:
        for m, (c, l) in i.get("cut_late_by_mode", {}).items():
            modes.setdefault(m, [0, 0])
            modes[m][0] += c
            modes[m][1] += l
    lines += ["By how the request was written: " + ", ".join(
        "%s %d cut / %d late" % (m, c, l) for m, (c, l) in sorted(modes.items())), ""]
    nondet = [i["name"] for i in ok if not i.get("deterministic")]
    if nondet:
        lines += ["Not compared (the original itself differs between two runs: float "
                  "atomics, races between CTAs): " + ", ".join("`%s`" % n for n in nondet), ""]
    orderdep_items = [i for i in ok if i.get("order_dependent")]
    orderdep = [i["name"] for i in orderdep_items]
    if orderdep:
        lines += ["Not compared (order-dependent: the original gave one result twice, its "
                  "clone another without any preemption, on its usual grid or on one CTA "
                  "running every virtual CTA in turn; the analysis calls the kernel "
                  "non-idempotent, or, for a difference on one CTA only, the launch not "
                  "idempotent): " + ", ".join(
                      "`%s`%s" % (n["name"], "" if n.get("sequential_exact", True)
                                  else " (on one CTA)") for n in orderdep_items), ""]
    if err:
        lines += ["Errors:", ""] + ["* `%s`: %s" % (i.get("name", "?"), i["error"]) for i in err]
        lines.append("")
    lines += ["| instance | clone | request | CTAs | kernel us | trials | cut | late | mismatches |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for i in ok:
        lines.append("| `%s` | %s | %s | %d | %s | %d | %d | %d | %s |" % (
            i["name"], clone_kind(i), i.get("request"), i.get("ctas", 0), fmt(i.get("kernel_us")),
            i.get("trials", 0), i.get("cut", 0), i.get("too_late", 0),
            i.get("mismatches", 0) if i.get("compared", i.get("deterministic")) else "n/a"))
    lines.append("")


def overhead(doc, lines):
    items = [i for i in doc["items"] if "error" not in i and i.get("orig_ms")]
    err = [i for i in doc["items"] if "error" in i]
    def geomean(key):
        r = [1 + i.get(key, i["overhead"]) for i in items if i.get(key, i["overhead"]) > -1]
        return math.exp(sum(math.log(x) for x in r) / len(r)) - 1 if r else float("nan")
    geo = geomean("overhead")
    worst = max(items, key=lambda i: i["overhead"]) if items else None
    chosen = [i for i in items if "overhead_chosen" in i]
    worst_c = max(chosen, key=lambda i: i["overhead_chosen"]) if chosen else None
    short = [i for i in items if i["orig_ms"] < 0.5]
    lines += ["## 2. Steady-state overhead (clone at request 0 vs. original)", "",
              "Command: `%s`" % doc.get("command", ""), "",
              "Interleaved launches on one stream, medians of event times. Sizes: "
              "bench/preempt/overhead_sizes.txt.", "",
              "* kernels: %d measured, %d errors; %d ran under 0.5 ms" % (
                  len(items), len(err), len(short)),
              "* **geomean overhead %+.2f%%, max %+.2f%% (%s)**" % (
                  100 * geo, 100 * worst["overhead"] if worst else float("nan"),
                  worst["name"] if worst else "-"),
              ""]
    if chosen:
        lines.insert(len(lines) - 1, "* **what the runtime launches** (the light twin for "
                     "launches that stop between virtual CTAs only, not found idempotent or "
                     "of a kernel without loop checkpoints (those where its virtual CTAs take "
                     ">= 4 us), unless over 2%% slower than the form below, "
                     "and where a virtual CTA of the full clone "
                     "takes <= 3 us, %d of %d kernels; else the fastest of the full clone, the "
                     "alternate full clone and, for idempotent launches, the barrier-free one, "
                     "a form other than the full clone only where it ran over 2%% faster: "
                     "alternate %d, barrier-free %d kernels; then that form on 4x its resident "
                     "CTAs where that ran over 2%% faster (spread): %d kernels): "
                     "**geomean %+.2f%%, max %+.2f%% (%s)**; the line above is the full clone "
                     "everywhere" % (
                         sum(1 for i in chosen if i.get("chosen") == "light"), len(items),
                         sum(1 for i in chosen if i.get("chosen") == "alt"),
                         sum(1 for i in chosen if i.get("chosen") == "free"),
                         sum(1 for i in chosen if i.get("spread_kept")),
                         100 * geomean("overhead_chosen"), 100 * worst_c["overhead_chosen"],
                         worst_c["name"]))
        within = sum(1 for i in chosen if i["overhead_chosen"] <= 0.03)
        lines.insert(len(lines) - 1, "* within 3%%: %d of %d (as launched), %d (full clone)" % (
            within, len(chosen), sum(1 for i in items if i["overhead"] <= 0.03)))
    pers = [i for i in items if i.get("persistent")]
    if any("persistent" in i for i in items):
        r = [1 + i["overhead"] for i in pers if i["overhead"] > -1]
        g = math.exp(sum(math.log(x) for x in r) / len(r)) - 1 if r else float("nan")
        lines.insert(len(lines) - 1, "* persistent clones: %d of %d (geomean overhead %s); "
                     "the others run on the user's grid" % (
                         len(pers), len(items), fmt(100 * g, "%+.2f%%")))
    incomplete = [i["name"] for i in items if i.get("clone_all_done") is False]
    if incomplete:
        lines.insert(len(lines) - 1, "* **clone left work undone at request 0 (time "
                     "meaningless)**: " + ", ".join("`%s`" % n for n in incomplete))
    lines += ["| kernel | clone | orig ms | clone ms | overhead (median) | overhead (min) "
              "| virtual CTA us | light twin | alternate clone | barrier-free clone "
              "| launch idempotent | launched | rounds |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for i in sorted(items, key=lambda i: -i.get("overhead_chosen", i["overhead"])):
        light = ("P=%d %+.2f%%" % (i.get("light_P", 0), 100 * i["overhead_light"])
                 if "overhead_light" in i else "-")
        alt = ("P=%d %+.2f%%" % (i.get("alt_P", 0), 100 * i["overhead_alt"])
               if "overhead_alt" in i else "-")
        free = ("P=%d %+.2f%%" % (i.get("free_P", 0), 100 * i["overhead_free"])
                if "overhead_free" in i else "-")
        lines.append("| `%s` | %s | %.3f | %.3f | %+.2f%% | %+.2f%% | %s | %s | %s | %s | %s "
                     "| %s %s | %d |" % (
            i["name"], clone_kind(i), i["orig_ms"], i["clone_ms"], 100 * i["overhead"],
            100 * i.get("overhead_min", float("nan")), fmt(i.get("vcta_us")), light, alt, free,
            {"idempotent": "yes", "not-idempotent": "no"}.get(i.get("pred"), "-"),
            i.get("chosen", "full") + (" spread" if i.get("spread_kept") else ""),
            fmt(100 * i.get("overhead_chosen", i["overhead"]), "%+.2f%%"),
            i.get("rounds", 0)))
    for i in err:
        lines.append("| `%s` | %s | error: %s | | | | | | | | | | |" % (
            i.get("name", "?"), clone_kind(i), i["error"][:120]))
    lines.append("")


def latency(doc, lines):
    items = doc["items"]
    lat = [i for i in items if i.get("kind") == "latency" and "error" not in i]
    steady = [i for i in items if i.get("kind") == "steady" and "error" not in i]
    err = [i for i in items if "error" in i]
    lines += ["## 1. Preemption latency", "",
              "Command: `%s`" % doc.get("command", ""), "",
              "The request (cuStreamWriteValue32 on a high-priority stream) is queued in "
              "advance between two events, behind a wait on a host flag that the host releases "
              "when the request is due: events and write then run back to back on the GPU "
              "(`write_queued`; otherwise the host issued them when due and host call time lies "
              "between them). **Device** (the issue's measure, control write -> all CTAs "
              "exited, an upper bound): from the event right before the write to the event "
              "after the victim. After write (a lower bound): from the event right after the "
              "write. Write: between those two events (the write and one event). Event: what "
              "one timing event takes on the GPU (a third event queued before the first; "
              "blank in runs without it). Host: "
              "from the flag's release until cuEventQuery sees the victim done. Too late: every "
              "CTA had finished anyway (excluded from the percentiles). Remaining: how long the "
              "victim would still have run without preemption (median). Budget `alt` / "
              "`free`: the idempotent victims' alternate full clone / barrier-free clone "
              "(request 2; free rows only where the victim has that form). Budget `light` / "
              "`light-cta3us`: victim_accum's light twin (request 1, what libgmemrt launches "
              "for a launch not found idempotent), ~20 us and 3 us CTAs. `cta200us` / "
              "`light-cta200us`: ~200 us CTAs on the full clone / light twin (late read), "
              "also for victim_accum_sync (no loop checkpoints: its twin is the full clone "
              "plus the late read).", "",
              "| budget | victim | clone | request | target ms | run ms | CTA us | K | trials | "
              "late | **device p50 / p99 us** | after write p50 / p99 us | "
              "write p50 / p99 us | event p50 us | host p50 / p99 us | remaining ms | "
              "verified (bad) |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
              "| --- | --- | --- |"]
    for i in lat:
        h, d = i.get("host_us", {}), i.get("device_us", {})
        w, c = i.get("device_from_write_us", {}), i.get("write_submit_us", {})
        ev = i.get("timing_event_us", {})
        lines.append("| %s | %s | %s | %d | %g | %.2f | %.0f | %s | %d | %d | **%s / %s** | "
                     "%s / %s | %s / %s | %s | %s / %s | %s | %d (%d) |" % (
                         i["variant"], i["victim"], clone_kind(i), i["request"], i["target_ms"],
                         i.get("measured_ms", 0), i.get("cta_us", 0), i.get("interval_k", "-"),
                         i.get("trials", 0), i.get("too_late", 0), fmt(d.get("p50")),
                         fmt(d.get("p99")), fmt(w.get("p50")), fmt(w.get("p99")),
                         fmt(c.get("p50")), fmt(c.get("p99")), fmt(ev.get("p50")),
                         fmt(h.get("p50")),
                         fmt(h.get("p99")),
                         fmt(i.get("remaining_ms_p50"), "%.2f"), i.get("verified_relaunches", 0),
                         i.get("verify_mismatches", 0) + i.get("relaunch_incomplete", 0)))
    lines.append("")
    if steady:
        lines += ["Victims' steady-state cost (clone at request 0 vs. original, ~10 ms runs):", "",
                  "| budget | victim | clone | orig ms | clone ms | overhead |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for i in steady:
            lines.append("| %s | %s | %s | %.3f | %.3f | %+.2f%% |" % (
                i["variant"], i["victim"], clone_kind(i), i["orig_ms"], i["clone_ms"],
                100 * i["overhead"]))
        lines.append("")
    if err:
        lines += ["Errors:", ""] + ["* %s %s: %s" % (i.get("variant", ""), i.get("victim", "?"),
                                                      i["error"]) for i in err] + [""]


def stops(doc, lines, chosen):
    """Part 4: stops of the overhead table's kernels. `chosen` maps a kernel
    name to the form part 2 found libgmemrt would launch (when overhead.json
    is beside it)."""
    lines += ["## 4. Stop latency of the corpus kernels (overhead sizes)", "",
              "Command: `%s`" % doc.get("command", "?"), "",
              "Each form the runtime may launch, stopped at random moments (request 2 for "
              "launches found idempotent, else 1), timed as in part 1: **device** from the "
              "event before the control write to the event after the clone (the issue's "
              "measure), after write from the event after it. Every stopped launch is then "
              "finished by a relaunch (incomplete: virtual CTAs left undone). Launched: the "
              "form part 2 picks (spread not applied here).", ""]
    lines += ["| kernel | pred | request | form | P | K | virtual CTA us | trials | late | "
              "**device p50 / p99 us** | after write p50 / p99 us | incomplete |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    launched = {"idem": [], "other": []}
    for i in doc["items"]:
        if "error" in i:
            lines.append("| `%s` | error: %s |||||||||||" % (i.get("name", "?"), i["error"][:80]))
            continue
        pick = chosen.get(i["name"])
        for f in i.get("forms", []):
            d, w = f["device_us"], f["after_write_us"]
            mark = " (launched)" if f["form"] == pick else ""
            lines.append("| `%s` | %s | %d | %s%s | %d | %d | %s | %d | %d | **%s / %s** | %s / %s | %d |" % (
                i["name"], i["pred"], i["request"], f["form"], mark, f["P"], f["batch_k"],
                fmt(f.get("vcta_us")), f["trials"], f["too_late"], fmt(d["p50"]), fmt(d["p99"]),
                fmt(w["p50"]), fmt(w["p99"]), f["relaunch_incomplete"]))
            if mark and d["p99"] is not None and not math.isnan(d["p99"]):
                key = "idem" if i["request"] == 2 else "other"
                launched[key].append((d["p99"], i["name"], f.get("vcta_us"), w["p99"]))
    lines.append("")
    idem = sorted(launched["idem"], reverse=True)
    if idem:
        ok = sum(1 for p, _, _, _ in idem if p <= 10.0)
        ok_w = sum(1 for _, _, _, w in idem if w is not None and w <= 10.0)
        lines.append("* **idempotent launches, launched form: %d of %d with device P99 <= 10 us, "
                     "%d of %d after the write**; slowest (device / after the write): %s" % (
                         ok, len(idem), ok_w, len(idem), ", ".join(
                             "%s %.1f / %s us" % (n, p, fmt(w)) for p, n, _, w in idem[:6])))
    other = sorted(launched["other"], reverse=True)
    if other:
        lines.append("* other launches (request 1), launched form, device P99 against the virtual "
                     "CTA time: %s" % ", ".join(
                         "%s %.1f us (tau %s)" % (n, p, fmt(t)) for p, n, t, _ in other[:8]))
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    lines = ["# Preemptible clones on the GPU: results", "",
             "Generated by bench/preempt/summarize.py from the JSON of "
             "bench/preempt/run_on_device.sh.", ""]
    dev = os.path.join(a.outdir, "device.txt")
    if os.path.exists(dev):
        lines += ["```", open(dev).read().strip(), "```", ""]
    found = False
    ov = load(a.outdir, "overhead")
    chosen = {i["name"]: i.get("chosen", "full") for i in (ov or {}).get("items", [])
              if "error" not in i}
    parts = [("latency", latency), ("overhead", overhead), ("correctness", correctness)]
    if os.path.exists(os.path.join(a.outdir, "stops.json")):
        parts.append(("stops", lambda doc, lines: stops(doc, lines, chosen)))
    for part, fn in parts:
        doc = load(a.outdir, part)
        if doc is None:
            lines += ["## %s: no results" % part, ""]
            continue
        found = True
        fn(doc, lines)
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)
        # headline for the log: the bold lines and the latency table
        for l in lines:
            if "**" in l or l.startswith("| default") or l.startswith("| b"):
                print(l)
    else:
        sys.stdout.write(text)
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
