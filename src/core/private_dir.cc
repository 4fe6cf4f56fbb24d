#include "qsel/core/private_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "qsel/core/atomic_write.h"
#include "qsel/core/errors.h"
#include "qsel/core/text_file.h"

namespace qsel {
namespace {

// mkdir -p for the folders above `root` that are missing, each created 0700.
void make_parents(const std::string& root) {
  for (std::size_t at = root.find('/', 1); at != std::string::npos; at = root.find('/', at + 1))
    if (::mkdir(root.substr(0, at).c_str(), 0700) != 0 && errno != EEXIST) return;
}

std::string refused(const std::string& root, const std::string& what) {
  return fmt::format("cache folder {}: {}; not using it: answers are not cached (fix it, or set QSEL_CACHE_DIR)", root, what);
}

}  // namespace

bool is_single_name(std::string_view name) {
  return !name.empty() && name.size() <= 255 && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

PrivateDir PrivateDir::open(const std::string& root) {
  PrivateDir d;
  d.root_ = root;
  if (root.empty()) {
    d.why_ = "no cache folder (set XDG_CACHE_HOME or HOME)";
    return d;
  }
  make_parents(root);
  if (::mkdir(root.c_str(), 0700) != 0 && errno != EEXIST) {
    d.why_ = refused(root, fmt::format("cannot create it: {}", std::strerror(errno)));
    return d;
  }
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    struct stat st {};
    bool link = ::lstat(root.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
    d.why_ = refused(root, link ? "a symbolic link (not followed: name the folder itself)" : fmt::format("cannot open it: {}", std::strerror(errno)));
    return d;
  }
  struct stat st {};
  std::string problem;
  if (::fstat(fd, &st) != 0) problem = fmt::format("cannot stat it: {}", std::strerror(errno));
  else if (st.st_uid != ::geteuid()) problem = fmt::format("owned by user {}, not by this user ({})", st.st_uid, ::geteuid());
  else if (st.st_mode & (S_IWGRP | S_IWOTH)) problem = fmt::format("others may write to it (mode {:04o})", st.st_mode & 07777);
  if (!problem.empty()) {
    ::close(fd);
    d.why_ = refused(root, problem);
    return d;
  }
  d.fd_ = fd;
  return d;
}

PrivateDir::PrivateDir(PrivateDir&& other) noexcept : fd_(other.fd_), root_(std::move(other.root_)), why_(std::move(other.why_)) { other.fd_ = -1; }

PrivateDir& PrivateDir::operator=(PrivateDir&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    root_ = std::move(other.root_);
    why_ = std::move(other.why_);
    other.fd_ = -1;
  }
  return *this;
}

PrivateDir::~PrivateDir() {
  if (fd_ >= 0) ::close(fd_);
}

std::string PrivateDir::shown(const std::vector<std::string>& path) const {
  std::string out = root_;
  for (const auto& p : path) out += "/" + p;
  return out;
}

int PrivateDir::open_folder(const std::vector<std::string>& path, std::size_t n, bool create, std::string* why) const {
  int dir = ::dup(fd_);
  for (std::size_t i = 0; i < n && dir >= 0; ++i) {
    const std::string& name = path[i];
    int next = ::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0 && create) {
      // Missing: made. A link or a file where this folder belongs: removed (the link itself,
      // never what it points at) and made. The cache is this user's alone.
      if (errno == ELOOP || errno == ENOTDIR) ::unlinkat(dir, name.c_str(), 0);
      if (::mkdirat(dir, name.c_str(), 0700) == 0 || errno == EEXIST)
        next = ::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (next < 0) {
      if (errno != ENOENT || create) *why = fmt::format("{}: {}", shown({path.begin(), path.begin() + static_cast<long>(i) + 1}),
                                                          errno == ELOOP || errno == ENOTDIR ? "not a folder (a link?): not followed"
                                                                                             : std::strerror(errno));
      ::close(dir);
      return -1;
    }
    ::close(dir);
    dir = next;
  }
  return dir;
}

std::optional<std::string> PrivateDir::read(const std::vector<std::string>& path, std::size_t max_bytes, std::string* why) const {
  why->clear();
  if (!usable() || path.empty()) return std::nullopt;
  for (const auto& name : path)
    if (!is_single_name(name)) {
      *why = fmt::format("{}: not a name inside the folder", shown(path));
      return std::nullopt;
    }
  int dir = open_folder(path, path.size() - 1, false, why);
  if (dir < 0) return std::nullopt;
  std::optional<std::string> out;
  if (::faccessat(dir, path.back().c_str(), F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
    try {
      out = read_text_file_at(dir, path.back(), shown(path), max_bytes, "cache entry");
    } catch (const UsageError& e) {
      *why = e.what();
    }
  }
  ::close(dir);
  return out;
}

bool PrivateDir::write(const std::vector<std::string>& path, std::string_view bytes, std::string* why, bool flush) const {
  why->clear();
  if (!usable() || path.empty()) {
    *why = why_;
    return false;
  }
  for (const auto& name : path)
    if (!is_single_name(name)) {
      *why = fmt::format("{}: not a name inside the folder", shown(path));
      return false;
    }
  int dir = open_folder(path, path.size() - 1, true, why);
  if (dir < 0) return false;
  WriteOutcome out = try_write_file_atomic_at(dir, path.back(), bytes, 0600, "qsel", flush);
  ::close(dir);
  if (!out) *why = fmt::format("{}: {}", shown(path), out.why);
  return static_cast<bool>(out);
}

}  // namespace qsel
