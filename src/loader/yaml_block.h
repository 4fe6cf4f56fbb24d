// The fast reader: the block subset of YAML that record files are written in,
// read in one pass over the text with no events, no token queue and no
// regular expressions.
//
// It accepts only what it is sure of: block mappings with plain keys, block
// sequences, plain scalars (folded over lines), single-quoted scalars (folded),
// one-line double-quoted scalars with the common escapes, literal block
// scalars (| |- |+) and one-line flow sequences of scalars, with comments.
// Anything else — anchors, tags, flow mappings, folded block scalars, tabs,
// CR line ends, directives, a second document, a duplicate key, a value
// beyond a limit, and every error — makes it give up (nullopt), and the
// general reader (yaml-cpp and the strictness checks) reads the file instead,
// so problems are always reported by one reader in one wording.
//
// Where it answers, the answer is the general reader's: the same value and
// the same marks. tests/loader/yaml_block_test.cc holds it to that on the
// corpus and the YAML test suite, and the record-loader fuzz harness
// (tests/fuzz/fuzz_record_loader.cc) on arbitrary input.
#pragma once
#include <optional>
#include <string_view>

#include "qsel/loader/yaml_reader.h"

namespace qsel::yaml_block {

// `text` has passed the reader's precheck (size, UTF-8, no NUL).
std::optional<YamlDocument> read(std::string_view text, const YamlLimits& limits);

}  // namespace qsel::yaml_block
