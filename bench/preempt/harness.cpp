// Shared pieces of the preemption harness: errors, JSON, and the
// supervision of forked workers (see harness.h). The manifest, the device
// side and the clones are in harness_manifest.cpp, harness_device.cpp and
// harness_clone.cpp.
#include "harness.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pb {

// ------------------------------------------------------------------ errors

bool CudaError::sticky() const {
  switch (code) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_UNKNOWN:
    return true;
  default:
    return false;
  }
}

void check(CUresult r, const char *what, const char *file, int line) {
  if (r == CUDA_SUCCESS)
    return;
  const char *name = nullptr, *desc = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &desc);
  throw CudaError(r, strfmt("%s failed: %s (%s) at %s:%d", what, name ? name : "?",
                            desc ? desc : "?", file, line));
}

std::string strfmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return std::string();
  if ((size_t)n < sizeof small)
    return std::string(small, (size_t)n);
  std::string out((size_t)n + 1, '\0');
  va_start(ap, fmt);
  vsnprintf(&out[0], out.size(), fmt, ap);
  va_end(ap);
  out.resize((size_t)n);
  return out;
}

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void spin_until(double t) {
  while (now_s() < t) {
  }
}

// ------------------------------------------------------------------- JSON

std::string json_escape(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      o += '\\', o += (char)c;
    else if (c == '\n')
      o += "\\n";
    else if (c < 0x20)
      o += strfmt("\\u%04x", c);
    else
      o += (char)c;
  }
  return o + "\"";
}

void Json::key(const std::string &k) {
  if (!body_.empty())
    body_ += ", ";
  body_ += json_escape(k) + ": ";
}
Json &Json::str(const std::string &k, const std::string &v) {
  key(k);
  body_ += json_escape(v);
  return *this;
}
Json &Json::num(const std::string &k, double v) {
  key(k);
  body_ += std::isfinite(v) ? strfmt("%.6g", v) : std::string("null");
  return *this;
}
Json &Json::integer(const std::string &k, long long v) {
  key(k);
  body_ += strfmt("%lld", v);
  return *this;
}
Json &Json::boolean(const std::string &k, bool v) {
  key(k);
  body_ += v ? "true" : "false";
  return *this;
}
Json &Json::raw(const std::string &k, const std::string &json) {
  key(k);
  body_ += json;
  return *this;
}

std::string json_array(const std::vector<std::string> &items) {
  std::string o = "[";
  for (size_t i = 0; i < items.size(); ++i)
    o += (i ? ",\n  " : "\n  ") + items[i];
  return o + (items.empty() ? "]" : "\n]");
}

std::string json_numbers(const std::vector<double> &v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i)
    o += (i ? "," : "") + strfmt("%.4g", v[i]);
  return o + "]";
}

// ------------------------------------------------------------ supervision

namespace {
void write_all(int fd, const std::string &s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    off += (size_t)n;
  }
}
} // namespace

void supervise(int n, double watchdog_s, const std::function<void(int, const Report &)> &work,
               const std::function<void(int, const std::string &)> &done,
               const std::function<void(int, const std::string &)> &failed) {
  int next = 0;
  while (next < n) {
    int fds[2];
    if (pipe(fds) != 0)
      throw std::runtime_error("pipe failed");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
      throw std::runtime_error("fork failed");
    if (pid == 0) {
      close(fds[0]);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      int fd = fds[1];
      Report rep = [fd](int i, const std::string &json) {
        std::string one = json;
        std::replace(one.begin(), one.end(), '\n', ' ');
        write_all(fd, strfmt("R %d ", i) + one + "\n");
      };
      try {
        work(next, [&](int i, const std::string &j) { rep(i, j); });
      } catch (const std::exception &e) {
        write_all(fd, std::string("F ") + e.what() + "\n");
        _exit(6);
      }
      _exit(0);
    }
    close(fds[1]);
    std::string buf;
    int current = next;
    double started = now_s();
    bool killed = false;
    std::string fatal;
    for (;;) {
      pollfd pf = {fds[0], POLLIN, 0};
      int pr = poll(&pf, 1, 100);
      if (now_s() - started > watchdog_s) {
        kill(pid, SIGKILL);
        killed = true;
        break;
      }
      if (pr <= 0)
        continue;
      char tmp[65536];
      ssize_t got = read(fds[0], tmp, sizeof tmp);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      buf.append(tmp, (size_t)got);
      size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        std::string l = buf.substr(0, nl);
        buf.erase(0, nl + 1);
        if (l.compare(0, 2, "R ") == 0) {
          int i = atoi(l.c_str() + 2);
          size_t sp = l.find(' ', 2);
          done(i, sp == std::string::npos ? "{}" : l.substr(sp + 1));
          current = i + 1;
          started = now_s();
        } else if (l.compare(0, 2, "F ") == 0) {
          fatal = l.substr(2);
        }
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (current >= n)
      return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 5 && !killed) {
      next = current; // the worker reported its item and left a broken context
      continue;
    }
    std::string why = killed ? strfmt("watchdog: item ran longer than %.0f s", watchdog_s)
                      : !fatal.empty() ? fatal
                      : WIFSIGNALED(status) ? strfmt("worker killed by signal %d", WTERMSIG(status))
                      : WIFEXITED(status) && WEXITSTATUS(status) == 0
                          ? std::string("worker stopped early (time budget)")
                          : strfmt("worker exited with status %d", WEXITSTATUS(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !killed) {
      for (int i = current; i < n; ++i)
        failed(i, why);
      return;
    }
    failed(current, why);
    next = current + 1;
  }
}

} // namespace pb
