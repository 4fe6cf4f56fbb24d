// The one way qsel replaces a file: a temporary file beside it, written, given
// the old file's mode and owner, flushed to disk and renamed over it, then the
// folder flushed. At every instant the path holds the old text or the new.
// Options add what `lint --fix` needs on a stranger's tree: no writing through
// a symlink, and a re-read before the rename so a concurrent edit is never lost.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace qsel {

struct AtomicWrite {
  const char* temp_tag = "qsel";            // the temporary file is .NAME.TAG-XXXXXX, beside the path
  bool refuse_symlink = false;              // the path itself must not be a symlink (else the link's target is replaced)
  std::optional<std::string_view> expect;   // the text the file must hold before writing and just before the rename
  std::size_t expect_max_bytes = 1 << 20;   // the cap for reading it back
};

struct WriteOutcome {
  enum Code { Written, Symlink, NotRegular, ChangedBefore, ChangedDuring, Failed } code = Written;
  std::string why;  // empty when written; else what went wrong, without the path
  explicit operator bool() const { return code == Written; }
};

// Replaces (or creates) `path` with `text`. An existing file keeps its mode and,
// where the process may, its owner; a new one is 0644 less the umask. Anything but
// a regular file (or a missing one) is refused.
WriteOutcome try_write_file_atomic(const std::string& path, std::string_view text, const AtomicWrite& options = {});

// The same, throwing a UsageError "PATH: WHY" when it was not written.
void write_file_atomic(const std::string& path, std::string_view text, const AtomicWrite& options = {});

// Replaces (or creates) the file `name` in the folder open as `dir_fd` with `text`, mode
// `mode`: the temporary file is created in that folder (O_EXCL, O_NOFOLLOW) and renamed
// over `name` there, so a link at `name` is replaced, never followed, and nothing is
// written anywhere else whatever the folder's path has become (core/private_dir.h).
// `flush` = false skips the two flushes to disk, for a cache whose reader checks every
// entry: while the system runs the path holds the old text or the new; after a crash
// an entry may be empty or cut short.
WriteOutcome try_write_file_atomic_at(int dir_fd, const std::string& name, std::string_view text, unsigned mode = 0600,
                                      const char* temp_tag = "qsel", bool flush = true);

}  // namespace qsel
