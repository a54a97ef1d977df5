//===- ReportTest.cpp - text and JSON renderings --------------------------===//

#include "gmem/compiler/Report.h"

#include "gtest/gtest.h"

#include <cctype>
#include <string>
#include <vector>

using namespace gmem;

namespace {

ExprRef C(int64_t V) { return Expr::constant(V); }
ExprRef A(unsigned I) { return Expr::variable(Var::arg(I)); }

//===----------------------------------------------------------------------===//
// A small strict JSON validator (RFC 8259 grammar, no extensions).
//===----------------------------------------------------------------------===//

class JsonValidator {
public:
  explicit JsonValidator(const std::string &S) : S(S) {}

  /// True when the whole text is exactly one JSON value.
  bool valid() {
    Pos = 0;
    Depth = 0;
    ws();
    if (!value())
      return false;
    ws();
    return Pos == S.size();
  }
  size_t errorAt() const { return Pos; }

private:
  bool eof() const { return Pos >= S.size(); }
  char peek() const { return eof() ? '\0' : S[Pos]; }
  void ws() {
    while (!eof() && (S[Pos] == ' ' || S[Pos] == '\n' || S[Pos] == '\t' || S[Pos] == '\r'))
      ++Pos;
  }
  bool lit(const char *L) {
    size_t N = std::char_traits<char>::length(L);
    if (S.compare(Pos, N, L) != 0)
      return false;
    Pos += N;
    return true;
  }
  bool value() {
    if (++Depth > 200)
      return false;
    bool Ok;
    switch (peek()) {
    case '{': Ok = object(); break;
    case '[': Ok = array(); break;
    case '"': Ok = string(); break;
    case 't': Ok = lit("true"); break;
    case 'f': Ok = lit("false"); break;
    case 'n': Ok = lit("null"); break;
    default: Ok = number(); break;
    }
    --Depth;
    return Ok;
  }
  bool object() {
    ++Pos; // {
    ws();
    if (peek() == '}') {
      ++Pos;
      return true;
    }
    for (;;) {
      ws();
      if (peek() != '"' || !string())
        return false;
      ws();
      if (peek() != ':')
        return false;
      ++Pos;
      ws();
      if (!value())
        return false;
      ws();
      if (peek() == ',') {
        ++Pos;
        continue;
      }
      if (peek() == '}') {
        ++Pos;
        return true;
      }
      return false;
    }
  }
  bool array() {
    ++Pos; // [
    ws();
    if (peek() == ']') {
      ++Pos;
      return true;
    }
    for (;;) {
      ws();
      if (!value())
        return false;
      ws();
      if (peek() == ',') {
        ++Pos;
        continue;
      }
      if (peek() == ']') {
        ++Pos;
        return true;
      }
      return false;
    }
  }
  bool string() {
    ++Pos; // "
    while (!eof()) {
      unsigned char Ch = static_cast<unsigned char>(S[Pos]);
      if (Ch == '"') {
        ++Pos;
        return true;
      }
      if (Ch < 0x20)
        return false; // raw control character
      if (Ch == '\\') {
        ++Pos;
        if (eof())
          return false;
        char E = S[Pos];
        if (E == 'u') {
          for (int I = 1; I <= 4; ++I)
            if (Pos + I >= S.size() || !std::isxdigit(static_cast<unsigned char>(S[Pos + I])))
              return false;
          Pos += 5;
          continue;
        }
        if (std::string("\"\\/bfnrt").find(E) == std::string::npos)
          return false;
      }
      ++Pos;
    }
    return false;
  }
  bool number() {
    size_t Start = Pos;
    if (peek() == '-')
      ++Pos;
    if (peek() == '0') {
      ++Pos;
    } else {
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        return false;
      while (std::isdigit(static_cast<unsigned char>(peek())))
        ++Pos;
    }
    if (peek() == '.') {
      ++Pos;
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        return false;
      while (std::isdigit(static_cast<unsigned char>(peek())))
        ++Pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++Pos;
      if (peek() == '+' || peek() == '-')
        ++Pos;
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        return false;
      while (std::isdigit(static_cast<unsigned char>(peek())))
        ++Pos;
    }
    return Pos > Start;
  }

