// run_twice: the two modes that need no GPU and call no cu* function:
// --self-test (unit tests of the parser, buffer contents, comparison,
// verdicts, region checks, wire format and summary) and --dry-run (parse
// the manifest, generate every buffer, print what would be allocated and
// launched).

#include "run_twice.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace run_twice {

// ------------------------------------------------------------------ self test

namespace {

int g_fails = 0;
#define EXPECT(c)                                                                  \
  do {                                                                             \
    if (!(c)) {                                                                    \
      ++g_fails;                                                                   \
      printf("self-test FAILED line %d: %s\n", __LINE__, #c);                      \
    }                                                                              \
  } while (0)

template <class T> T elem_at(const std::vector<uint8_t> &b, size_t i) {
  T v;
  memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}

}  // namespace

int self_test() {
  // parser
  {
    Instance in;
    std::string err;
    bool ok = parse_line("ptx=a.ptx sym=_Z1fPfi name=x.cu:f#0 grid=4 block=32,2 pred=idempotent "
                         "class=conditional expect=conditional smem=128 args=buf:f32:10:rand "
                         "ptr:0+8 i32:-3 u32:4294967295 i64:-1 u64:18446744073709551615 "
                         "f32:1.5 f64:-2.25",
                         in, err);
    EXPECT(ok);
    EXPECT(in.grid[0] == 4 && in.grid[1] == 1 && in.grid[2] == 1);
    EXPECT(in.block[0] == 32 && in.block[1] == 2 && in.block[2] == 1);
    EXPECT(in.smem == 128 && in.pred == "idempotent" && in.cls == "conditional");
    EXPECT(in.args.size() == 8);
    if (in.args.size() == 8) {
      EXPECT(in.args[0].kind == ArgKind::Buf && in.args[0].count == 10);
      EXPECT(in.args[1].kind == ArgKind::Ptr && in.args[1].ref == 0 && in.args[1].off == 8);
      EXPECT(in.args[2].size == 4 && in.args[2].bits == 0xfffffffdull);
      EXPECT(in.args[3].size == 4 && in.args[3].bits == 0xffffffffull);
      EXPECT(in.args[4].size == 8 && in.args[4].bits == ~0ull);
      EXPECT(in.args[5].size == 8 && in.args[5].bits == ~0ull);
      float f;
      uint32_t fb = (uint32_t)in.args[6].bits;
      memcpy(&f, &fb, 4);
      EXPECT(in.args[6].size == 4 && f == 1.5f);
      double d;
      memcpy(&d, &in.args[7].bits, 8);
      EXPECT(in.args[7].size == 8 && d == -2.25);
    }
    Instance e0;
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 pred=idempotent args=", e0, err));
    EXPECT(e0.args.empty());
    const char *bad[] = {
        "ptx=a sym=b name=c grid=1 block=1 pred=maybe args=",
        "ptx=a sym=b name=c grid=0 block=1 args=",
        "ptx=a sym=b name=c grid=1 block=1",
        "sym=b name=c grid=1 block=1 args=",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:f16:4:zero",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:f32:4:randint:5:5",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:f32:4:bogus",
        "ptx=a sym=b name=c grid=1 block=1 args=i32:1 ptr:0+0",
        "ptx=a sym=b name=c grid=1 block=1 args=ptr:1 ptr:0",
        "ptx=a sym=b name=c grid=1 block=1 args=ptr:5",
        "ptx=a sym=b name=c grid=1 block=1 args=i32:4294967296",
        "ptx=a sym=b name=c grid=1 block=1 args=i32:x",
        "ptx=a sym=b name=c grid=1 block=1 args=buf:i32:4:const:1.5",
        "ptx=a sym=b name=c grid=1 block=1 bogus=1 args=",
    };
    for (const char *b : bad) {
      Instance x;
      std::string e;
      bool r = parse_line(b, x, e);
      EXPECT(!r);
      if (r) printf("  accepted: %s\n", b);
    }
    Instance ch;
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 args=buf:u8:64:zero ptr:0+16 ptr:1-4",
                      ch, err));
    int b = -1;
    int64_t off = 0;
    EXPECT(resolve_ptr(ch.args, 2, b, off, err) && b == 0 && off == 12);
  }
  // init
  {
    std::vector<uint8_t> v;
    Init in;
    in.kind = InitKind::Iota;
    fill_buffer(v, *elem_by_name("i32"), 100, in, 1);
    EXPECT(v.size() == 400 && elem_at<int32_t>(v, 0) == 0 && elem_at<int32_t>(v, 99) == 99);
    fill_buffer(v, *elem_by_name("f64"), 10, in, 1);
    EXPECT(elem_at<double>(v, 7) == 7.0);
    fill_buffer(v, *elem_by_name("u8"), 300, in, 1);
    EXPECT(v[299] == (uint8_t)299);
    in.kind = InitKind::Const;
    in.cval_f = -0.5;
    fill_buffer(v, *elem_by_name("f32"), 5, in, 1);
    EXPECT(elem_at<float>(v, 4) == -0.5f);
    in.cval_bits = (uint64_t)-7;
    fill_buffer(v, *elem_by_name("i64"), 5, in, 1);
    EXPECT(elem_at<int64_t>(v, 3) == -7);
    in.kind = InitKind::Zero;
    fill_buffer(v, *elem_by_name("u64"), 5, in, 1);
    EXPECT(v.size() == 40 && std::all_of(v.begin(), v.end(), [](uint8_t x) { return !x; }));
    in.kind = InitKind::Rand;
    fill_buffer(v, *elem_by_name("f32"), 10000, in, 42);
    bool inrange = true, neg = false, pos = false;
    for (size_t i = 0; i < 10000; ++i) {
      float f = elem_at<float>(v, i);
      if (!(f >= -1.0f && f < 1.0f)) inrange = false;
      neg |= f < -0.5f;
      pos |= f > 0.5f;
    }
    EXPECT(inrange && neg && pos);
    std::vector<uint8_t> w;
    fill_buffer(w, *elem_by_name("f32"), 10000, in, 42);
    EXPECT(v == w);  // deterministic
    fill_buffer(w, *elem_by_name("f32"), 10000, in, 43);
    EXPECT(v != w);  // seed matters
    fill_buffer(v, *elem_by_name("f64"), 10000, in, 42);
    inrange = true;
    for (size_t i = 0; i < 10000; ++i) {
      double d = elem_at<double>(v, i);
      if (!(d >= -1.0 && d < 1.0)) inrange = false;
    }
    EXPECT(inrange);
    fill_buffer(v, *elem_by_name("i32"), 10000, in, 42);
    int mn = 1000, mx = -1;
    for (size_t i = 0; i < 10000; ++i) {
      mn = std::min(mn, elem_at<int32_t>(v, i));
      mx = std::max(mx, elem_at<int32_t>(v, i));
    }
    EXPECT(mn == 0 && mx == 99);
    in.kind = InitKind::RandInt;
    in.lo = -5;
    in.hi = 3;
    fill_buffer(v, *elem_by_name("i64"), 10000, in, 9);
    int64_t lo = 100, hi = -100;
    for (size_t i = 0; i < 10000; ++i) {
      lo = std::min(lo, elem_at<int64_t>(v, i));
      hi = std::max(hi, elem_at<int64_t>(v, i));
    }
    EXPECT(lo == -5 && hi == 2);
    fill_buffer(v, *elem_by_name("f32"), 1000, in, 9);
    bool integral = true;
    for (size_t i = 0; i < 1000; ++i) {
      float f = elem_at<float>(v, i);
      if (f != std::floor(f) || f < -5 || f >= 3) integral = false;
    }
    EXPECT(integral);
    EXPECT(buffer_seed("a", 0) != buffer_seed("a", 1));
    EXPECT(buffer_seed("a", 0) != buffer_seed("b", 0));
    EXPECT(buffer_seed("a", 0) == buffer_seed("a", 0));
  }
  // compare
  {
    std::vector<std::vector<uint8_t>> a = {std::vector<uint8_t>(16, 1),
                                           std::vector<uint8_t>(8, 2), {}};
    std::vector<std::vector<uint8_t>> b = a;
    Diff d = compare_buffers(a, b);
    EXPECT(d.identical && d.count == 0 && d.buf == -1);
    b[1][5] = 9;
    b[1][7] = 9;
    d = compare_buffers(a, b);
    EXPECT(!d.identical && d.buf == 1 && d.offset == 5 && d.a == 2 && d.b == 9 &&
           d.count == 2);
    b[0][15] = 0;
    d = compare_buffers(a, b);
    EXPECT(!d.identical && d.buf == 0 && d.offset == 15 && d.count == 3);
  }
  // verdicts
  {
    EXPECT(verdict_for("idempotent", "identical") == "OK");
    EXPECT(verdict_for("idempotent", "differs") == "FALSE-IDEMPOTENT");
    EXPECT(verdict_for("not-idempotent", "differs") == "OK");
    EXPECT(verdict_for("not-idempotent", "identical") == "MISSED");
    EXPECT(verdict_for("none", "differs") == "NO-PREDICTION");
    EXPECT(verdict_for("idempotent", "error") == "ERROR");
  }
  // regions in manifest lines (the regions themselves: byte_ranges_self_test)
  {
    std::string err;
    Instance a, b, c;
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 wr=1:0-4 rd=0:0-8,1:2-3 args=", a, err));
    EXPECT(a.wr.checked && a.rd.checked && a.rd.allows(1, 2) && !a.rd.allows(1, 3));
    EXPECT(!parse_line("ptx=a sym=b name=c grid=1 block=1 rd=1:x args=", b, err) &&
           err.find("rd=") == 0);
    EXPECT(parse_line("ptx=a sym=b name=c grid=1 block=1 args=", c, err) && !c.rd.checked);
  }
  g_fails += byte_ranges_self_test();
  // results: the trip through the pipe, and a region failure counted once
  {
    Instance in;
    Result r;
    r.in = &in;
    r.observed = "identical";
    r.verdict = "OK";
    r.outside_bytes = 7;
    r.outside_param = 3;
    r.outside_offset = 40;
    r.read_bad = 5;
    r.read_param = 2;
    r.read_offset = 12;
    r.read_perturbed = 1234;
    std::string line = encode_result(5, r);
    line.pop_back();
    Result back;
    int idx = -1;
    EXPECT(decode_result(split(line, '\x1f'), back, idx) && idx == 5);
    EXPECT(back.outside_bytes == 7 && back.outside_param == 3 && back.outside_offset == 40);
    EXPECT(back.read_bad == 5 && back.read_param == 2 && back.read_offset == 12 &&
           back.read_perturbed == 1234);
    Result fi = r, missed = r;
    fi.verdict = "FALSE-IDEMPOTENT";  // already failed: its read failure adds nothing
    fi.outside_bytes = -1;
    missed.verdict = "MISSED";
    missed.outside_bytes = 0;
    missed.read_bad = -1;
    Summary s = summarize({r, fi, missed});
    EXPECT(s.write_checked == 2 && s.write_outside == 1 && s.read_checked == 2 &&
           s.read_outside == 2);
    EXPECT(s.passed == 1 && s.failed == 2);
    EXPECT(result_json(r).find("\"read_check\": {\"bad_bytes\": 5, \"perturbed_bytes\": 1234, "
                               "\"first\": {\"param\": 2, \"offset\": 12}}") !=
           std::string::npos);
    EXPECT(result_json(missed).find("\"read_check\": null") != std::string::npos);
  }
  printf("self-test: %s (%d failure%s)\n", g_fails ? "FAILED" : "passed", g_fails,
         g_fails == 1 ? "" : "s");
  return g_fails ? 1 : 0;
}

