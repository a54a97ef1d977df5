// run_twice: what goes into the buffers (element types, INIT kinds, the
// splitmix64 stream seeded by name and parameter) and the manifest parser
// (KEY=VALUE fields, ARG tokens, ptr chains).  The manifest format is
// documented at the top of run_twice.cpp.

#include "run_twice.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace run_twice {

// ---------------------------------------------------------------- PRNG / init

namespace {

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t fnv1a64(const void *data, size_t n, uint64_t h) {  // default h: run_twice.h
  const unsigned char *p = (const unsigned char *)data;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t buffer_seed(const std::string &name, int param) {
  uint64_t s = fnv1a64(name.data(), name.size()) ^
               ((uint64_t)(param + 1) * 0x9E3779B97F4A7C15ull);
  return splitmix64(s);
}

const ElemInfo kElems[] = {
    {"f32", ElemType::F32, 4, true, true},  {"f64", ElemType::F64, 8, true, true},
    {"i32", ElemType::I32, 4, false, true}, {"u32", ElemType::U32, 4, false, false},
    {"i64", ElemType::I64, 8, false, true}, {"u64", ElemType::U64, 8, false, false},
    {"i8", ElemType::I8, 1, false, true},   {"u8", ElemType::U8, 1, false, false},
};

const ElemInfo *elem_by_name(const std::string &n) {
  for (const ElemInfo &e : kElems)
    if (n == e.name) return &e;
  return nullptr;
}

namespace {

// store an integer value (two's complement bits) or a double into element i
void store_int(uint8_t *dst, const ElemInfo &e, uint64_t bits) {
  switch (e.t) {
  case ElemType::F32: { float f = (float)(int64_t)bits; memcpy(dst, &f, 4); break; }
  case ElemType::F64: { double d = (double)(int64_t)bits; memcpy(dst, &d, 8); break; }
  case ElemType::I32: case ElemType::U32: { uint32_t v = (uint32_t)bits; memcpy(dst, &v, 4); break; }
  case ElemType::I64: case ElemType::U64: memcpy(dst, &bits, 8); break;
  case ElemType::I8: case ElemType::U8: { uint8_t v = (uint8_t)bits; *dst = v; break; }
  }
}

void store_float(uint8_t *dst, const ElemInfo &e, double d) {
  if (e.t == ElemType::F32) {
    float f = (float)d;
    memcpy(dst, &f, 4);
  } else {
    memcpy(dst, &d, 8);
  }
}

}  // namespace

// Fill `out` (count*size bytes) deterministically.
void fill_buffer(std::vector<uint8_t> &out, const ElemInfo &e, uint64_t count,
                 const Init &init, uint64_t seed) {
  out.assign((size_t)(count * e.size), 0);
  uint64_t st = seed;
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t *dst = out.data() + i * e.size;
    switch (init.kind) {
    case InitKind::Zero: break;
    case InitKind::Iota: store_int(dst, e, i); break;
    case InitKind::Const:
      if (e.is_float) store_float(dst, e, init.cval_f);
      else store_int(dst, e, init.cval_bits);
      break;
    case InitKind::Rand: {
      uint64_t r = splitmix64(st);
      if (e.t == ElemType::F32)
        store_float(dst, e, (double)(float)((double)(r >> 40) * (2.0 / 16777216.0) - 1.0));
      else if (e.t == ElemType::F64)
        store_float(dst, e, (double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0);
      else
        store_int(dst, e, r % 100);
      break;
    }
    case InitKind::RandInt: {
      uint64_t r = splitmix64(st);
      uint64_t span = (uint64_t)init.hi - (uint64_t)init.lo;
      store_int(dst, e, (uint64_t)init.lo + r % span);
      break;
    }
    }
  }
}

// ------------------------------------------------------------------- manifest

namespace {

bool parse_dims(const std::string &s, unsigned d[3], std::string &err) {
  std::vector<std::string> p = split(s, ',');
  if (p.empty() || p.size() > 3) {
    err = "bad dims '" + s + "'";
    return false;
  }
  for (int i = 0; i < 3; ++i) d[i] = 1;
  for (size_t i = 0; i < p.size(); ++i) {
    uint64_t v;
    if (!parse_u64(p[i], v) || v == 0 || v > 0xffffffffull) {
      err = "bad dims '" + s + "'";
      return false;
    }
    d[i] = (unsigned)v;
  }
  return true;
}

bool parse_arg(const std::string &tok, Arg &a, std::string &err) {
  a.tok = tok;
  std::vector<std::string> f = split(tok, ':');
  const std::string &k = f[0];
  if (k == "buf") {
    if (f.size() < 4) {
      err = "buf needs buf:T:COUNT:INIT: '" + tok + "'";
      return false;
    }
    a.kind = ArgKind::Buf;
    a.elem = elem_by_name(f[1]);
    if (!a.elem) {
      err = "unknown element type '" + f[1] + "' in '" + tok + "'";
      return false;
    }
    if (!parse_u64(f[2], a.count)) {
      err = "bad COUNT in '" + tok + "'";
      return false;
    }
    if (a.count > (UINT64_MAX / 16)) {
      err = "COUNT too large in '" + tok + "'";
      return false;
    }
    const std::string &ik = f[3];
    a.init.text = tok.substr(tok.find(':', tok.find(':', 4) + 1) + 1);
    if (ik == "rand" && f.size() == 4) {
      a.init.kind = InitKind::Rand;
    } else if (ik == "zero" && f.size() == 4) {
      a.init.kind = InitKind::Zero;
    } else if (ik == "iota" && f.size() == 4) {
      a.init.kind = InitKind::Iota;
    } else if (ik == "randint" && f.size() == 6) {
      a.init.kind = InitKind::RandInt;
      if (!parse_i64(f[4], a.init.lo) || !parse_i64(f[5], a.init.hi) ||
          a.init.lo >= a.init.hi) {
        err = "bad randint:LO:HI (need integers, LO < HI) in '" + tok + "'";
        return false;
      }
    } else if (ik == "const" && f.size() == 5) {
      a.init.kind = InitKind::Const;
      if (a.elem->is_float) {
        if (!parse_double(f[4], a.init.cval_f)) {
          err = "bad const value in '" + tok + "'";
          return false;
        }
      } else if (!parse_int_bits(f[4], a.init.cval_bits)) {
        err = "bad integer const value in '" + tok + "'";
        return false;
      }
    } else {
      err = "bad INIT in '" + tok + "'";
      return false;
    }
    return true;
  }
  if (k == "ptr") {
    if (f.size() != 2) {
      err = "ptr needs ptr:K+OFF: '" + tok + "'";
      return false;
    }
    a.kind = ArgKind::Ptr;
    std::string s = f[1];
    size_t p = s.find_first_of("+-");
    std::string ks = p == std::string::npos ? s : s.substr(0, p);
    int64_t kv;
    uint64_t off = 0;
    if (!parse_i64(ks, kv) || kv < 0 || kv > 100000 ||
        (p != std::string::npos && !parse_u64(s.substr(p + 1), off))) {
      err = "bad ptr token '" + tok + "'";
      return false;
    }
    a.ref = (int)kv;
    a.off = (p != std::string::npos && s[p] == '-') ? -(int64_t)off : (int64_t)off;
    return true;
  }
  if (f.size() != 2) {
    err = "bad argument token '" + tok + "'";
    return false;
  }
  a.kind = ArgKind::Scalar;
  a.stype = k;
  const std::string &v = f[1];
  if (k == "i32" || k == "u32") {
    uint64_t bits;
    int64_t sv;
    bool ok = parse_int_bits(v, bits);
    if (ok && parse_i64(v, sv)) ok = sv >= INT32_MIN && sv <= (int64_t)UINT32_MAX;
    if (!ok) {
      err = "bad 32-bit integer in '" + tok + "'";
      return false;
    }
    a.size = 4;
    a.bits = bits & 0xffffffffull;
  } else if (k == "i64" || k == "u64") {
    if (!parse_int_bits(v, a.bits)) {
      err = "bad 64-bit integer in '" + tok + "'";
      return false;
    }
    a.size = 8;
  } else if (k == "f32") {
    double d;
    if (!parse_double(v, d)) {
      err = "bad float in '" + tok + "'";
      return false;
    }
    float fl = (float)d;
    uint32_t b;
    memcpy(&b, &fl, 4);
    a.size = 4;
    a.bits = b;
  } else if (k == "f64") {
    double d;
    if (!parse_double(v, d)) {
      err = "bad double in '" + tok + "'";
      return false;
    }
    memcpy(&a.bits, &d, 8);
    a.size = 8;
  } else {
    err = "unknown argument kind '" + k + "' in '" + tok + "'";
    return false;
  }
  return true;
}

}  // namespace

// resolve ptr chains: buffer index and total offset for parameter i
bool resolve_ptr(const std::vector<Arg> &args, int i, int &buf, int64_t &off,
                 std::string &err) {
  off = 0;
  int cur = i;
  for (size_t steps = 0; steps <= args.size(); ++steps) {
    const Arg &a = args[(size_t)cur];
    if (a.kind == ArgKind::Buf) {
      buf = cur;
      return true;
    }
    if (a.kind != ArgKind::Ptr) {
      err = strfmt("ptr in parameter %d refers to scalar parameter %d", i, cur);
      return false;
    }
    if (a.ref < 0 || (size_t)a.ref >= args.size()) {
      err = strfmt("ptr in parameter %d refers to parameter %d, which does not exist", i,
                   a.ref);
      return false;
    }
    off += a.off;
    cur = a.ref;
  }
  err = strfmt("ptr in parameter %d: reference cycle", i);
  return false;
}

bool parse_line(const std::string &line, Instance &in, std::string &err) {
  // find " args=" (or leading "args=") and split
  std::string head = line, tail;
  bool have_args = false;
  {
    size_t p = 0;
    for (;;) {
      p = line.find("args=", p);
      if (p == std::string::npos) break;
      if (p == 0 || isspace((unsigned char)line[p - 1])) {
        head = line.substr(0, p);
        tail = line.substr(p + 5);
        have_args = true;
        break;
      }
      p += 5;
    }
  }
  if (!have_args) {
    err = "missing args= field";
    return false;
  }
  bool have[5] = {false, false, false, false, false};
  for (const std::string &f : split_ws(head)) {
    size_t eq = f.find('=');
    if (eq == std::string::npos || eq == 0) {
      err = "field without KEY=: '" + f + "'";
      return false;
    }
    std::string k = f.substr(0, eq), v = f.substr(eq + 1);
    if (k == "ptx") { in.ptx = v; have[0] = true; }
    else if (k == "sym") { in.sym = v; have[1] = true; }
    else if (k == "name") { in.name = v; have[2] = true; }
    else if (k == "grid") { if (!parse_dims(v, in.grid, err)) return false; have[3] = true; }
    else if (k == "block") { if (!parse_dims(v, in.block, err)) return false; have[4] = true; }
    else if (k == "pred") {
      if (v != "idempotent" && v != "not-idempotent" && v != "none") {
        err = "pred must be idempotent, not-idempotent or none, got '" + v + "'";
        return false;
      }
      in.pred = v;
    } else if (k == "class") in.cls = v;
    else if (k == "expect") in.expect = v;
    else if (k == "wr" || k == "rd") {
      if (!(k == "wr" ? in.wr : in.rd).parse(v, err)) {
        err = k + "=: " + err;
        return false;
      }
    }
    else if (k == "smem") {
      uint64_t s;
      if (!parse_u64(v, s) || s > 0x7fffffff) {
        err = "bad smem '" + v + "'";
        return false;
      }
      in.smem = (unsigned)s;
    } else {
      err = "unknown field '" + k + "'";
      return false;
    }
  }
  static const char *names[5] = {"ptx", "sym", "name", "grid", "block"};
  for (int i = 0; i < 5; ++i)
    if (!have[i]) {
      err = std::string("missing ") + names[i] + "= field";
      return false;
    }
  std::vector<std::string> toks = split_ws(tail);
  in.args_text.clear();
  for (size_t i = 0; i < toks.size(); ++i) {
    if (i) in.args_text += ' ';
    in.args_text += toks[i];
    Arg a;
    if (!parse_arg(toks[i], a, err)) {
      err = strfmt("parameter %zu: ", i) + err;
      return false;
    }
    in.args.push_back(a);
  }
  for (size_t i = 0; i < in.args.size(); ++i) {
    if (in.args[i].kind != ArgKind::Ptr) continue;
    int b;
    int64_t off;
    if (!resolve_ptr(in.args, (int)i, b, off, err)) return false;
  }
  return true;
}

bool read_manifest(const std::string &path, std::vector<Instance> &out, std::string &err) {
  FILE *f = fopen(path.c_str(), "r");
  if (!f) {
    err = "cannot open manifest '" + path + "': " + strerror(errno);
    return false;
  }
  std::string dir = dirname_of(path);
  std::string line;
  int lineno = 0;
  char buf[4096];
  bool eof = false;
  while (!eof) {
    line.clear();
    for (;;) {
      if (!fgets(buf, sizeof buf, f)) {
        eof = true;
        break;
      }
      line += buf;
      if (!line.empty() && line.back() == '\n') break;
    }
    if (eof && line.empty()) break;
    ++lineno;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    Instance in;
    in.index = (int)out.size();
    in.line = lineno;
    in.raw = line;
    std::string perr;
    if (!parse_line(line, in, perr)) {
      in.error = strfmt("manifest line %d: ", lineno) + perr;
      in.args.clear();
    }
    if (in.name.empty()) in.name = strfmt("line%d", lineno);
    if (!in.ptx.empty())
      in.ptx_resolved = in.ptx[0] == '/' ? in.ptx : dir + "/" + in.ptx;
    out.push_back(in);
  }
  fclose(f);
  return true;
}

}  // namespace run_twice