  const std::string &S;
  size_t Pos = 0;
  int Depth = 0;
};

::testing::AssertionResult ValidJson(const std::string &Text) {
  JsonValidator V(Text);
  if (V.valid())
    return ::testing::AssertionSuccess();
  size_t At = V.errorAt();
  size_t From = At > 40 ? At - 40 : 0;
  return ::testing::AssertionFailure() << "invalid JSON near byte " << At << ": ..."
                                       << Text.substr(From, 80) << "...";
}

bool contains(const std::string &Hay, const std::string &Needle) {
  return Hay.find(Needle) != std::string::npos;
}

TEST(JsonValidatorSelfTest, AcceptsAndRejects) {
  EXPECT_TRUE(ValidJson(R"({"a": [1, -2.5e3, true, false, null, "x\"\\\u00e9"], "b": {}})"));
  EXPECT_TRUE(ValidJson("[]"));
  EXPECT_FALSE(ValidJson("{\"a\": 1,}"));
  EXPECT_FALSE(ValidJson("{\"a\" 1}"));
  EXPECT_FALSE(ValidJson("[1 2]"));
  EXPECT_FALSE(ValidJson("\"raw\ttab\""));
  EXPECT_FALSE(ValidJson("\"bad \\x escape\""));
  EXPECT_FALSE(ValidJson("{} {}"));
  EXPECT_FALSE(ValidJson("01"));
  EXPECT_FALSE(ValidJson("\"unterminated"));
}

//===----------------------------------------------------------------------===//
// jsonEscape
//===----------------------------------------------------------------------===//

