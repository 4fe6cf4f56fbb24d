// A record field read as a number: the one accessor the sizing and ranking code
// shares for optional numeric fields (memory rules, TFLOPS, weight bits).
#pragma once
#include <nlohmann/json.hpp>

namespace qsel {

// `j[key]` when `j` is an object holding a number there, else `fallback`.
inline double number_or(const nlohmann::json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

}  // namespace qsel
