// Small files from strangers (config.json, a shard index, a lint config, a
// baseline): a regular file (symlinks followed; FIFOs and devices refused
// without blocking), read whole up to a cap.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace qsel {

// The whole file, or a UsageError: "path: cannot open: …", "path: not a regular
// file", "path: file is N bytes; a WHAT may be at most M bytes".
std::string read_text_file(const std::string& path, std::size_t max_bytes, std::string_view what);

// Replaces `path` with `text` atomically: a temporary file beside it, fsync,
// rename. The file is at every instant the old text or the new; a UsageError
// names the path and what failed. Refuses to replace anything but a regular file.
void write_file_atomic(const std::string& path, std::string_view text);

}  // namespace qsel
