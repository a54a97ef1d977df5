// Write-region check for run_twice: every byte the first launch changed
// must lie in the region gmem-analyze's instance mode gave the buffer.
//
// A region may be too big, never too small. The run-twice truth tests the
// idempotence verdict; this tests the regions behind it (and behind the
// runtime's prefetch) on the hardware, for every write the launch makes
// visible: a byte written with the value it already had cannot be seen, so
// the check is one-sided like the truth itself.
//
// Manifest field (test/gpu/stage.py): `wr=K:LO-HI+LO-HI,K2:...` gives, per
// buffer parameter K, byte ranges [LO, HI) relative to the buffer's start
// (every pointer argument into the buffer included); a buffer not named
// may not be written at all; `wr=none` says no buffer may be; `wr=-` (or
// no field) leaves the instance unchecked (the kernel writes memory the
// analysis does not attribute to an argument).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct WriteRanges {
  bool checked = false;
  std::map<int, std::vector<std::pair<int64_t, int64_t>>> by_param;

  /// Parses the field's value; false (with err) on a malformed one.
  bool parse(const std::string &v, std::string &err) {
    by_param.clear();
    checked = false;
    if (v == "-")
      return true;
    checked = true;
    if (v == "none")
      return true;
    size_t pos = 0;
    while (pos <= v.size()) {
      size_t end = v.find(',', pos);
      std::string item = v.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      size_t colon = item.find(':');
      char *rest = nullptr;
      long k = colon == std::string::npos ? -1 : strtol(item.c_str(), &rest, 10);
      if (k < 0 || rest != item.c_str() + colon) {
        err = "bad wr item '" + item + "'";
        return false;
      }
      std::vector<std::pair<int64_t, int64_t>> &rs = by_param[(int)k];
      size_t p = colon + 1;
      while (p < item.size()) {
        size_t q = item.find('+', p);
        std::string r = item.substr(p, q == std::string::npos ? std::string::npos : q - p);
        long long lo = 0, hi = 0;
        char tail = 0;
        // "LO-HI" with LO possibly negative: "-8-4" is [-8, 4).
        if (sscanf(r.c_str(), "%lld-%lld%c", &lo, &hi, &tail) != 2 || hi < lo) {
          err = "bad wr range '" + r + "'";
          return false;
        }
        rs.emplace_back(lo, hi);
        if (q == std::string::npos)
          break;
        p = q + 1;
      }
      if (end == std::string::npos)
        break;
      pos = end + 1;
    }
    return true;
  }

  bool allows(int param, uint64_t off) const {
    auto it = by_param.find(param);
    if (it == by_param.end())
      return false;
    for (const auto &r : it->second)
      if ((int64_t)off >= r.first && (int64_t)off < r.second)
        return true;
    return false;
  }
};

struct WriteOutside {
  uint64_t bytes = 0;  ///< changed bytes outside the region
  int param = -1;      ///< the first one's parameter and offset
  uint64_t offset = 0;
};

/// Bytes that differ between \p before and \p after (buffer k is parameter
/// params[k]) and lie outside \p wr.
inline WriteOutside bytes_outside(const WriteRanges &wr, const std::vector<int> &params,
                                  const std::vector<std::vector<uint8_t>> &before,
                                  const std::vector<std::vector<uint8_t>> &after) {
  WriteOutside o;
  for (size_t k = 0; k < params.size() && k < before.size() && k < after.size(); ++k) {
    const std::vector<uint8_t> &a = before[k], &b = after[k];
    size_t n = a.size() < b.size() ? a.size() : b.size();
    if (n == 0 || memcmp(a.data(), b.data(), n) == 0)
      continue;
    for (size_t i = 0; i < n; ++i)
      if (a[i] != b[i] && !wr.allows(params[k], i)) {
        if (o.bytes == 0) {
          o.param = params[k];
          o.offset = i;
        }
        ++o.bytes;
      }
  }
  return o;
}
