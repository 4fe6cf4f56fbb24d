#include "qsel/core/atomic_write.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text_file.h"

namespace qsel {
namespace {

mode_t current_umask() {
  mode_t m = ::umask(0);
  ::umask(m);
  return m;
}

WriteOutcome failed(WriteOutcome::Code code, std::string why) { return {code, std::move(why)}; }

// Whether the file still holds `expect`; `why` says what stopped the check.
bool holds(const std::string& path, std::string_view expect, std::size_t cap, std::string* why) {
  try {
    return read_text_file(path, cap, "file") == expect;
  } catch (const UsageError& e) {
    *why = e.what();
    return false;
  }
}

// ".NAME.TAG-XXXXXX" in `dir`, created exclusively and never through a link.
int create_temp(int dir, const std::string& name, const char* tag, std::string* temp) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string base = name.size() > 200 ? name.substr(0, 200) : name;
  for (int tries = 0; tries < 100; ++tries) {
    unsigned char r[6];
    if (getrandom(r, sizeof r, 0) != static_cast<ssize_t>(sizeof r))
      for (auto& b : r) b = static_cast<unsigned char>(std::rand());
    std::string suffix;
    for (unsigned char b : r) suffix += kChars[b % (sizeof kChars - 1)];
    *temp = fmt::format(".{}.{}-{}", base, tag, suffix);
    int fd = ::openat(dir, temp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

// The write itself, in the folder `dir`: a temporary file given `text` and `mode` (and
// `owner` when the process may), flushed, checked by `last_look`, renamed over `name`,
// and the folder flushed so the rename survives a crash (without `flush`, neither is
// flushed: the path still holds the old text or the new while the system runs).
template <typename LastLook>
WriteOutcome replace_in(int dir, const std::string& name, std::string_view text, const char* tag, mode_t mode, const struct stat* owner,
                        LastLook last_look, bool flush = true) {
  std::string tmp;
  int fd = create_temp(dir, name, tag, &tmp);
  if (fd < 0) return failed(WriteOutcome::Failed, fmt::format("cannot create a temporary file beside it: {}", std::strerror(errno)));
  auto fail = [&](WriteOutcome::Code code, std::string what) {
    ::close(fd);
    ::unlinkat(dir, tmp.c_str(), 0);
    return failed(code, std::move(what));
  };
  auto fail_errno = [&](const char* what) { return fail(WriteOutcome::Failed, fmt::format("{}: {}", what, std::strerror(errno))); };
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail_errno("cannot write");
    done += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, mode);
  if (owner && ::fchown(fd, owner->st_uid, owner->st_gid) != 0) {
    // Not the owner: the new file keeps ours; the mode above still matches.
  }
  if (flush && ::fsync(fd) != 0) return fail_errno("cannot flush to disk");
  if (WriteOutcome late = last_look(); !late) return fail(late.code, late.why);
  if (::renameat(dir, tmp.c_str(), dir, name.c_str()) != 0) return fail_errno("cannot replace it");
  ::close(fd);
  if (flush) ::fsync(dir);  // the rename itself survives a crash
  return {};
}

}  // namespace

WriteOutcome try_write_file_atomic(const std::string& given, std::string_view text, const AtomicWrite& o) {
  std::string path = given;
  struct stat old {};
  bool exists = ::lstat(path.c_str(), &old) == 0;
  if (!exists && errno != ENOENT) return failed(WriteOutcome::Failed, fmt::format("cannot stat it: {}", std::strerror(errno)));
  if (exists && S_ISLNK(old.st_mode)) {
    if (o.refuse_symlink) return failed(WriteOutcome::Symlink, "it is a symlink; not writing through links");
    char* real = ::realpath(path.c_str(), nullptr);  // write through the link: the target is replaced, the link stays
    if (!real) return failed(WriteOutcome::Failed, fmt::format("cannot follow the link: {}", std::strerror(errno)));
    path = real;
    std::free(real);
    if (::stat(path.c_str(), &old) != 0) return failed(WriteOutcome::Failed, fmt::format("cannot stat it: {}", std::strerror(errno)));
  }
  if (exists && !S_ISREG(old.st_mode)) return failed(WriteOutcome::NotRegular, "not a regular file; refusing to replace it");
  if (o.expect && !exists) return failed(WriteOutcome::Failed, fmt::format("cannot stat it: {}", std::strerror(ENOENT)));
  std::string why;
  if (o.expect && !holds(path, *o.expect, o.expect_max_bytes, &why))
    return failed(why.empty() ? WriteOutcome::ChangedBefore : WriteOutcome::Failed, why.empty() ? "the file changed" : why);

  std::filesystem::path p(path);
  std::filesystem::path folder = p.parent_path().empty() ? std::filesystem::path(".") : p.parent_path();
  int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return failed(WriteOutcome::Failed, fmt::format("cannot create a temporary file beside it: {}", std::strerror(errno)));
  mode_t mode = exists ? (old.st_mode & 07777) : (0644 & ~current_umask());
  WriteOutcome out = replace_in(dir, p.filename().string(), text, o.temp_tag, mode, exists ? &old : nullptr, [&]() -> WriteOutcome {
    std::string late;
    if (o.expect && !holds(path, *o.expect, o.expect_max_bytes, &late))  // the last look: another writer may have saved it
      return failed(late.empty() ? WriteOutcome::ChangedDuring : WriteOutcome::Failed,
                    late.empty() ? "the file changed while it was written" : late);
    return {};
  });
  ::close(dir);
  return out;
}

WriteOutcome try_write_file_atomic_at(int dir_fd, const std::string& name, std::string_view text, unsigned mode, const char* temp_tag,
                                      bool flush) {
  return replace_in(dir_fd, name, text, temp_tag, static_cast<mode_t>(mode), nullptr, []() -> WriteOutcome { return {}; }, flush);
}

void write_file_atomic(const std::string& path, std::string_view text, const AtomicWrite& options) {
  if (auto out = try_write_file_atomic(path, text, options); !out) throw UsageError(fmt::format("{}: {}", path, out.why));
}

}  // namespace qsel