// -------------------------------------------------------------------- dry run

namespace {

std::string hexdump_vals(const std::vector<uint8_t> &b, const ElemInfo &e, size_t n) {
  std::string o;
  size_t cnt = std::min<size_t>(n, b.size() / e.size);
  for (size_t i = 0; i < cnt; ++i) {
    const uint8_t *p = b.data() + i * e.size;
    if (i) o += ' ';
    switch (e.t) {
    case ElemType::F32: { float f; memcpy(&f, p, 4); o += strfmt("%.6g", f); break; }
    case ElemType::F64: { double d; memcpy(&d, p, 8); o += strfmt("%.9g", d); break; }
    case ElemType::I32: { int32_t v; memcpy(&v, p, 4); o += strfmt("%d", v); break; }
    case ElemType::U32: { uint32_t v; memcpy(&v, p, 4); o += strfmt("%u", v); break; }
    case ElemType::I64: { int64_t v; memcpy(&v, p, 8); o += strfmt("%" PRId64, v); break; }
    case ElemType::U64: { uint64_t v; memcpy(&v, p, 8); o += strfmt("%" PRIu64, v); break; }
    case ElemType::I8: o += strfmt("%d", (int)(int8_t)*p); break;
    case ElemType::U8: o += strfmt("%u", (unsigned)*p); break;
    }
  }
  if (b.size() / e.size > cnt) o += " ...";
  return o;
}

}  // namespace

