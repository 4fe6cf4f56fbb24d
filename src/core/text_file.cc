#include "qsel/core/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "qsel/core/errors.h"

namespace qsel {
namespace {

// Reads an open regular file of the size fstat gave; closes it.
std::string read_sized(int fd, const std::string& shown, std::size_t max_bytes, std::string_view what) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("{}: not a regular file", shown));
  }
  auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    throw UsageError(fmt::format("{}: file is {} bytes; a {} may be at most {} bytes", shown, size, what, max_bytes));
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  bool ok = true;
  while (done < text.size()) {
    ssize_t got = ::pread(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      ok = false;
      break;
    }
    done += static_cast<std::size_t>(got);
  }
  ::close(fd);
  if (!ok) throw UsageError(fmt::format("{}: cannot read the file", shown));
  return text;
}

int open_or_throw(int dir_fd, const std::string& name, const std::string& shown, int extra) {
  int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | extra);
  if (fd >= 0) return fd;
  if (errno == ELOOP && (extra & O_NOFOLLOW)) throw UsageError(fmt::format("{}: a symbolic link (not followed)", shown));
  throw UsageError(fmt::format("{}: cannot open: {}", shown, std::strerror(errno)));
}

}  // namespace

std::string read_text_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  return read_sized(open_or_throw(AT_FDCWD, path, path, 0), path, max_bytes, what);
}

std::string read_text_file_at(int dir_fd, const std::string& name, const std::string& shown, std::size_t max_bytes, std::string_view what) {
  return read_sized(open_or_throw(dir_fd, name, shown, O_NOFOLLOW), shown, max_bytes, what);
}

std::string read_stream_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  int fd = open_or_throw(AT_FDCWD, path, path, 0);
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("{}: not a regular file", path));
  }
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      ::close(fd);
      throw UsageError(fmt::format("{}: cannot read the file", path));
    }
    if (got == 0) break;
    if (text.size() + static_cast<std::size_t>(got) > max_bytes) {
      ::close(fd);
      throw UsageError(fmt::format("{}: more than {} bytes; a {} may be at most that", path, max_bytes, what));
    }
    text.append(buf, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

}  // namespace qsel
