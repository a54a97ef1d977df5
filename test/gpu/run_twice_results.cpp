// run_twice: results, from the comparison of two buffer sets to the verdict,
// the per-instance line, the summary and the JSON file, and the wire format
// that carries a result from the worker to the supervisor.  Verdicts and
// the JSON schema are documented at the top of run_twice.cpp.

#include "run_twice.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace run_twice {

// -------------------------------------------------------------------- compare

Diff compare_buffers(const std::vector<std::vector<uint8_t>> &x,
                     const std::vector<std::vector<uint8_t>> &y) {
  Diff d;
  for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
    const std::vector<uint8_t> &p = x[k], &q = y[k];
    size_t n = std::min(p.size(), q.size());
    if (p.size() != q.size()) {
      if (d.identical) {
        d.identical = false;
        d.buf = (int)k;
        d.offset = n;
      }
      d.count += (uint64_t)(std::max(p.size(), q.size()) - n);
    }
    if (n == 0 || memcmp(p.data(), q.data(), n) == 0) continue;
    for (size_t i = 0; i < n; ++i) {
      if (p[i] != q[i]) {
        if (d.identical || (d.buf == (int)k && i < d.offset)) {
          d.identical = false;
          d.buf = (int)k;
          d.offset = i;
          d.a = p[i];
          d.b = q[i];
        }
        ++d.count;
      }
    }
  }
  return d;
}

// -------------------------------------------------------------------- results

Summary summarize(const std::vector<Result> &rs) {
  Summary s;
  s.total = (int)rs.size();
  for (const Result &r : rs) {
    if (r.observed == "identical") {
      ++s.identical;
      if (r.in->pred != "none") ++s.pred_identical;
    }
    if (r.observed == "differs") ++s.differs;
    if (r.verdict == "OK") ++s.ok;
    else if (r.verdict == "FALSE-IDEMPOTENT") ++s.false_idem;
    else if (r.verdict == "MISSED") ++s.missed;
    else if (r.verdict == "NO-PREDICTION") ++s.nopred;
    else if (r.verdict == "ERROR") ++s.error;
    else if (r.verdict == "SKIPPED") ++s.skipped;
    else if (r.verdict == "TIMEOUT") ++s.timeout;
    if (r.outside_bytes >= 0) ++s.write_checked;
    if (r.outside_bytes > 0) ++s.write_outside;
    if (r.read_bad >= 0) ++s.read_checked;
    if (r.read_bad > 0) ++s.read_outside;
    // once per instance: a write and a read outside (or a region failure of
    // an instance that already failed) must not be counted twice
    bool passing = r.verdict == "OK" || r.verdict == "MISSED" || r.verdict == "NO-PREDICTION";
    if (passing && (r.outside_bytes > 0 || r.read_bad > 0)) ++s.region_failed;
  }
  s.passed = s.ok + s.missed + s.nopred - s.region_failed;
  s.failed = s.false_idem + s.error + s.timeout + s.region_failed;
  if (s.pred_identical > 0) s.fn_rate = (double)s.missed / s.pred_identical;
  return s;
}

void print_summary(const Summary &s, int not_run) {
  printf("== summary ==\n");
  printf("instances: %d", s.total);
  if (not_run > 0) printf(" (+%d not run)", not_run);
  printf("\n");
  printf("observed: identical %d, differs %d, error %d, skipped %d, timeout %d\n",
         s.identical, s.differs, s.error, s.skipped, s.timeout);
  printf("verdicts: OK %d, FALSE-IDEMPOTENT %d, MISSED %d, NO-PREDICTION %d, ERROR %d, "
         "SKIPPED %d, TIMEOUT %d\n",
         s.ok, s.false_idem, s.missed, s.nopred, s.error, s.skipped, s.timeout);
  if (s.fn_rate >= 0)
    printf("false-negative rate: %d/%d = %.1f%% (MISSED / predicted instances observed "
           "identical)\n",
           s.missed, s.pred_identical, 100.0 * s.fn_rate);
  else
    printf("false-negative rate: n/a (no predicted instance observed identical)\n");
  printf("write regions: %d checked, %d with changed bytes outside (failures)\n",
         s.write_checked, s.write_outside);
  printf("read regions: %d checked, %d with a result depending on bytes outside (failures)\n",
         s.read_checked, s.read_outside);
  printf("%d passed, %d failed\n", s.passed, s.failed);
  fflush(stdout);
}

