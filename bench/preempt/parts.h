// The four parts of the preemption harness (bench/preempt/main.cpp).
#pragma once

#include "harness.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pb {

struct PartOptions {
  std::string manifest;  // instance manifest (correctness, overhead)
  std::string kernels;   // PTX of bench/preempt/kernels.cu (default budget)
  std::vector<std::string> variants; // latency: kernels PTX built with other budgets, "NAME=PATH"
  std::string json;      // output file
  std::string command;   // how we were called (recorded in the JSON)
  int trials = 100;      // correctness: per instance; latency: per class; stops: per form
  double budget_s = 60;  // wall-clock budget of the part
  int device = 0;
  unsigned long long seed = 1;
  std::string victim;    // latency: only this victim's items ("" = all)
  std::vector<std::string> rows; // latency: only these variants (rows; none = all)
};

int run_correctness(const PartOptions &o);
int run_overhead(const PartOptions &o);
int run_latency(const PartOptions &o);
int run_stops(const PartOptions &o); // stop latency of the overhead table's kernels
int run_aslaunched(const PartOptions &o); // overhead through libgmemrt (LD_PRELOAD)

/// Writes {"part", "command", "date", "items": [...]} (items not run are
/// objects with an "error"). Returns 0, or 1 when the file cannot be written.
int write_part_json(const PartOptions &o, const std::string &part,
                    const std::vector<std::string> &items);

/// What a worker process sets up once and its items share.
struct Worker {
  Gpu gpu;
  Module km; // bench/preempt/kernels.cu
  Helpers h;
  std::map<std::string, std::unique_ptr<Module>> mods;
};

/// The loop every part runs: items [0, n) in supervised worker processes
/// (supervise), item(i, w) returning item i's JSON; a hang, a sticky CUDA
/// error or any other exception becomes that item's error (ident(i) names
/// the item in it, label(i) in the log); items not started once
/// stop_starting() holds stay "not run". Writes <part>.json (write_part_json).
int run_part(const PartOptions &o, const std::string &part, int n, double watchdog_s,
             const std::function<std::string(int, Worker &)> &item,
             const std::function<Json(int)> &ident, const std::function<std::string(int)> &label,
             const std::function<bool()> &stop_starting);

/// Percentile (linear interpolation) of unsorted values; NaN when empty.
double percentile(std::vector<double> v, double p);

} // namespace pb
