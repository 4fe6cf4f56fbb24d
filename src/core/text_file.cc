#include "qsel/core/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "qsel/core/errors.h"

namespace qsel {

namespace {
mode_t current_umask() {
  mode_t m = ::umask(0);
  ::umask(m);
  return m;
}
}  // namespace

std::string read_text_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw UsageError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("{}: not a regular file", path));
  }
  auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    throw UsageError(fmt::format("{}: file is {} bytes; a {} may be at most {} bytes", path, size, what, max_bytes));
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
  if (!ok) throw UsageError(fmt::format("{}: cannot read the file", path));
  return text;
}

}  // namespace qsel

namespace qsel {

void write_file_atomic(const std::string& path, std::string_view text) {
  std::filesystem::path p(path);
  std::filesystem::path dir = p.parent_path().empty() ? std::filesystem::path(".") : p.parent_path();
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw UsageError(fmt::format("{}: not a regular file; refusing to replace it", path));
  std::string tmpl = (dir / ("." + p.filename().string() + ".qsel-XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) throw UsageError(fmt::format("{}: cannot create a temporary file beside it: {}", path, std::strerror(errno)));
  std::string tmp(name.data());
  auto fail = [&](const char* what) {
    int saved = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw UsageError(fmt::format("{}: {}: {}", path, what, std::strerror(saved)));
  };
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write");
    done += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644 & ~current_umask());
  if (::fsync(fd) != 0) fail("cannot flush to disk");
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot replace it");
  ::close(fd);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace qsel
