#include "qsel/artifact/binary_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "qsel/core/errors.h"

namespace qsel {
namespace {

constexpr std::size_t kWindow = 64 * 1024;

// Opens `path` for reading without blocking on a FIFO, and insists on a regular file.
int open_regular(const std::string& path, std::uint64_t* size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw UsageError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("{}: not a regular file", path));
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  *size = static_cast<std::uint64_t>(st.st_size);
  return fd;
}

bool pread_all(int fd, std::uint64_t offset, char* out, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    ssize_t got = ::pread(fd, out + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

BinaryFile::BinaryFile(const std::string& path) : path_(path) { fd_ = open_regular(path, &size_); }

BinaryFile::~BinaryFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool BinaryFile::read_at(std::uint64_t offset, void* out, std::size_t n) const {
  if (offset > size_ || n > size_ - offset) return false;
  return pread_all(fd_, offset, static_cast<char*>(out), n);
}

void Cursor::fail(const std::string& message) const { fail_at(pos_, message); }

void Cursor::fail_at(std::uint64_t at, const std::string& message) const {
  throw UsageError(fmt::format("{}: byte {}: {}", f_.path(), at, message));
}

void Cursor::fill(std::uint64_t n, std::string_view what) {
  if (n > left())
    fail(fmt::format("expected {} ({} bytes), the file ends at byte {}", what, n, f_.size()));
  if (pos_ >= window_start_ && pos_ + n <= window_start_ + window_.size()) return;
  std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(n, kWindow), left()));
  window_.resize(want);
  if (!f_.read_at(pos_, window_.data(), want)) fail(fmt::format("cannot read {}", what));
  window_start_ = pos_;
}

std::uint8_t Cursor::u8(std::string_view what) {
  fill(1, what);
  auto v = static_cast<std::uint8_t>(window_[pos_ - window_start_]);
  pos_ += 1;
  return v;
}

std::uint32_t Cursor::u32(std::string_view what) {
  fill(4, what);
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(window_[pos_ - window_start_ + i]);
  pos_ += 4;
  return v;
}

std::uint64_t Cursor::u64(std::string_view what) {
  fill(8, what);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(window_[pos_ - window_start_ + i]);
  pos_ += 8;
  return v;
}

std::string Cursor::bytes(std::uint64_t n, std::uint64_t max, std::string_view what) {
  check_length(n, max, what);
  std::string out;
  out.reserve(static_cast<std::size_t>(n));
  while (out.size() < n) {
    std::uint64_t chunk = std::min<std::uint64_t>(n - out.size(), kWindow);
    fill(chunk, what);
    out.append(window_, static_cast<std::size_t>(pos_ - window_start_), static_cast<std::size_t>(chunk));
    pos_ += chunk;
  }
  return out;
}

std::string Cursor::head(std::uint64_t n, std::uint64_t keep, std::uint64_t max, std::string_view what) {
  check_length(n, max, what);
  std::string out = bytes(std::min(n, keep), max, what);
  pos_ += n - out.size();
  return out;
}

void Cursor::check_length(std::uint64_t n, std::uint64_t max, std::string_view what) const {
  if (n > max) fail(fmt::format("{} is {} bytes long; at most {} is plausible", what, n, max));
  if (n > left()) fail(fmt::format("{} is {} bytes long, past the end of the file ({} bytes left)", what, n, left()));
}

void Cursor::skip(std::uint64_t n, std::string_view what) {
  if (n > left()) fail(fmt::format("{} is {} bytes long, past the end of the file ({} bytes left)", what, n, left()));
  pos_ += n;
}

}  // namespace qsel
