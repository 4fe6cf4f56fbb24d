// Small files from strangers (config.json, a shard index, a lint config, a
// baseline): a regular file (symlinks followed; FIFOs and devices refused
// without blocking), read whole up to a cap. Files the kernel makes up as they
// are read (/proc, /sys) report a size of 0 and are read as a stream instead.
// Writing is core/atomic_write.h.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace qsel {

// The whole file, or a UsageError: "path: cannot open: …", "path: not a regular
// file", "path: file is N bytes; a WHAT may be at most M bytes".
std::string read_text_file(const std::string& path, std::size_t max_bytes, std::string_view what);

// The same for a /proc or /sys file: read until its end, never trusting the size it
// reports (0); a UsageError past `max_bytes` bytes.
std::string read_stream_file(const std::string& path, std::size_t max_bytes, std::string_view what);

// The file `name` in the folder open as `dir_fd`, never through a link (O_NOFOLLOW);
// messages name it `shown`. The same errors, and "shown: a symbolic link (not followed)".
std::string read_text_file_at(int dir_fd, const std::string& name, const std::string& shown, std::size_t max_bytes, std::string_view what);

}  // namespace qsel
