// YAML text -> nlohmann::json with a source mark for every node.
//
// Strict on purpose: one document per file, no duplicate keys, no anchors or
// aliases, UTF-8 only, bounded size and depth, and plain scalars resolved with
// the YAML 1.2 core schema (`no` is a string, `010` is 10). Every problem comes
// back located; nothing is printed and nothing throws.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "qsel/core/problem.h"
#include "qsel/loader/marks.h"

namespace qsel {

// A record file is a few KB; 1 MiB is generous. Lint's snippets and fixes read no more.
inline constexpr std::size_t kMaxRecordFileBytes = 1 << 20;

struct YamlLimits {
  std::size_t max_bytes = kMaxRecordFileBytes;
  std::size_t max_depth = 64;          // records nest four or five levels
  std::size_t max_scalar_chars = 16384;
  std::size_t max_nodes = 100000;
  std::size_t max_items = 1000;        // the longest list in the corpus has 33 items
};

struct YamlDocument {
  nlohmann::json value;  // null when the file could not be read as one document
  Marks marks;
  Problems problems;     // empty when the text is a clean single document
  bool ok() const { return problems.empty(); }
};

// The QS010 problem of a file of `bytes` bytes, over limits.max_bytes.
Problem too_large(const std::string& file, std::size_t bytes, const YamlLimits& limits);

// `file` is used only to label problems. Files in the block subset that
// records are written in take a fast reader (src/loader/yaml_block.h); every
// other file, and every file with a problem, takes the general one.
YamlDocument read_yaml(std::string_view text, const std::string& file, const YamlLimits& limits = {});

// Always the general reader (yaml-cpp and the strictness checks): what the fast
// reader is held to in tests and fuzzing.
YamlDocument read_yaml_general(std::string_view text, const std::string& file, const YamlLimits& limits = {});

// The YAML 1.2 core-schema value of a plain scalar ("010" -> 10, "no" -> "no").
nlohmann::json resolve_plain_scalar(const std::string& text);

}  // namespace qsel
