// preempt_bench: GPU harness of gmem's preemptible kernel clones.
//
//   preempt_bench correctness --manifest M --kernels K.ptx --json OUT
//                 [--trials N] [--budget S]
//   preempt_bench overhead    --manifest M --kernels K.ptx --json OUT [--budget S]
//   preempt_bench latency     --kernels K.ptx [--variant NAME=K2.ptx]... --json OUT
//                 [--trials N] [--budget S]
//   preempt_bench stops       --manifest M --kernels K.ptx --json OUT
//                 [--trials N] [--budget S]     (M: the overhead manifest)
//   preempt_bench dry-run     --manifest M        (parse only; no CUDA call)
//   preempt_bench self-test                       (no CUDA call)
// Common: [--device N] [--seed S].
//
// Environment (experiments; all off by default): PB_SEG_SCALE=s (0..3,
// the segment scale passed to clones with flag SegmentScale),
// PB_STOP_WINDOW=lo,hi and PB_STOP_ISSUE=direct (part stops: where in the
// run stops land, how the write is issued), PB_SPREAD=N (part stops: N
// times the resident CTAs), PB_NARROW=N (persistent clones with N fewer
// CTAs per SM than fit), PB_CARVEOUT=PCT or clones:PCT (every function's,
// or the clones', preferred shared-memory carveout; logs each function's
// static shared bytes, registers and CTAs per SM), PB_SPREAD_ALL=1 (part
// overhead: every form also at 4x its resident CTAs, `sall_*` keys).
//
// Manifest: test/gpu/run_twice.cpp's format (test/gpu/stage.py writes it):
// ptx= sym= name= grid= block= pred= class= ... args=TOKENS. A `.cubin` next
// to a `.ptx` is loaded instead of the PTX (bench/preempt/stage.sh makes
// them with ptxas). Each part forks workers that use CUDA; this process never
// does, so a kernel that faults or hangs costs one item, not the run
// (watchdog per item). Exit status: 0, 1 (JSON not written), 2 usage.
#include "parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <unistd.h>