TEST(ReportJsonEscape, QuotesBackslashesAndControls) {
  EXPECT_EQ(jsonEscape(""), "");
  EXPECT_EQ(jsonEscape("plain text"), "plain text");
  EXPECT_EQ(jsonEscape("say \"hi\""), "say \\\"hi\\\"");
  EXPECT_EQ(jsonEscape("a\\b"), "a\\\\b");
  EXPECT_EQ(jsonEscape("l1\nl2"), "l1\\nl2");
  EXPECT_EQ(jsonEscape("t\tx"), "t\\tx");
  EXPECT_EQ(jsonEscape(std::string("\x01\x1f", 2)), "\\u0001\\u001f");
  EXPECT_EQ(jsonEscape(std::string("a\0b", 3)), "a\\u0000b");
  EXPECT_EQ(jsonEscape("\r\b\f"), "\\u000d\\u0008\\u000c");
  // UTF-8 passes through unchanged; DEL and '/' need no escape.
  EXPECT_EQ(jsonEscape("caf\xC3\xA9 \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(jsonEscape("a/b\x7f"), "a/b\x7f");
  // Every byte below 0x20 comes out escaped and the result is a valid
  // JSON string body.
  std::string All;
  for (int I = 0; I < 0x80; ++I)
    All += char(I);
  std::string E = jsonEscape(All);
  for (unsigned char Ch : E)
    EXPECT_GE(Ch, 0x20);
  EXPECT_TRUE(ValidJson("\"" + E + "\""));
}

//===----------------------------------------------------------------------===//
// Descriptors
//===----------------------------------------------------------------------===//

KernelDescriptor sample() {
  KernelDescriptor K;
  K.Symbol = "_Z6vecaddPKfS0_Pfi";
  K.Name = "vecadd(float const*, float const*, float*, int)";
  K.PlainName = "vecadd";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::Conditional;
  K.ClassReason = "idempotent unless \"c\" aliases a or b\n(see regions)";
  ExprRef Hi = Expr::mul(C(4), A(3));
  ParamInfo Pa;
  Pa.Name = "a";
  Pa.Type = ScalarType::Ptr;
  Pa.IsPointer = true;
  Pa.Read.Kind = RegionKind::Bounded;
  Pa.Read.Ranges = {{C(0), Hi}};
  Pa.Read.Checks = {{A(3), 0, 536870911}};
  ParamInfo Pb = Pa;
  Pb.Name = "b\"q";
  Pb.Read.Kind = RegionKind::Allocation;
  Pb.Read.Ranges.clear();
  Pb.Read.Checks.clear();
  Pb.Read.Reason = "indirect\tindex";
  Pb.Atomic = true;
  ParamInfo Pc;
  Pc.Name = "c";
  Pc.Type = ScalarType::Ptr;
  Pc.IsPointer = true;
  Pc.RWDisjoint = true;
  Pc.Write.Kind = RegionKind::Bounded;
  Pc.Write.Ranges = {{C(0), Hi}, {Expr::add(Hi, C(-4)), Expr::smin(Hi, C(64))}};
  Pc.Read = Pc.Write;
  ParamInfo Pn;
  Pn.Name = "n";
  Pn.Type = ScalarType::I32;
  K.Params = {Pa, Pb, Pc, Pn};
  ParamInfo G;
  G.Name = "g_lut";
  G.Type = ScalarType::Ptr;
  G.IsPointer = true;
  G.Read.Kind = RegionKind::Bounded;
  G.Read.Ranges = {{C(0), C(256)}};
  K.Globals = {G};
  K.UnknownWrite.Kind = RegionKind::Anything;
  K.UnknownWrite.Reason = "store through a loaded pointer";
  return K;
}

TEST(ReportKernelJson, IsValidJsonWithTheSchemaKeys) {
  KernelDescriptor K = sample();
  for (int Indent : {0, 4}) {
    std::string J = kernelJson(K, Indent);
    EXPECT_TRUE(ValidJson(J)) << J;
    EXPECT_TRUE(contains(J, "\"symbol\": \"_Z6vecaddPKfS0_Pfi\"")) << J;
    EXPECT_TRUE(contains(J, "\"plain_name\": \"vecadd\""));
    EXPECT_TRUE(contains(J, "\"target\": \"nvptx\""));
    EXPECT_TRUE(contains(J, "\"class\": \"conditional\""));
    EXPECT_TRUE(contains(J, "\"class_reason\": \"idempotent unless \\\"c\\\" aliases a or b\\n"));
    EXPECT_TRUE(contains(J, "\"args\": ["));
    EXPECT_TRUE(contains(J, "\"index\": 3, \"name\": \"n\", \"type\": \"i32\", \"pointer\": false"));
    EXPECT_TRUE(contains(J, "\"name\": \"b\\\"q\""));
    EXPECT_TRUE(contains(J, "\"kind\": \"bounded\", \"ranges\": [{\"lo\": \"0\", \"hi\": \"4*n\"}]"))
        << J;
    EXPECT_TRUE(contains(J, "{\"value\": \"n\", \"min\": 0, \"max\": 536870911}"));
    EXPECT_TRUE(contains(J, "\"kind\": \"allocation\""));
    EXPECT_TRUE(contains(J, "\"reason\": \"indirect\\tindex\""));
    EXPECT_TRUE(contains(J, "\"atomic\": true"));
    EXPECT_TRUE(contains(J, "\"rw_disjoint_proven\": true"));
    EXPECT_TRUE(contains(J, "\"write_region\": null"));
    EXPECT_TRUE(contains(J, "\"globals\": ["));
    EXPECT_TRUE(contains(J, "\"symbol\": \"g_lut\""));
    EXPECT_TRUE(contains(J, "\"unknown_read\": null"));
    EXPECT_TRUE(contains(J, "\"unknown_write\": {\"kind\": \"anything\""));
    EXPECT_EQ(J.substr(0, size_t(Indent) + 1), std::string(size_t(Indent), ' ') + "{");
  }
}

TEST(ReportKernelJson, EmptyDescriptorIsValidJson) {
  KernelDescriptor K;
  std::string J = kernelJson(K, 2);
  EXPECT_TRUE(ValidJson(J)) << J;
  EXPECT_TRUE(contains(J, "\"args\": []"));
  EXPECT_TRUE(contains(J, "\"globals\": []"));
  EXPECT_TRUE(contains(J, "\"class\": \"unknown\""));
}

TEST(ReportKernelJson, HostileNamesStayValid) {
  KernelDescriptor K = sample();
  K.Symbol = std::string("sym\x01\"\\\n", 7);
  K.Params[0].Name = "x\"}]";
  K.Globals[0].Name = "g\x1b[0m";
  K.UnknownWrite.Reason = "\"\\\"";
  std::string J = kernelJson(K, 0);
  EXPECT_TRUE(ValidJson(J)) << J;
  // Names used inside rendered expressions are escaped too.
  K.Params[3].Name = "n\"";
  J = kernelJson(K, 0);
  EXPECT_TRUE(ValidJson(J)) << J;
  EXPECT_TRUE(contains(J, "4*n\\\"")) << J;
}

TEST(ReportInstance, InstanceJsonAndText) {
  KernelDescriptor K = sample();
  K.UnknownWrite = AccessRegion();
  K.Params[1].Read = K.Params[0].Read; // b bounded too
  K.Params[2].RWDisjoint = false;
  LaunchConfig L;
  L.Grid[0] = 4;
  L.Block[0] = 128;
  L.ArgBits = {0x10000, 0x20000, 0x10000, 100};
  auto Find = [](uint64_t P) -> std::optional<Allocation> {
    if (P >= 0x10000 && P < 0x30000)
      return Allocation{P & ~uint64_t(0xffff), 0x10000};
    return std::nullopt;
  };
  InstanceDecision D = checkInstance(K, L, Find);
  ASSERT_FALSE(D.Idempotent);
  std::string J = instanceJson(K, L, D, 0);
  EXPECT_TRUE(ValidJson(J)) << J;
  EXPECT_TRUE(contains(J, "\"kernel\": \"_Z6vecaddPKfS0_Pfi\""));
  EXPECT_TRUE(contains(J, "\"grid\": [4, 1, 1]"));
  EXPECT_TRUE(contains(J, "\"block\": [128, 1, 1]"));
  EXPECT_TRUE(contains(J, "\"idempotent\": false"));
  EXPECT_TRUE(contains(J, "\"alloc\": {\"base\": 65536, \"size\": 65536}"));
  EXPECT_TRUE(contains(J, "\"read\": [[65536, 65936]]")) << J;
  EXPECT_TRUE(contains(J, "\"write_name\": \"c\"")) << J;
  EXPECT_TRUE(contains(J, "\"read_name\": \"a\"")) << J;
  EXPECT_FALSE(contains(J, "\"index\": 3")); // scalar parameters are not listed

  std::string T = instanceText(K, L, D);
  EXPECT_TRUE(contains(T, "instance vecadd(float const*, float const*, float*, int) "
                          "grid=(4,1,1) block=(128,1,1)"))
      << T;
  EXPECT_TRUE(contains(T, "#0 a  read [0x10000, 0x10190)")) << T;
  EXPECT_TRUE(contains(T, "idempotent: no -- write of c overlaps read of a")) << T;
  EXPECT_TRUE(contains(T, "conflict: bytes [0x10000, 0x10190)")) << T;

  // An "anything" access and a note.
  K.Params[2].Write.Kind = RegionKind::Allocation;
  L.ArgBits[2] = 0x90000;
  D = checkInstance(K, L, Find);
  J = instanceJson(K, L, D, 2);
  EXPECT_TRUE(ValidJson(J)) << J;
  EXPECT_TRUE(contains(J, "\"write\": [[0, 18446744073709551615]]")) << J;
  EXPECT_TRUE(contains(J, "\"alloc\": null"));
  EXPECT_TRUE(contains(J, "\"note\": \"pointer is in no known allocation\""));
  T = instanceText(K, L, D);
  EXPECT_TRUE(contains(T, "write anything")) << T;

  // Idempotent launch: conflict is null.
  L.ArgBits = {0x10000, 0x10000, 0x20000, 100};
  K.Params[2].Write = K.Params[0].Read;
  K.Params[2].Read = AccessRegion();
  D = checkInstance(K, L, Find);
  ASSERT_TRUE(D.Idempotent) << D.Reason;
  J = instanceJson(K, L, D, 0);
  EXPECT_TRUE(ValidJson(J)) << J;
  EXPECT_TRUE(contains(J, "\"conflict\": null"));
  EXPECT_TRUE(contains(J, "\"idempotent\": true"));
  EXPECT_TRUE(contains(instanceText(K, L, D), "idempotent: yes"));
}

//===----------------------------------------------------------------------===//
// Text table
//===----------------------------------------------------------------------===//

TEST(ReportText, RegionText) {
  std::vector<std::string> Names{"p", "q", "r", "n"};
  AccessRegion E;
  EXPECT_EQ(regionText(E, Names), "-");
  AccessRegion B;
  B.Kind = RegionKind::Bounded;
  B.Ranges = {{C(0), Expr::mul(C(4), A(3))}, {C(-4), A(1)}};
  EXPECT_EQ(regionText(B, Names), "[0, 4*n) U [-4, q)");
  AccessRegion Al;
  Al.Kind = RegionKind::Allocation;
  Al.Reason = "indirect";
  EXPECT_EQ(regionText(Al, Names), "whole allocation (indirect)");
  AccessRegion Any;
  Any.Kind = RegionKind::Anything;
  Any.Reason = "loaded pointer";
  EXPECT_EQ(regionText(Any, Names), "anything (loaded pointer)");
}

TEST(ReportText, FormatTable) {
  KernelDescriptor K = sample();
  std::string T = formatTable({K});
  EXPECT_TRUE(contains(T, "kernel vecadd(float const*, float const*, float*, int)  [nvptx]\n")) << T;
  EXPECT_TRUE(contains(T, "  symbol: _Z6vecaddPKfS0_Pfi\n"));
  EXPECT_TRUE(contains(T, "  class:  conditional -- idempotent unless \"c\" aliases a or b\n")) << T;
  EXPECT_TRUE(contains(T, "  #0 a : ptr  R\n")) << T;
  EXPECT_TRUE(contains(T, "      read:  [0, 4*n)\n")) << T;
  EXPECT_TRUE(contains(T, "      read:  whole allocation (indirect\tindex)\n")) << T;
  EXPECT_TRUE(contains(T, "  #2 c : ptr  RW\n")) << T;
  EXPECT_TRUE(contains(T, "  #1 b\"q : ptr  RA\n")) << T;
  EXPECT_TRUE(contains(T, "      write: [0, 4*n) U [4*n - 4, min(4*n, 64))\n")) << T;
  EXPECT_TRUE(contains(T, "      reads and writes proven disjoint\n"));
  EXPECT_TRUE(contains(T, "  #3 n : i32\n")) << T;
  EXPECT_TRUE(contains(T, "  global @g_lut  R\n")) << T;
  EXPECT_TRUE(contains(T, "  unknown memory write: store through a loaded pointer\n"));
  EXPECT_FALSE(contains(T, "unknown memory read"));

  // Several kernels: one block each, each with its class line.
  KernelDescriptor K2;
  K2.Name = "other";
  K2.Target = "amdgpu";
  K2.Class = IdempotenceClass::NonIdempotent;
  K2.ClassReason = "atomic RMW";
  T = formatTable({K, K2});
  EXPECT_TRUE(contains(T, "kernel other  [amdgpu]\n"));
  EXPECT_TRUE(contains(T, "  class:  non-idempotent -- atomic RMW\n"));
  EXPECT_LT(T.find("kernel vecadd"), T.find("kernel other"));
  EXPECT_EQ(formatTable({}), "");
}

// The preemption summary shows only where the module was built with the
// checkpoint pass, and says what each kind of kernel gets.
TEST(ReportPreemption, TextAndJson) {
  KernelDescriptor K = sample();
  EXPECT_FALSE(contains(formatTable({K}), "preempt:"));
  EXPECT_FALSE(contains(kernelJson(K, 0), "preemption"));

  K.Preemption.Known = true;
  K.Preemption.Clone = K.Preemption.Persistent = K.Preemption.InLoop = true;
  K.Preemption.LoopCheckpoints = 2;
  K.Preemption.Forms = {"full", "light"};
  EXPECT_EQ(preemptionText(K.Preemption),
            "in loops (2 loop checkpoints) and between CTAs; persistent forms: full light");
  std::string T = formatTable({K});
  // Last line of the kernel's block, after the regions.
  EXPECT_TRUE(contains(T, "store through a loaded pointer\n  preempt: in loops")) << T;
  std::string J = kernelJson(K, 2);
  EXPECT_TRUE(ValidJson(J)) << J;
  EXPECT_TRUE(contains(J, "\"preemption\": {\"clone\": true, \"persistent\": true, \"in_loop\": "
                          "true, \"loop_checkpoints\": 2, \"forms\": [\"full\", \"light\"], "
                          "\"notes\": []}"))
      << J;

  PreemptionSummary None;
  None.Known = true;
  None.Notes = {"no clone: grid \"sync\""};
  EXPECT_EQ(preemptionText(None), "not preemptible (no clone; the runtime launches the kernel "
                                  "itself); no clone: grid \"sync\"");
  EXPECT_TRUE(ValidJson(preemptionJson(None))) << preemptionJson(None);

  PreemptionSummary Entry;
  Entry.Known = Entry.Clone = true;
  Entry.Forms = {"full"};
  Entry.Notes = {"not persistent: x", "no loop checkpoints: y"};
  EXPECT_EQ(preemptionText(Entry),
            "between CTAs (no loop checkpoints); grid forms: full; not persistent: x; no loop checkpoints: y");
}

} // namespace
