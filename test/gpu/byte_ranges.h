// Region checks for run_twice: the byte regions gmem-analyze's instance mode
// predicts, per buffer, for what a launch may write (wr=) and read (rd=),
// tested on the hardware.  A region may be too big, never too small.
//
// Write check: every byte the first launch changed (I against S1) must lie
// in wr.  A byte written with the value it already had cannot be seen, so
// the check is one-sided like the run-twice truth itself.
//
// Read check: the launch is repeated on I2, which is I with every byte
// outside rd changed (perturb_outside).  A kernel that reads no byte outside
// rd executes exactly as it did on I, so what it leaves in memory (S3)
// equals S1 wherever S1 differs from I, and I2 or S1 elsewhere
// (read_dependence).  Anything else shows that a byte outside rd
// influenced the result.  One-sided too: a byte outside rd that is read but
// whose value does not change the result (or changes it only for values the
// perturbation does not produce) goes unseen, and the conclusion assumes the
// kernel is deterministic (run_twice only checks instances whose re-run on I
// reproduced S1).
//
// Manifest fields (test/gpu/stage.py): `wr=K:LO-HI+LO-HI,K2:...` gives, per
// buffer parameter K, byte ranges [LO, HI) relative to the buffer's start
// (every pointer argument into the buffer included) that may be written; a
// buffer not named may not be written at all; `none` says no buffer may be;
// `-` (or no field) leaves the instance unchecked (the kernel accesses
// memory the analysis does not attribute to an argument).  `rd=` is the
// same for reads.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct ByteRanges {
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
        err = "bad item '" + item + "'";
        return false;
      }
      std::vector<std::pair<int64_t, int64_t>> &rs = by_param[(int)k];
      size_t p = colon + 1;
      while (p < item.size()) {
        size_t q = item.find('+', p);
        std::string r = item.substr(p, q == std::string::npos ? std::string::npos : q - p);
        int64_t lo = 0, hi = 0;
        if (!parse_range(r, lo, hi)) {
          err = "bad range '" + r + "'";
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

  /// The region of \p param within a buffer of \p n bytes: sorted, disjoint,
  /// non-adjacent [lo, hi) spans inside [0, n).
  std::vector<std::pair<uint64_t, uint64_t>> spans(int param, uint64_t n) const {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    auto it = by_param.find(param);
    if (it == by_param.end())
      return out;
    std::vector<std::pair<int64_t, int64_t>> rs = it->second;
    std::sort(rs.begin(), rs.end());
    for (const auto &r : rs) {
      uint64_t lo = r.first < 0 ? 0 : (uint64_t)r.first;
      uint64_t hi = r.second < 0 ? 0 : std::min<uint64_t>((uint64_t)r.second, n);
      if (hi <= lo)
        continue;
      if (!out.empty() && lo <= out.back().second)
        out.back().second = std::max(out.back().second, hi);
      else
        out.emplace_back(lo, hi);
    }
    return out;
  }

  /// Bytes of a buffer of \p n bytes (parameter \p param) inside the region.
  uint64_t covered(int param, uint64_t n) const {
    uint64_t c = 0;
    for (const auto &s : spans(param, n))
      c += s.second - s.first;
    return c;
  }

private:
  // "LO-HI" with LO possibly negative: "-8-4" is [-8, 4).  A number beyond
  // int64 saturates (strtoll), which only widens the range.
  static bool parse_range(const std::string &r, int64_t &lo, int64_t &hi) {
    const char *s = r.c_str();
    char *e = nullptr;
    errno = 0;
    long long a = strtoll(s, &e, 10);
    if (e == s || *e != '-')
      return false;
    const char *t = e + 1;
    char *e2 = nullptr;
    long long b = strtoll(t, &e2, 10);
    if (e2 == t || *e2 || b < a)
      return false;
    lo = a;
    hi = b;
    return true;
  }
};

/// Offending bytes found by a check: how many, and the first one's buffer
/// parameter and offset.
struct OffendingBytes {
  uint64_t bytes = 0;
  int param = -1;
  uint64_t offset = 0;

  void add(int p, uint64_t off) {
    if (bytes++ == 0) {
      param = p;
      offset = off;
    }
  }
};

/// Bytes that differ between \p before and \p after (buffer k is parameter
/// params[k]) and lie outside \p wr.
inline OffendingBytes bytes_outside(const ByteRanges &wr, const std::vector<int> &params,
                                    const std::vector<std::vector<uint8_t>> &before,
                                    const std::vector<std::vector<uint8_t>> &after) {
  OffendingBytes o;
  for (size_t k = 0; k < params.size() && k < before.size() && k < after.size(); ++k) {
    const std::vector<uint8_t> &a = before[k], &b = after[k];
    size_t n = a.size() < b.size() ? a.size() : b.size();
    if (n == 0 || memcmp(a.data(), b.data(), n) == 0)
      continue;
    for (size_t i = 0; i < n; ++i)
      if (a[i] != b[i] && !wr.allows(params[k], i))
        o.add(params[k], i);
  }
  return o;
}

/// XOR with a non-zero constant changes every byte it touches, whatever its
/// value (and XOR again restores it).
constexpr uint8_t kPerturbXor = 0x5A;

/// Changes every byte of \p bufs (buffer k is parameter params[k]) that lies
/// outside \p rd; returns how many bytes it changed.
inline uint64_t perturb_outside(const ByteRanges &rd, const std::vector<int> &params,
                                std::vector<std::vector<uint8_t>> &bufs) {
  uint64_t changed = 0;
  for (size_t k = 0; k < params.size() && k < bufs.size(); ++k) {
    std::vector<uint8_t> &b = bufs[k];
    uint64_t pos = 0;
    auto flip = [&](uint64_t lo, uint64_t hi) {
      for (uint64_t i = lo; i < hi; ++i)
        b[i] ^= kPerturbXor;
      changed += hi - lo;
    };
    for (const auto &s : rd.spans(params[k], b.size())) {
      flip(pos, s.first);
      pos = s.second;
    }
    flip(pos, b.size());
  }
  return changed;
}

/// Bytes of the run on the perturbed input (I2 -> S3) that the run on the
/// original input (I -> S1) does not explain.  Where run 1 changed a byte,
/// the same execution writes the same value; where it did not, the byte was
/// either not written (S3 keeps I2's value) or written with the value it
/// had (S3 holds S1's).  Bytes inside rd are equal in I and I2, so the rule
/// needs no region: it is the same for every byte.
inline OffendingBytes read_dependence(const std::vector<int> &params,
                                      const std::vector<std::vector<uint8_t>> &I,
                                      const std::vector<std::vector<uint8_t>> &S1,
                                      const std::vector<std::vector<uint8_t>> &I2,
                                      const std::vector<std::vector<uint8_t>> &S3) {
  OffendingBytes o;
  size_t nb = std::min({params.size(), I.size(), S1.size(), I2.size(), S3.size()});
  for (size_t k = 0; k < nb; ++k) {
    size_t n = std::min({I[k].size(), S1[k].size(), I2[k].size(), S3[k].size()});
    const uint8_t *i0 = I[k].data(), *s1 = S1[k].data(), *i2 = I2[k].data(),
                  *s3 = S3[k].data();
    if (n == 0 || memcmp(s1, s3, n) == 0)
      continue;  // S3 == S1 everywhere is always consistent
    for (size_t i = 0; i < n; ++i)
      if (s3[i] != s1[i] && (s1[i] != i0[i] || s3[i] != i2[i]))
        o.add(params[k], i);
  }
  return o;
}

// ------------------------------------------------------------------ self test

/// Unit tests of this file, run by `run_twice --self-test`: prints every
/// failed expectation and returns how many failed.
inline int byte_ranges_self_test() {
  int fails = 0;
#define BR_EXPECT(c)                                                               \
  do {                                                                             \
    if (!(c)) {                                                                    \
      ++fails;                                                                     \
      printf("self-test FAILED byte_ranges.h line %d: %s\n", __LINE__, #c);        \
    }                                                                              \
  } while (0)
  // regions (byte_ranges.h): parsing
  {
    ByteRanges wr;
    std::string err;
    BR_EXPECT(wr.parse("2:0-8+16-20,3:-4-4", err) && wr.checked);
    BR_EXPECT(wr.allows(2, 0) && wr.allows(2, 7) && !wr.allows(2, 8) && wr.allows(2, 19));
    BR_EXPECT(!wr.allows(2, 20) && wr.allows(3, 3) && !wr.allows(3, 4) && !wr.allows(1, 0));
    BR_EXPECT(wr.parse("-", err) && !wr.checked);
    BR_EXPECT(wr.parse("none", err) && wr.checked && !wr.allows(0, 0));
    BR_EXPECT(!wr.parse("2:8-4", err) && !wr.parse("x:0-4", err) && !wr.parse("2:0", err));
    BR_EXPECT(!wr.parse("2:0-4x", err) && !wr.parse("2:-4", err));
    // beyond int64: saturates, which only widens the range
    BR_EXPECT(wr.parse("0:0-99999999999999999999", err) && wr.allows(0, 1ull << 40));
    BR_EXPECT(wr.parse("0:-8-4+2-6+10-20+30-40,1:0-4+4-8", err));
    auto sp = wr.spans(0, 16);
    BR_EXPECT(sp.size() == 2 && sp[0].first == 0 && sp[0].second == 6 && sp[1].first == 10 &&
           sp[1].second == 16);
    BR_EXPECT(wr.covered(0, 16) == 12 && wr.covered(1, 100) == 8 && wr.covered(1, 6) == 6);
    BR_EXPECT(wr.spans(1, 100).size() == 1);  // adjacent ranges merge
    BR_EXPECT(wr.spans(2, 16).empty() && wr.covered(2, 16) == 0);
  }
  // write check
  {
    ByteRanges wr;
    std::string err;
    BR_EXPECT(wr.parse("1:4-8", err));
    std::vector<std::vector<uint8_t>> before(2, std::vector<uint8_t>(12, 0)), after = before;
    after[0][5] = 1;   // buffer 0 is parameter 1: inside [4, 8)
    OffendingBytes o = bytes_outside(wr, {1, 2}, before, after);
    BR_EXPECT(o.bytes == 0);
    after[0][9] = 1;   // outside
    after[1][0] = 1;   // parameter 2: nothing allowed
    o = bytes_outside(wr, {1, 2}, before, after);
    BR_EXPECT(o.bytes == 2 && o.param == 1 && o.offset == 9);
  }
  // read check: the perturbation changes exactly the bytes outside rd
  {
    ByteRanges rd;
    std::string err;
    BR_EXPECT(rd.parse("1:2-4+-8-1+6-100,2:3-4", err));
    std::vector<int> params = {1, 2, 3};
    std::vector<std::vector<uint8_t>> orig = {{0, 1, 2, 3, 0x5A, 0xA5, 0xFF, 7},
                                              {9, 9, 9, 9, 9},
                                              {0x5A, 0, 1}},
                                      pert = orig;
    uint64_t n = perturb_outside(rd, params, pert);
    uint64_t outside = 0;
    bool exact = true;
    for (size_t k = 0; k < orig.size(); ++k)
      for (size_t i = 0; i < orig[k].size(); ++i) {
        bool in_rd = rd.allows(params[k], i);
        outside += !in_rd;
        if (in_rd != (pert[k][i] == orig[k][i]) || (pert[k][i] ^ orig[k][i]) != (in_rd ? 0 : 0x5A))
          exact = false;
      }
    BR_EXPECT(exact && n == outside && outside == 3 + 4 + 3);
    ByteRanges none;
    BR_EXPECT(none.parse("none", err));
    pert = orig;
    BR_EXPECT(perturb_outside(none, params, pert) == 16 && pert[2][0] == 0 &&
              pert[1][4] == (9 ^ 0x5A));
  }
  // read check: the comparison, on a simulated kernel.  Parameter 1 is
  // `in`, parameter 2 `out`: out[i] = in[i] + 1 for i < 4, out[4] = 7 (the
  // value it already had), out[6] = 1 when in[5] != 15 (only the second
  // kernel reads in[5]).
  {
    using Mem = std::vector<std::vector<uint8_t>>;
    auto kernel = [](Mem m, bool reads_in5) {
      for (int i = 0; i < 4; ++i) m[1][i] = (uint8_t)(m[0][i] + 1);
      m[1][4] = 7;
      if (reads_in5 && m[0][5] != 15) m[1][6] = 1;
      return m;
    };
    std::vector<int> params = {1, 2};
    Mem I = {{10, 11, 12, 13, 14, 15, 16, 17}, {7, 7, 7, 7, 7, 0, 0, 0}};
    for (bool reads_in5 : {false, true}) {
      Mem S1 = kernel(I, reads_in5);
      ByteRanges rd;
      std::string err;
      BR_EXPECT(rd.parse(reads_in5 ? "1:0-6" : "1:0-4", err));
      Mem I2 = I;
      BR_EXPECT(perturb_outside(rd, params, I2) == (reads_in5 ? 10u : 12u));
      Mem S3 = kernel(I2, reads_in5);
      BR_EXPECT(S3 != S1);  // unwritten perturbed bytes: the per-byte rule is exercised
      OffendingBytes ok = read_dependence(params, I, S1, I2, S3);
      BR_EXPECT(ok.bytes == 0 && ok.param == -1);
      BR_EXPECT(read_dependence(params, I, S1, I, S1).bytes == 0);  // an unchanged execution
    }
    // rd omits in[0], which out[0] depends on
    Mem S1 = kernel(I, false);
    ByteRanges rd;
    std::string err;
    BR_EXPECT(rd.parse("1:1-4", err));
    Mem I2 = I;
    perturb_outside(rd, params, I2);
    OffendingBytes bad = read_dependence(params, I, S1, I2, kernel(I2, false));
    BR_EXPECT(bad.bytes == 1 && bad.param == 2 && bad.offset == 0);
    // rd omits in[5]: the perturbed run writes out[6], which run 1 left alone
    S1 = kernel(I, true);
    BR_EXPECT(rd.parse("1:0-4", err));
    I2 = I;
    perturb_outside(rd, params, I2);
    bad = read_dependence(params, I, S1, I2, kernel(I2, true));
    BR_EXPECT(bad.bytes == 1 && bad.param == 2 && bad.offset == 6);
    // a byte run 1 left alone that holds neither I2's nor S1's value
    Mem S3 = kernel(I2, false);
    S3[0][7] = 0;
    bad = read_dependence(params, I, kernel(I, false), I2, S3);
    BR_EXPECT(bad.bytes == 1 && bad.param == 1 && bad.offset == 7);
    // a byte run 1 changed that the perturbed run left at I2's value
    S3 = kernel(I2, false);
    S3[1][2] = I2[1][2];
    bad = read_dependence(params, I, kernel(I, false), I2, S3);
    BR_EXPECT(bad.bytes == 1 && bad.param == 2 && bad.offset == 2);
  }
#undef BR_EXPECT
  return fails;
}
