// Small files from strangers (config.json, a shard index, a lint config, a
// baseline): a regular file (symlinks followed; FIFOs and devices refused
// without blocking), read whole up to a cap. Writing is core/atomic_write.h.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace qsel {

// The whole file, or a UsageError: "path: cannot open: …", "path: not a regular
// file", "path: file is N bytes; a WHAT may be at most M bytes".
std::string read_text_file(const std::string& path, std::size_t max_bytes, std::string_view what);

}  // namespace qsel
