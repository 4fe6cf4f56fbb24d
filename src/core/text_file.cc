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