std::string result_json(const Result &r) {
  const Instance &in = *r.in;
  std::string o = "    {";
  o += strfmt("\"index\": %d, \"line\": %d, ", in.index, in.line);
  o += "\"name\": " + json_str(in.name) + ", ";
  o += "\"ptx\": " + json_str(in.ptx) + ", ";
  o += "\"symbol\": " + json_str(in.sym) + ", ";
  o += strfmt("\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %u, ",
              in.grid[0], in.grid[1], in.grid[2], in.block[0], in.block[1], in.block[2],
              in.smem);
  o += "\"args\": " + json_str(in.args_text) + ", ";
  o += "\"prediction\": " + json_str(in.pred) + ", ";
  o += "\"class\": " + json_str(in.cls) + ", ";
  o += "\"expect\": " + (in.expect.empty() ? std::string("null") : json_str(in.expect)) + ", ";
  o += "\"observed\": " + json_str(r.observed) + ", ";
  if (r.diff_param >= 0)
    o += strfmt("\"first_diff\": {\"param\": %d, \"offset\": %" PRIu64
                ", \"s1\": %u, \"s2\": %u}, ",
                r.diff_param, r.diff_offset, r.diff_s1, r.diff_s2);
  else
    o += "\"first_diff\": null, ";
  o += strfmt("\"diff_bytes\": %" PRIu64 ", ", r.diff_bytes);
  o += r.changed_first >= 0 ? strfmt("\"changed_by_first_launch\": %" PRId64 ", ",
                                     r.changed_first)
                            : std::string("\"changed_by_first_launch\": null, ");
  if (r.outside_bytes < 0)
    o += "\"write_check\": null, ";
  else if (r.outside_bytes == 0)
    o += "\"write_check\": {\"outside_bytes\": 0, \"first\": null}, ";
  else
    o += strfmt("\"write_check\": {\"outside_bytes\": %" PRId64 ", \"first\": {\"param\": %d, "
                "\"offset\": %" PRIu64 "}}, ",
                r.outside_bytes, r.outside_param, r.outside_offset);
  if (r.read_bad < 0)
    o += "\"read_check\": null, ";
  else
    o += strfmt("\"read_check\": {\"bad_bytes\": %" PRId64 ", \"perturbed_bytes\": %" PRIu64
                ", \"first\": %s}, ",
                r.read_bad, r.read_perturbed,
                r.read_bad > 0 ? strfmt("{\"param\": %d, \"offset\": %" PRIu64 "}",
                                        r.read_param, r.read_offset).c_str()
                               : "null");
  o += std::string("\"deterministic\": ") +
       (r.deterministic < 0 ? "null" : r.deterministic ? "true" : "false") + ", ";
  o += "\"verdict\": " + json_str(r.verdict) + ", ";
  o += "\"error\": " + (r.error.empty() ? std::string("null") : json_str(r.error)) + ", ";
  o += "\"note\": " + json_str(r.note) + ", ";
  o += strfmt("\"ms\": %.3f}", r.ms);
  return o;
}

