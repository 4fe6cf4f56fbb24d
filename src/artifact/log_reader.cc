#include "qsel/artifact/log_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

LogScan scan_log(const std::string& path, const std::function<void(std::size_t, std::string_view)>& on_line, std::uint64_t max_bytes) {
  int fd = open_log(path);
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