namespace pb {

double percentile(std::vector<double> v, double p) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  double pos = p / 100.0 * (double)(v.size() - 1);
  size_t i = (size_t)pos;
  if (i + 1 >= v.size())
    return v.back();
  return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

int write_part_json(const PartOptions &o, const std::string &part,
                    const std::vector<std::string> &items) {
  std::vector<std::string> filled = items;
  for (std::string &s : filled)
    if (s.empty())
      s = Json().str("error", "not run (time budget or earlier failure)").text();
  time_t t = time(nullptr);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  std::string text = "{\"schema\": 1, \"part\": " + json_escape(part) +
                     ", \"command\": " + json_escape(o.command) + ", \"date\": \"" + date +
                     "\", \"trials\": " + std::to_string(o.trials) +
                     ", \"items\": " + json_array(filled) + "}\n";
  std::ofstream f(o.json);
  f << text;
  if (!f) {
    fprintf(stderr, "cannot write %s\n", o.json.c_str());
    return 1;
  }
  printf("%s: wrote %s (%zu items)\n", part.c_str(), o.json.c_str(), items.size());
  return 0;
}

int run_part(const PartOptions &o, const std::string &part, int n, double watchdog_s,
             const std::function<std::string(int, Worker &)> &item,
             const std::function<Json(int)> &ident, const std::function<std::string(int)> &label,
             const std::function<bool()> &stop_starting) {
  std::vector<std::string> results(n);
  supervise(
      n, watchdog_s,
      [&](int start, const Report &report) {
        Worker w;
        w.gpu.init(o.device);
        w.km.load(o.kernels);
        w.h.from(w.km);
        for (int i = start; i < n && !stop_starting(); ++i) {
          try {
            report(i, item(i, w));
          } catch (const HangError &e) {
            report(i, ident(i).str("error", e.what()).text());
            _exit(5);
          } catch (const CudaError &e) {
            report(i, ident(i).str("error", e.what()).text());
            if (e.sticky())
              _exit(5);
          } catch (const std::exception &e) {
            report(i, ident(i).str("error", e.what()).text());
          }
        }
      },
      [&](int i, const std::string &json) {
        results[i] = json;
        printf("[%d/%d] %s\n", i + 1, n, json.c_str());
        fflush(stdout);
      },
      [&](int i, const std::string &why) {
        results[i] = ident(i).str("error", why).text();
        printf("[%d/%d] %s: %s\n", i + 1, n, label(i).c_str(), why.c_str());
      });
  return write_part_json(o, part, results);
}

namespace {

int fails = 0;
#define EXPECT(c)                                                                   \
  do {                                                                              \
    if (!(c)) {                                                                     \
      ++fails;                                                                      \
      printf("self-test: FAILED %s (line %d)\n", #c, __LINE__);                     \
    }                                                                               \
  } while (0)

int self_test() {
  Arg a;
  std::string e;
  EXPECT(parse_arg("buf:f32:100:rand", a, e) && a.kind == ArgKind::Buf && a.count == 100 &&
         a.elem == 4 && a.mode == 0);
  EXPECT(parse_arg("buf:i32:10:randint:-5:7", a, e) && a.mode == 1 && a.lo == -5 && a.hi == 7);
  EXPECT(!parse_arg("buf:i32:10:randint:7:7", a, e));
  EXPECT(parse_arg("buf:u8:3:const:9", a, e) && a.mode == 4 && a.lo == 9);
  EXPECT(parse_arg("ptr:2+0x10", a, e) && a.kind == ArgKind::Ptr && a.ref == 2 && a.off == 16);
  EXPECT(parse_arg("ptr:1-8", a, e) && a.off == -8);
  EXPECT(parse_arg("f32:1.5", a, e) && a.size == 4 && a.bits == 0x3fc00000u);
  EXPECT(parse_arg("i32:-1", a, e) && a.size == 4 && a.bits == 0xffffffffu);
  EXPECT(parse_arg("u64:18446744073709551615", a, e) && a.bits == ~0ull);
  EXPECT(!parse_arg("q32:1", a, e));
  EXPECT(percentile({3, 1, 2}, 50) == 2 && percentile({1, 2}, 100) == 2);
  EXPECT(std::isnan(percentile({}, 50)));
  EXPECT(Json().str("a", "x\"y").integer("b", 2).text() == "{\"a\": \"x\\\"y\", \"b\": 2}");
  EXPECT(buffer_seed("k", 0) != buffer_seed("k", 1));
  std::vector<std::string> g = ptx_globals(
      ".visible .global .align 4 .u32 g_count;\n.global .align 8 .u64 g_ptr;\n"
      ".visible .global .align 4 .b8 __gmem_pre_info_k[20] = {71, 77, 80, 49, 2, 0, 0, 0, 16};\n"
      ".visible .global .align 4 .b8 tab[16] = {1, 2};\n\tld.global.u32 %r1, [g_count];\n"
      ".extern .global .align 4 .u32 ext;\n.const .align 4 .u32 c;\n");
  EXPECT(g.size() == 3 && g[0] == "g_count" && g[1] == "g_ptr" && g[2] == "tab");
  // Clone ABI version 2: info words, both kinds of control block.
  auto info = [](std::vector<uint32_t> w) {
    std::vector<uint8_t> b(w.size() * 4);
    memcpy(b.data(), w.data(), b.size());
    return parse_clone_info(b);
  };
  CloneInfo ci = info({0x31504d47u, 2, 0x15, 3, 16});
  EXPECT(ci.error.empty() && ci.persistent() && ci.loop_checkpoints == 3 && ci.interval_k == 16);
  ci = info({0x31504d47u, 2, 5, 1, 16});
  EXPECT(ci.error.empty() && !ci.persistent());
  ci = info({0x31504d47u, 1, 5, 1, 16});
  EXPECT(ci.error == "info version 1, harness expects 2");
  EXPECT(!info({0x12345678u, 2, 0, 0, 0}).error.empty());
  EXPECT(!info({0x31504d47u, 2, 10, 0, 0}).error.empty()); // NoClone
  EXPECT(!info({0x31504d47u, 2}).error.empty());            // short
  EXPECT(parse_clone_info({}).error == "no info global");
  // Flag bits 5..7: light twin, alternate, barrier-free (persistent clones
  // only); barrier-free does not imply the others (kernels without loops).
  ci = info({0x31504d47u, 2, 0x10 | 0x80, 0, 0});
  EXPECT(ci.error.empty() && ci.has_free() && !ci.has_light() && !ci.has_alt());
  ci = info({0x31504d47u, 2, 0x80 | 0x40 | 0x20, 1, 16}); // not persistent
  EXPECT(ci.error.empty() && !ci.has_free() && !ci.has_alt() && !ci.has_light());
  ci = info({0x31504d47u, 2, 0x71, 1, 16});
  EXPECT(ci.has_light() && ci.has_alt() && !ci.has_free());
  {
    // Flag bit 11: clones only for whole-warp rows; refused before any CUDA call.
    CloneLaunch cl;
    cl.info = info({0x31504d47u, 2, 0x10 | 0x800, 0, 0});
    const unsigned g[3] = {4, 1, 1}, b[3] = {48, 2, 1};
    EXPECT(cl.configure(g, b, 0, 1).find("not a multiple of 32") != std::string::npos);
  }
  EXPECT(std::string(form_name(Form::Free)) == "free" &&
         std::string(form_name(Form::Alt)) == "alt");
  EXPECT(ptx_has_entry(".visible .entry __gmem_prf_victim_loop(\n", "__gmem_prf_victim_loop"));
  EXPECT(!ptx_has_entry(".visible .entry __gmem_prf_victim_loop2(", "__gmem_prf_victim_loop"));
  EXPECT(!ptx_has_entry("// __gmem_prf_victim_loop\n.entry victim_loop(", "__gmem_prf_victim_loop"));
  EXPECT(ptx_has_entry(".entry\n\t__gmem_prf_k\n(", "__gmem_prf_k"));
  {
    // Not persistent: {request, reserved, bitmap}; 40 CTAs, 0, 2, 31 and 32
    // done (bit 8 of the second word is CTA 40, past the grid).
    uint32_t w[4] = {1, 0, 0x80000005u, 0x1u | 0x100u};
    EXPECT(ctl_work_done(w, 4, 40, 0) == 4);
    // Persistent, P = 2: {request, reserved, {redo, resume}[2]}. CTA 0 ran
    // 0, 2, 4, 6, 8 (resumes at 10) but 4 is to be redone; CTA 1 ran 1, 3, 5
    // (resumes at 7): 4 + 3 done. Finished CTAs resume past the total.
    uint32_t p[6] = {2, 0, 5, 11, 0, 8};
    EXPECT(ctl_work_done(p, 6, 100, 2) == 7);
    uint32_t q[6] = {0, 0, 0, 101, 0, 101};
    EXPECT(ctl_work_done(q, 6, 100, 2) == 100);
    uint32_t z[6] = {0, 0, 0, 0, 0, 0};
    EXPECT(ctl_work_done(z, 6, 100, 2) == 0);
    // Barrier-free form, P = 2: redo always 0; CTA 0's threads folded the
    // first unfinished ticket 6 (resume 7: 0, 2, 4 done), CTA 1 finished
    // (a stop between virtual CTAs past the end may fold more than total + 1).
    uint32_t f[6] = {2, 0, 0, 7, 0, 103};
    EXPECT(ctl_work_done(f, 6, 100, 2) == 3 + 50);
    // Balanced tail of 25%: tickets 75..99 are claimed. CTA 0 ran its 38
    // static ones and claimed 80 (held in its resume word, not started);
    // CTA 1 ran 1..9 (5). Six claims (75..80): five done.
    EXPECT(tail_static_end(100, 2, 25) == 75);
    EXPECT(tail_static_end(3, 2, 90) == 2); // at least P
    EXPECT(tail_static_end(2, 4, 50) == 2); // at most the total
    uint32_t t[6] = {1, 6, 0, 81, 0, 12};
    EXPECT(ctl_work_done(t, 6, 100, 2, 25) == 38 + 5 + 5);
    // CTA 0 is to redo claimed ticket 79 and then run 80; CTA 1 finished
    // its static ones (resume past the total): 38 + 37 + 4 claimed run.
    uint32_t r[6] = {2, 6, 80, 81, 0, 101};
    EXPECT(ctl_work_done(r, 6, 100, 2, 25) == 38 + 37 + 4);
    // Everything done: every claim past the total.
    uint32_t a[6] = {0, 27, 0, 101, 0, 101};
    EXPECT(ctl_work_done(a, 6, 100, 2, 25) == 100);
    ci = info({0x31504d47u, 2, 0x10u | 0x200u | (25u << 16), 0, 0});
    EXPECT(ci.tail_percent(Form::Alt) == 25 && ci.tail_percent(Form::Light) == 0 &&
           ci.tail_percent(Form::Full) == 0);
    ci = info({0x31504d47u, 2, 0x10u | 0x600u | (25u << 16), 0, 0});
    EXPECT(ci.tail_percent(Form::Light) == 25 && ci.tail_percent(Form::Free) == 0);
    ci = info({0x31504d47u, 2, 0x200u | (25u << 16), 0, 0});
    EXPECT(ci.tail_percent(Form::Alt) == 0); // not persistent
  }
  const char *path = "/tmp/preempt_bench_selftest_manifest.txt";
  {
    std::ofstream f(path);
    f << "# comment\nptx=p/a.ptx sym=_Z1kPfi name=a.cu:k#0 grid=4,2 block=256 pred=idempotent "
         "args=buf:f32:16:zero ptr:0+4 i32:16\nptx=b.ptx sym=s name=n grid=0 block=1 args=\n"
         "ptx=c.ptx sym=s name=v grid=1 block=1 vary=1:-3 args=buf:f32:16:zero i32:16\n"
         "ptx=c.ptx sym=s name=w grid=1 block=1 vary=0:3 args=buf:f32:16:zero i32:16\n"
         "ptx=c.ptx sym=s name=x grid=1 block=1 vary=1:0 args=buf:f32:16:zero i32:16\n"
         "ptx=c.ptx sym=s name=y grid=5 block=1 vary_grid=3 args=buf:f32:16:zero i32:16\n"
         "ptx=c.ptx sym=s name=z grid=5 block=64 smem=256 args=buf:f32:16:zero i32:16\n"
         "ptx=c.ptx sym=s name=u grid=5 block=64 smem=65536 args=buf:f32:16:zero i32:16\n";
  }
  std::vector<Instance> ins;
  EXPECT(read_manifest(path, ins, e) && ins.size() == 8);
  if (ins.size() == 8) {
    EXPECT(ins[6].error.empty() && ins[6].smem == 256 && ins[0].smem == 0);
    EXPECT(!ins[7].error.empty()); // over the 48 KiB a launch gets without opting in
    EXPECT(ins[5].error.empty() && ins[5].grid_x(0) == 5 && ins[5].grid_x(2) == 3 &&
           ins[5].grid_x(3) == 5 && ins[0].grid_x(7) == 4);
    EXPECT(ins[0].error.empty() && ins[0].ctas() == 8 && ins[0].args.size() == 3 &&
           ins[0].ptx == "/tmp/p/a.ptx" && ins[0].pred == "idempotent" && ins[0].vary_arg < 0);
    EXPECT(!ins[1].error.empty()); // grid 0
    EXPECT(ins[2].error.empty() && ins[2].vary_arg == 1 && ins[2].vary_count == 3 &&
           ins[2].vary_down);
    EXPECT(!ins[3].error.empty()); // a buffer cannot vary
    EXPECT(!ins[4].error.empty()); // no values
  }
  remove(path);
  printf("self-test: %s (%d failures)\n", fails ? "FAILED" : "passed", fails);
  return fails ? 1 : 0;
}

int dry_run(const PartOptions &o) {
  std::vector<Instance> ins;
  if (!load_manifest("dry-run", o.manifest, ins))
    return 2;
  int bad = 0;
  uint64_t bytes = 0;
  for (const Instance &in : ins) {
    for (const Arg &a : in.args)
      if (a.kind == ArgKind::Buf)
        bytes += a.count * a.elem;
    if (!in.error.empty()) {
      ++bad;
      printf("line %d %s: %s\n", in.line, in.name.c_str(), in.error.c_str());
    }
  }
  printf("dry run: %zu instances, %d with errors, %.1f MiB of buffers\n", ins.size(), bad,
         (double)bytes / (1 << 20));
  return bad ? 1 : 0;
}

void usage() {
  fprintf(stderr,
          "usage: preempt_bench correctness|overhead|latency|stops|aslaunched|dry-run|self-test\n"
          "       [--manifest M] [--kernels K.ptx] [--variant NAME=PATH]... [--json OUT]\n"
          "       [--trials N] [--budget SECONDS] [--device N] [--seed S]\n"
          "       latency: [--victim victim_loop|victim_tiled|victim_accum] [--row VARIANT]...\n");
}

} // namespace
} // namespace pb

int main(int argc, char **argv) {
  using namespace pb;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc < 2) {
    usage();
    return 2;
  }
  std::string mode = argv[1];
  PartOptions o;
  for (int i = 0; i < argc; ++i)
    o.command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        exit(2);
      }
      return argv[++i];
    };
    if (a == "--manifest")
      o.manifest = next();
    else if (a == "--kernels")
      o.kernels = next();
    else if (a == "--variant")
      o.variants.push_back(next());
    else if (a == "--json")
      o.json = next();
    else if (a == "--trials")
      o.trials = atoi(next().c_str());
    else if (a == "--budget")
      o.budget_s = atof(next().c_str());
    else if (a == "--device")
      o.device = atoi(next().c_str());
    else if (a == "--seed")
      o.seed = strtoull(next().c_str(), nullptr, 0);
    else if (a == "--victim")
      o.victim = next();
    else if (a == "--row")
      o.rows.push_back(next());
    else {
      usage();
      return 2;
    }
  }
  for (const std::string &v : o.variants)
    if (v.find('=') == std::string::npos) {
      fprintf(stderr, "--variant takes NAME=PATH, got '%s'\n", v.c_str());
      return 2;
    }
  if (mode == "self-test")
    return self_test();
  if (mode == "dry-run")
    return o.manifest.empty() ? (usage(), 2) : dry_run(o);
  bool needs_manifest = mode == "correctness" || mode == "overhead" || mode == "stops" ||
                        mode == "aslaunched";
  if ((mode != "latency" && !needs_manifest) || o.kernels.empty() || o.json.empty() ||
      (needs_manifest && o.manifest.empty()) || o.trials < 1 || !(o.budget_s > 0)) {
    usage();
    return 2;
  }
  if (mode == "correctness")
    return run_correctness(o);
  if (mode == "overhead")
    return run_overhead(o);
  if (mode == "stops")
    return run_stops(o);
  if (mode == "aslaunched")
    return run_aslaunched(o);
  return run_latency(o);
}