int dry_run(const std::vector<Instance> &ins) {
  int errors = 0;
  for (const Instance &in : ins) {
    printf("[%3d/%zu] %s  (manifest line %d)\n", in.index + 1, ins.size(), in.name.c_str(),
           in.line);
    if (!in.error.empty()) {
      printf("    ERROR %s\n", in.error.c_str());
      ++errors;
      continue;
    }
    printf("    load %s  symbol %s\n", in.ptx_resolved.c_str(), in.sym.c_str());
    printf("    launch grid=%u,%u,%u block=%u,%u,%u smem=%u  pred=%s class=%s%s%s\n",
           in.grid[0], in.grid[1], in.grid[2], in.block[0], in.block[1], in.block[2],
           in.smem, in.pred.c_str(), in.cls.c_str(), in.expect.empty() ? "" : " expect=",
           in.expect.c_str());
    uint64_t total = 0, wr_in = 0, rd_in = 0;  // rd_in/wr_in: bytes inside the regions
    for (size_t i = 0; i < in.args.size(); ++i) {
      const Arg &a = in.args[i];
      if (a.kind == ArgKind::Buf) {
        uint64_t bytes = a.count * a.elem->size;
        total += bytes;
        wr_in += in.wr.covered((int)i, bytes);
        rd_in += in.rd.covered((int)i, bytes);
        uint64_t seed = buffer_seed(in.name, (int)i);
        std::string contents = "not generated: over 256 MiB";
        if (bytes <= (256ull << 20)) {
          std::vector<uint8_t> v;
          fill_buffer(v, *a.elem, a.count, a.init, seed);
          contents = strfmt("fnv=0x%016" PRIx64 "  [%s]", fnv1a64(v.data(), v.size()),
                            hexdump_vals(v, *a.elem, 6).c_str());
        }
        printf("    param %zu: cuMemAlloc %" PRIu64 " bytes (%s x %" PRIu64
               ") init=%s seed=0x%016" PRIx64 " %s\n",
               i, bytes, a.elem->name, a.count, a.init.text.c_str(), seed, contents.c_str());
      } else if (a.kind == ArgKind::Ptr) {
        int b = -1;
        int64_t off = 0;
        std::string e;
        resolve_ptr(in.args, (int)i, b, off, e);
        printf("    param %zu: pointer = base of param %d %+" PRId64 " bytes\n", i, b, off);
      } else {
        printf("    param %zu: %s by value, %zu bytes = 0x%0*" PRIx64 "\n", i, a.stype.c_str(),
               a.size, (int)(a.size * 2), a.bits);
      }
    }
    printf("    total device memory %" PRIu64 " bytes; launch twice, compare S1/S2\n", total);
    printf("    write region: %s; read region: %s\n",
           in.wr.checked ? strfmt("%" PRIu64 " bytes may change", wr_in).c_str() : "not checked",
           in.rd.checked ? strfmt("%" PRIu64 " bytes may be read, %" PRIu64 " to perturb", rd_in,
                                  total - rd_in).c_str()
                         : "not checked");
  }
  printf("dry run: %zu instances, %d manifest errors\n", ins.size(), errors);
  fflush(stdout);
  return errors ? 1 : 0;
}

}  // namespace run_twice
