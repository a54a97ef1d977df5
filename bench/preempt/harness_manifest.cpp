// The harness's manifest: one kernel instance per line (see harness.h).

#include "harness.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pb {

namespace {

struct TypeInfo {
  const char *name;
  int code;
  size_t size;
  bool is_float;
};
const TypeInfo kTypes[] = {{"f32", 0, 4, true}, {"f64", 1, 8, true}, {"i32", 2, 4, false},
                           {"u32", 3, 4, false}, {"i64", 4, 8, false}, {"u64", 5, 8, false},
                           {"i8", 6, 1, false},  {"u8", 7, 1, false}};

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream is(s);
  while (std::getline(is, cur, sep))
    out.push_back(cur);
  return out;
}

bool to_i64(const std::string &s, long long &v) {
  if (s.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  v = strtoll(s.c_str(), &end, 0);
  if (!errno && !*end)
    return true;
  errno = 0;
  unsigned long long u = strtoull(s.c_str(), &end, 0);
  if (errno || *end || s[0] == '-')
    return false;
  v = (long long)u;
  return true;
}

bool to_double(const std::string &s, double &v) {
  char *end = nullptr;
  v = strtod(s.c_str(), &end);
  return !s.empty() && !*end;
}

bool parse_dims(const std::string &s, unsigned d[3]) {
  std::vector<std::string> p = split(s, ',');
  if (p.empty() || p.size() > 3)
    return false;
  for (int i = 0; i < 3; ++i) {
    long long v = 1;
    if (i < (int)p.size() && (!to_i64(p[i], v) || v < 1 || v > 0xffffffffll))
      return false;
    d[i] = (unsigned)v;
  }
  return true;
}

std::string dir_of(const std::string &p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

} // namespace

bool parse_arg(const std::string &tok, Arg &a, std::string &err) {
  a = Arg();
  a.tok = tok;
  std::vector<std::string> f = split(tok, ':');
  if (f.size() >= 4 && f[0] == "buf") {
    a.kind = ArgKind::Buf;
    const TypeInfo *t = nullptr;
    for (const TypeInfo &ti : kTypes)
      if (f[1] == ti.name)
        t = &ti;
    long long count;
    if (!t || !to_i64(f[2], count) || count < 0) {
      err = "bad buf token " + tok;
      return false;
    }
    a.type = t->code;
    a.elem = t->size;
    a.count = (uint64_t)count;
    const std::string &m = f[3];
    if (m == "rand" && f.size() == 4) {
      a.mode = 0;
    } else if (m == "randint" && f.size() == 6 && to_i64(f[4], a.lo) && to_i64(f[5], a.hi) &&
               a.lo < a.hi) {
      a.mode = 1;
    } else if (m == "zero" && f.size() == 4) {
      a.mode = 2;
    } else if (m == "iota" && f.size() == 4) {
      a.mode = 3;
    } else if (m == "const" && f.size() == 5 &&
               (t->is_float ? to_double(f[4], a.cf) : to_i64(f[4], a.lo))) {
      a.mode = 4;
    } else {
      err = "bad INIT in " + tok;
      return false;
    }
    return true;
  }
  if (f.size() == 2 && f[0] == "ptr") {
    a.kind = ArgKind::Ptr;
    std::string r = f[1];
    size_t pm = r.find_first_of("+-");
    long long ref, off = 0;
    if (!to_i64(r.substr(0, pm), ref) ||
        (pm != std::string::npos && !to_i64(r.substr(pm + 1), off))) {
      err = "bad ptr token " + tok;
      return false;
    }
    a.ref = (int)ref;
    a.off = pm != std::string::npos && r[pm] == '-' ? -off : off;
    return true;
  }
  if (f.size() != 2) {
    err = "bad token " + tok;
    return false;
  }
  a.kind = ArgKind::Scalar;
  long long iv;
  double dv;
  if ((f[0] == "i32" || f[0] == "u32") && to_i64(f[1], iv)) {
    a.size = 4;
    a.bits = (uint32_t)iv;
  } else if ((f[0] == "i64" || f[0] == "u64") && to_i64(f[1], iv)) {
    a.size = 8;
    a.bits = (uint64_t)iv;
  } else if (f[0] == "f32" && to_double(f[1], dv)) {
    float x = (float)dv;
    uint32_t b;
    memcpy(&b, &x, 4);
    a.size = 4;
    a.bits = b;
  } else if (f[0] == "f64" && to_double(f[1], dv)) {
    a.size = 8;
    memcpy(&a.bits, &dv, 8);
  } else {
    err = "bad scalar " + tok;
    return false;
  }
  return true;
}

bool load_manifest(const char *part, const std::string &path, std::vector<Instance> &out) {
  std::string err;
  if (read_manifest(path, out, err))
    return true;
  fprintf(stderr, "%s: %s\n", part, err.c_str());
  return false;
}

bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read " + path;
    return false;
  }
  std::string base = dir_of(path), line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#')
      continue;
    Instance I;
    I.line = lineno;
    size_t ap = line.find(" args=");
    std::string head = ap == std::string::npos ? line : line.substr(0, ap);
    std::string args = ap == std::string::npos ? "" : line.substr(ap + 6);
    std::istringstream hs(head);
    std::string field;
    while (hs >> field) {
      size_t eq = field.find('=');
      std::string k = field.substr(0, eq), v = eq == std::string::npos ? "" : field.substr(eq + 1);
      if (k == "ptx")
        I.ptx = v[0] == '/' ? v : base + "/" + v;
      else if (k == "sym")
        I.sym = v;
      else if (k == "name")
        I.name = v;
      else if (k == "pred")
        I.pred = v;
      else if (k == "class")
        I.cls = v;
      else if (k == "grid" && !parse_dims(v, I.grid))
        I.error = "bad grid " + v;
      else if (k == "block" && !parse_dims(v, I.block))
        I.error = "bad block " + v;
      else if (k == "smem") {
        char *end = nullptr;
        unsigned long b = std::strtoul(v.c_str(), &end, 10);
        if (v.empty() || *end || b > 48 * 1024)
          I.error = "bad smem " + v + " (dynamic shared memory bytes, at most 49152)";
        else
          I.smem = unsigned(b);
      }
      else if (k == "vary") {
        long long a = -1, c = 0;
        size_t colon = v.find(':');
        if (colon == std::string::npos || !to_i64(v.substr(0, colon), a) ||
            !to_i64(v.substr(colon + 1), c) || a < 0 || c == 0 || c > (1ll << 30) ||
            c < -(1ll << 30))
          I.error = "bad vary " + v + " (want PARAM:COUNT or PARAM:-COUNT)";
        I.vary_arg = (int)a;
        I.vary_down = c < 0;
        I.vary_count = (unsigned)(c < 0 ? -c : c);
      } else if (k == "vary_grid") {
        long long c = 0;
        if (!to_i64(v, c) || c < 1 || c > (1ll << 30))
          I.error = "bad vary_grid " + v;
        I.vary_grid = (unsigned)c;
      }
    }
    if (ap == std::string::npos && I.error.empty())
      I.error = "no args= field";
    std::istringstream as(args);
    std::string tok;
    while (as >> tok && I.error.empty()) {
      Arg a;
      std::string e;
      if (!parse_arg(tok, a, e))
        I.error = e;
      I.args.push_back(a);
    }
    if (I.error.empty() && I.vary_arg >= 0 &&
        (I.vary_arg >= (int)I.args.size() || I.args[I.vary_arg].kind != ArgKind::Scalar ||
         I.args[I.vary_arg].size != 4))
      I.error = strfmt("vary: parameter %d is not a 4-byte scalar", I.vary_arg);
    for (size_t i = 0; i < I.args.size() && I.error.empty(); ++i) {
      if (I.args[i].kind != ArgKind::Ptr)
        continue;
      int cur = (int)i;
      for (size_t hop = 0; I.args[cur].kind == ArgKind::Ptr; ++hop) {
        int r = I.args[cur].ref;
        if (r < 0 || r >= (int)I.args.size() || hop > I.args.size()) {
          I.error = strfmt("ptr of parameter %zu does not resolve", i);
          break;
        }
        cur = r;
      }
      if (I.error.empty() && I.args[cur].kind != ArgKind::Buf)
        I.error = strfmt("ptr of parameter %zu refers to a scalar", i);
    }
    if (I.sym.empty() || I.ptx.empty())
      I.error = "missing sym= or ptx=";
    out.push_back(std::move(I));
  }
  return true;
}

} // namespace pb
