#include "qsel/artifact/log_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "qsel/core/errors.h"

namespace qsel {
namespace {

int open_log(const std::string& path) {
  if (path == "-") return STDIN_FILENO;
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw UsageError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("{}: not a regular file (pipe a stream with --log -)", path));
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

}  // namespace

LogScan scan_log(const std::string& path, const std::function<void(std::size_t, std::string_view)>& on_line, std::uint64_t max_bytes,
                 std::chrono::milliseconds max_time) {
  int fd = open_log(path);
  auto deadline = std::chrono::steady_clock::now() + max_time;
  LogScan s;
  std::string line;
  bool cutting = false;
  char buf[64 * 1024];
  auto emit = [&] {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    on_line(++s.lines, line);
    line.clear();
    cutting = false;
  };
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    pollfd p{fd, POLLIN, 0};
    int ready = left > 0 ? ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000))) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (left <= 0) {  // a stream that never ends, or that went quiet: answer from what it said
      s.stopped = s.stopped_by_time = true;
      break;
    }
    if (ready == 0) continue;
    ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      if (fd != STDIN_FILENO) ::close(fd);
      throw UsageError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    }
    if (got == 0) break;
    s.bytes += static_cast<std::uint64_t>(got);
    for (ssize_t i = 0; i < got; ++i) {
      if (buf[i] == '\n') {
        emit();
      } else if (line.size() < kMaxLogLine) {
        line += buf[i];
      } else if (!cutting) {
        cutting = true;
        ++s.cut;
      }
    }
    if (s.bytes >= max_bytes) {
      s.stopped = true;
      break;
    }
  }
  if (!line.empty()) emit();
  if (fd != STDIN_FILENO) ::close(fd);
  return s;
}

}  // namespace qsel
