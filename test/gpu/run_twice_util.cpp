// run_twice: small utilities shared by its files (string formatting and
// splitting, number parsing, JSON strings, paths, time).  Overview: the top
// of run_twice.cpp.

#include "run_twice.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace run_twice {

// ------------------------------------------------------------------ utilities

std::string strfmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return std::string();
  if ((size_t)n < sizeof small) return std::string(small, (size_t)n);
  std::string out((size_t)n + 1, '\0');
  va_start(ap, fmt);
  vsnprintf(&out[0], out.size(), fmt, ap);
  va_end(ap);
  out.resize((size_t)n);
  return out;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    if (p == std::string::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, p - start));
    start = p + 1;
  }
}

std::vector<std::string> split_ws(const std::string &s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isspace((unsigned char)s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !isspace((unsigned char)s[j])) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool parse_i64(const std::string &s, int64_t &v) {
  if (s.empty()) return false;
  errno = 0;
  char *end = nullptr;
  long long x = strtoll(s.c_str(), &end, 0);
  if (errno || *end) return false;
  v = x;
  return true;
}

bool parse_u64(const std::string &s, uint64_t &v) {
  if (s.empty() || s[0] == '-') return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long x = strtoull(s.c_str(), &end, 0);
  if (errno || *end) return false;
  v = x;
  return true;
}

// integer of either signedness, returned as a 64-bit pattern
bool parse_int_bits(const std::string &s, uint64_t &bits) {
  int64_t v;
  if (parse_i64(s, v)) {
    bits = (uint64_t)v;
    return true;
  }
  uint64_t u;
  if (parse_u64(s, u)) {
    bits = u;
    return true;
  }
  return false;
}

bool parse_double(const std::string &s, double &v) {
  if (s.empty()) return false;
  errno = 0;
  char *end = nullptr;
  double x = strtod(s.c_str(), &end);
  if (errno == ERANGE && std::isinf(x)) return false;
  if (*end) return false;
  v = x;
  return true;
}

std::string json_str(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\r': o += "\\r"; break;
    case '\t': o += "\\t"; break;
    default:
      if (c < 0x20) o += strfmt("\\u%04x", c);
      else o += (char)c;
    }
  }
  return o + "\"";
}

std::string dirname_of(const std::string &path) {
  size_t p = path.rfind('/');
  if (p == std::string::npos) return ".";
  if (p == 0) return "/";
  return path.substr(0, p);
}

std::string now_iso8601() {
  time_t t = time(nullptr);
  struct tm tmv;
  gmtime_r(&t, &tmv);
  char b[64];
  strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  return b;
}

}  // namespace run_twice
