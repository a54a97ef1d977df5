//===- DeviceCompileUtil.cpp - helpers of the device compile --------------===//
//
// Part of gmem. See DeviceCompileUtil.h.
//
//===----------------------------------------------------------------------===//

#include "DeviceCompileUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace gmem {
namespace tool {
namespace detail {

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

Error makeError(const Twine &Msg) {
  return make_error<StringError>(Msg.str(), inconvertibleErrorCode());
}

std::optional<std::string> getEnv(const char *Name) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return std::nullopt;
  return std::string(V);
}

bool isFile(const Twine &P) { return sys::fs::is_regular_file(P); }

/// Quote an argument for display as a shell command (Verbose only).
std::string shellQuote(StringRef A) {
  if (!A.empty() &&
      A.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-+=/.,:@%") == StringRef::npos)
    return A.str();
  std::string R = "'";
  for (char C : A) {
    if (C == '\'')
      R += "'\\''";
    else
      R += C;
  }
  R += "'";
  return R;
}

/// Value of "--flag=value" (or "--flag value") in Args, if present.
std::optional<std::string> findFlagValue(ArrayRef<std::string> Args,
                                         StringRef Flag) {
  std::optional<std::string> Result;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.consume_front(Flag)) {
      if (A.consume_front("="))
        Result = A.str();
      else if (A.empty() && I + 1 < Args.size())
        Result = Args[++I];
    }
  }
  return Result;
}

bool hasFlagPrefix(ArrayRef<std::string> Args, StringRef Prefix) {
  for (const std::string &A : Args)
    if (StringRef(A).starts_with(Prefix))
      return true;
  return false;
}

/// Include directories named by -I/-isystem/-idirafter/-iquote in Args.
std::vector<std::string> userIncludeDirs(ArrayRef<std::string> Args) {
  static const char *const Flags[] = {"-I", "-isystem", "-idirafter",
                                      "-iquote"};
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    for (StringRef F : Flags) {
      if (!A.starts_with(F))
        continue;
      StringRef Rest = A.drop_front(F.size());
      if (Rest.empty()) {
        if (I + 1 < Args.size())
          Dirs.push_back(Args[I + 1]);
      } else if (F == "-I") {
        Dirs.push_back(Rest.str());
      } else {
        continue; // e.g. -isysroot: not an include dir flag.
      }
      break;
    }
  }
  return Dirs;
}

Error writeFile(const Twine &P, StringRef Contents) {
  std::error_code EC;
  raw_fd_ostream OS(P.str(), EC, sys::fs::OF_None);
  if (EC)
    return makeError("cannot write " + P + ": " + EC.message());
  OS << Contents;
  OS.close();
  if (OS.has_error())
    return makeError("cannot write " + P + ": " + OS.error().message());
  return Error::success();
}

} // namespace detail
} // namespace tool
} // namespace gmem
