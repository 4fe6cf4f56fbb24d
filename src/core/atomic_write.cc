#include "qsel/core/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

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
  std::filesystem::path dir = p.parent_path().empty() ? std::filesystem::path(".") : p.parent_path();
  std::string tmpl = (dir / fmt::format(".{}.{}-XXXXXX", p.filename().string(), o.temp_tag)).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) return failed(WriteOutcome::Failed, fmt::format("cannot create a temporary file beside it: {}", std::strerror(errno)));
  std::string tmp(name.data());
  auto fail = [&](WriteOutcome::Code code, std::string what) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return failed(code, std::move(what));
  };
  auto fail_errno = [&](const char* what) { return fail(WriteOutcome::Failed, fmt::format("{}: {}", what, std::strerror(errno))); };
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail_errno("cannot write");
    done += static_cast<std::size_t>(n);
  }
  if (exists) {
    ::fchmod(fd, old.st_mode & 07777);
    if (::fchown(fd, old.st_uid, old.st_gid) != 0) {
      // Not the owner: the new file keeps ours; the mode above still matches.
    }
  } else {
    ::fchmod(fd, 0644 & ~current_umask());
  }
  if (::fsync(fd) != 0) return fail_errno("cannot flush to disk");
  if (o.expect && !holds(path, *o.expect, o.expect_max_bytes, &why))  // the last look: another writer may have saved it
    return fail(why.empty() ? WriteOutcome::ChangedDuring : WriteOutcome::Failed, why.empty() ? "the file changed while it was written" : why);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail_errno("cannot replace it");
  ::close(fd);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // the rename itself survives a crash
    ::close(dfd);
  }
  return {};
}

void write_file_atomic(const std::string& path, std::string_view text, const AtomicWrite& options) {
  if (auto out = try_write_file_atomic(path, text, options); !out) throw UsageError(fmt::format("{}: {}", path, out.why));
}

}  // namespace qsel
