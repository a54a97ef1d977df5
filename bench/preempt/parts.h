// The three parts of the preemption harness (bench/preempt/main.cpp).
#pragma once

#include "harness.h"

#include <string>
#include <vector>

namespace pb {

struct PartOptions {
  std::string manifest;  // instance manifest (correctness, overhead)
  std::string kernels;   // PTX of bench/preempt/kernels.cu (default budget)
  std::vector<std::string> variants; // latency: kernels PTX built with other budgets, "NAME=PATH"
  std::string json;      // output file
  std::string command;   // how we were called (recorded in the JSON)
  int trials = 100;      // correctness: per instance; latency: per class
  double budget_s = 60;  // wall-clock budget of the part
  int device = 0;
  unsigned long long seed = 1;
};

int run_correctness(const PartOptions &o);
int run_overhead(const PartOptions &o);
int run_latency(const PartOptions &o);

/// Writes {"part", "command", "date", "items": [...]} (items not run are
/// objects with an "error"). Returns 0, or 1 when the file cannot be written.
int write_part_json(const PartOptions &o, const std::string &part,
                    const std::vector<std::string> &items);

/// Percentile (linear interpolation) of unsorted values; NaN when empty.
double percentile(std::vector<double> v, double p);

} // namespace pb
