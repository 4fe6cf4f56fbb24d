// A record field read as a number, an array or an object: the accessors the sizing and
// ranking code shares for optional fields (memory rules, TFLOPS, weight bits, tables).
#pragma once
#include <nlohmann/json.hpp>

namespace qsel {

// `j[key]` when `j` is an object holding a number there, else `fallback`.
inline double number_or(const nlohmann::json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// `j[key]` by reference when `j` is an object holding `key`, else an empty array (object):
// what j.value(key, json::array()) returns, without copying the field. A deliberation reads an
// engine's kernel_selection table per candidate, and value() copied the whole table each time
// (a third of the launch grid's time was allocating and freeing those copies).
inline const nlohmann::json& array_field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none = nlohmann::json::array();
  auto it = j.find(key);
  return it != j.end() ? *it : none;
}
inline const nlohmann::json& object_field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none = nlohmann::json::object();
  auto it = j.find(key);
  return it != j.end() ? *it : none;
}

}  // namespace qsel