bool write_json(bool complete, int not_run) {
  if (g_json_path.empty()) return true;
  std::string tmp = g_json_path + ".tmp";
  FILE *f = fopen(tmp.c_str(), "w");
  if (!f) {
    fprintf(stderr, "run_twice: cannot write %s: %s\n", tmp.c_str(), strerror(errno));
    return false;
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  Summary s = summarize(g_results);
  std::string o = "{\n  \"schema\": 1,\n  \"tool\": \"run_twice\",\n";
  o += "  \"manifest\": " + json_str(g_manifest_path) + ",\n";
  o += "  \"command\": " + json_str(g_command) + ",\n";
  o += "  \"host\": " + json_str(host) + ",\n";
  o += "  \"date\": " + json_str(g_date) + ",\n";
  if (g_dev.valid)
    o += strfmt("  \"device\": {\"ordinal\": %d, \"name\": %s, \"cc\": \"%d.%d\", "
                "\"total_mem\": %" PRIu64 ", \"driver\": %d},\n",
                g_dev.ordinal, json_str(g_dev.name).c_str(), g_dev.cc_major,
                g_dev.cc_minor, g_dev.total_mem, g_dev.driver);
  else
    o += "  \"device\": null,\n";
  o += std::string("  \"complete\": ") + (complete ? "true" : "false") + ",\n";
  o += "  \"instances\": [\n";
  for (size_t i = 0; i < g_results.size(); ++i) {
    o += result_json(g_results[i]);
    o += i + 1 < g_results.size() ? ",\n" : "\n";
  }
  o += "  ],\n";
  o += strfmt("  \"summary\": {\"instances\": %d, \"not_run\": %d, \"identical\": %d, "
              "\"differs\": %d, \"ok\": %d, \"false_idempotent\": %d, \"missed\": %d, "
              "\"no_prediction\": %d, \"error\": %d, \"skipped\": %d, \"timeout\": %d, "
              "\"predicted_identical\": %d, \"false_negative_rate\": %s, "
              "\"write_checked\": %d, \"write_outside\": %d, "
              "\"read_checked\": %d, \"read_outside\": %d, "
              "\"passed\": %d, \"failed\": %d}\n}\n",
              s.total, not_run, s.identical, s.differs, s.ok, s.false_idem, s.missed,
              s.nopred, s.error, s.skipped, s.timeout, s.pred_identical,
              s.fn_rate >= 0 ? strfmt("%.6f", s.fn_rate).c_str() : "null", s.write_checked,
              s.write_outside, s.read_checked, s.read_outside, s.passed, s.failed);
  bool ok = fwrite(o.data(), 1, o.size(), f) == o.size();
  ok = (fclose(f) == 0) && ok;
  if (ok) ok = rename(tmp.c_str(), g_json_path.c_str()) == 0;
  if (!ok) fprintf(stderr, "run_twice: failed writing %s\n", g_json_path.c_str());
  return ok;
}

std::string verdict_for(const std::string &pred, const std::string &observed) {
  if (observed != "identical" && observed != "differs") return "ERROR";
  if (pred == "none") return "NO-PREDICTION";
  if (pred == "idempotent") return observed == "identical" ? "OK" : "FALSE-IDEMPOTENT";
  return observed == "differs" ? "OK" : "MISSED";
}

void print_result(const Result &r, size_t n_total) {
  const Instance &in = *r.in;
  std::string obs = r.observed;
  if (r.observed == "differs")
    obs += strfmt(" param=%d offset=%" PRIu64 " (0x%02x!=0x%02x, %" PRIu64 " bytes)",
                  r.diff_param, r.diff_offset, r.diff_s1, r.diff_s2, r.diff_bytes);
  printf("[%3d/%zu] %-16s %s  pred=%s class=%s observed=%s", in.index + 1, n_total,
         r.verdict.c_str(), in.name.c_str(), in.pred.c_str(), in.cls.c_str(), obs.c_str());
  if (!r.error.empty()) printf("  error: %s", r.error.c_str());
  if (r.outside_bytes > 0)
    printf("  WRITE-OUTSIDE-REGION param=%d offset=%" PRIu64 " (%" PRId64 " bytes)",
           r.outside_param, r.outside_offset, r.outside_bytes);
  if (r.read_bad > 0)
    printf("  READ-OUTSIDE-REGION param=%d offset=%" PRIu64 " (%" PRId64 " bytes)",
           r.read_param, r.read_offset, r.read_bad);
  if (!r.note.empty()) printf("  [%s]", r.note.c_str());
  printf("  (%.1f ms)\n", r.ms);
  fflush(stdout);
}

// ------------------------------------------------------- worker <-> supervisor
//
// The supervisor (main process) never touches CUDA.  It forks a worker that
// initialises CUDA and runs instances from a start index, reporting over a
// pipe, one message per line (fields separated by \x1f):
//   D name cc_major cc_minor total_mem driver   device information
//   S i                                          instance i started
//   R i observed verdict error note diff_param diff_offset s1 s2 diff_bytes
//     changed_first deterministic ms outside_bytes outside_param outside_offset
//     read_bad read_param read_offset read_perturbed
//                                                instance i finished
//   F message                                    fatal (CUDA init failed)
// Worker exit status: 0 done, 5 the context could not be re-created after a
// sticky error (the supervisor starts a fresh worker at the next instance:
// terminating the process is the only sure way to clear a sticky error),
// 6 fatal.  The supervisor's watchdog kills a worker whose instance runs
// longer than --timeout and stops.

std::string wire_clean(const std::string &s) {
  std::string o = s;
  for (char &c : o)
    if (c == '\n' || c == '\r' || c == '\x1f') c = ' ';
  return o;
}

std::string encode_result(int index, const Result &r) {
  const char US = '\x1f';
  std::string o = "R";
  o += US + std::to_string(index);
  for (const std::string *f : {&r.observed, &r.verdict, &r.error, &r.note})
    o += US + wire_clean(*f);
  o += strfmt("%c%d%c%" PRIu64 "%c%u%c%u%c%" PRIu64 "%c%" PRId64 "%c%d%c%.3f", US,
              r.diff_param, US, r.diff_offset, US, r.diff_s1, US, r.diff_s2, US,
              r.diff_bytes, US, r.changed_first, US, r.deterministic, US, r.ms);
  o += strfmt("%c%" PRId64 "%c%d%c%" PRIu64, US, r.outside_bytes, US, r.outside_param, US,
              r.outside_offset);
  o += strfmt("%c%" PRId64 "%c%d%c%" PRIu64 "%c%" PRIu64, US, r.read_bad, US, r.read_param, US,
              r.read_offset, US, r.read_perturbed);
  return o + "\n";
}

bool decode_result(const std::vector<std::string> &f, Result &r, int &index) {
  if (f.size() != 21 || f[0] != "R") return false;
  index = atoi(f[1].c_str());
  r.observed = f[2];
  r.verdict = f[3];
  r.error = f[4];
  r.note = f[5];
  r.diff_param = atoi(f[6].c_str());
  r.diff_offset = strtoull(f[7].c_str(), nullptr, 10);
  r.diff_s1 = (uint8_t)atoi(f[8].c_str());
  r.diff_s2 = (uint8_t)atoi(f[9].c_str());
  r.diff_bytes = strtoull(f[10].c_str(), nullptr, 10);
  r.changed_first = strtoll(f[11].c_str(), nullptr, 10);
  r.deterministic = atoi(f[12].c_str());
  r.ms = atof(f[13].c_str());
  r.outside_bytes = strtoll(f[14].c_str(), nullptr, 10);
  r.outside_param = atoi(f[15].c_str());
  r.outside_offset = strtoull(f[16].c_str(), nullptr, 10);
  r.read_bad = strtoll(f[17].c_str(), nullptr, 10);
  r.read_param = atoi(f[18].c_str());
  r.read_offset = strtoull(f[19].c_str(), nullptr, 10);
  r.read_perturbed = strtoull(f[20].c_str(), nullptr, 10);
  return true;
}

void write_all(int fd, const std::string &s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      _exit(7);  // supervisor gone
    }
    off += (size_t)n;
  }
}

}  // namespace run_twice
