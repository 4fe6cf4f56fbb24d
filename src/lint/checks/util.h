// Small helpers shared by the checks.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "qsel/loader/record.h"

namespace qsel::lint_checks {

using nlohmann::json;

// "/kernel_selection/2/kernel" -> "kernel_selection[2].kernel", for messages.
std::string field_label(const std::string& pointer);

// A number as the shortest text that reads back the same ("4.5", "256").
std::string number_text(double v);

// "a" or "an" for `noun`.
const char* article(std::string_view noun);

// The value at `key` of the record, or null.
const json& field(const Record& r, const char* key);

// The string at `pointer` of the record ("/baseline/benchmark"), or "" when absent or not a string.
std::string str_at(const Record& r, const std::string& pointer);

// Calls `fn(pointer, node)` for every node at `pattern` ("/rows/*/match"; "*" is
// any array index or object key).
void for_each_at(const json& root, const std::string& pattern,
                 const std::function<void(const std::string&, const json&)>& fn);

}  // namespace qsel::lint_checks
