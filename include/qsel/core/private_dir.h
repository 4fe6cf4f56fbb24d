// A folder only this user may change, and the files in it reached without ever
// following a link (qsel's Hub cache, which a shared folder, a restored CI cache or
// an unpacked tarball can fill with anything). The folder is created 0700 and not
// used when it is a link, another user owns it, or others may write to it. Every
// folder below it is opened relative to its parent with O_NOFOLLOW | O_DIRECTORY,
// every file with O_NOFOLLOW, and every write goes through a temporary file in the
// file's own folder renamed over it there (core/atomic_write.h): a link planted at
// any name is replaced or refused, never followed. A path is a list of single
// names; "", ".", "..", a '/' or a NUL in one is refused, so whatever the names,
// nothing resolves outside the root.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qsel {

class PrivateDir {
 public:
  // Opens `root`, creating it (and missing parents) 0700. Never throws: a folder
  // that cannot be used gives !usable() and why() says so, naming it.
  static PrivateDir open(const std::string& root);
  PrivateDir(PrivateDir&& other) noexcept;
  PrivateDir& operator=(PrivateDir&& other) noexcept;
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;
  ~PrivateDir();

  bool usable() const { return fd_ >= 0; }
  const std::string& why() const { return why_; }
  const std::string& root() const { return root_; }
  // "root/a/b/name", for messages.
  std::string shown(const std::vector<std::string>& path) const;

  // The file at `path` (folders, then the file's name), at most `max_bytes`. Nothing
  // when it is not there (*why empty), or when it is a link, not a regular file, too
  // large or unreadable (*why says which).
  std::optional<std::string> read(const std::vector<std::string>& path, std::size_t max_bytes, std::string* why) const;
  // Replaces the file at `path` with `bytes` (mode 0600), creating its folders 0700
  // and replacing a link or a file where a folder belongs. False, with *why, when it
  // could not. `flush` = false: not flushed to disk (core/atomic_write.h).
  bool write(const std::vector<std::string>& path, std::string_view bytes, std::string* why, bool flush = true) const;

 private:
  PrivateDir() = default;
  // The folder at path[0 .. n-1], opened under the root without following links.
  int open_folder(const std::vector<std::string>& path, std::size_t n, bool create, std::string* why) const;
  int fd_ = -1;
  std::string root_, why_;
};

// One path component that cannot climb out of its folder: not empty, ".", "..", and
// no '/' or NUL; at most 255 bytes.
bool is_single_name(std::string_view name);

}  // namespace qsel
