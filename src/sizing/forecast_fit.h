// The fits' shared arithmetic (forecast.cc, forecast_tp.cc): medians, ranks and the tensor-parallel step.
// Private to src/sizing.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "qsel/sizing/forecast.h"

namespace qsel::fit {

// The fits take a median some million times (the held-out tables refit inside each fit): selection,
// not a sort, finds the same middle values in linear time (3/4 of the tables' time was sorting).
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::size_t n = v.size(), h = n / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  double upper = v[h];
  if (n % 2) return upper;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)) + upper) / 2;
}

constexpr int kMinRows = 3;

// The value at rank n x q of the sorted errors (q = 0.5: the upper median; 0.9: the 90th percentile),
// as tests/sizing/forecast_test.cc has always read the tensor-parallel held-out figures.
inline double at_rank(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(static_cast<double>(v.size()) * q))];
}

// Seconds a run spends per layer beyond reading its weights at efficiency e.
inline double layer_term(const TpRow& r, double e) { return std::max(0.0, (1 / r.measured_tok_s - 1 / (e * r.ceiling_tok_s)) / r.layers); }

inline double tp_error(const TpRow& r, double e, double layer_s) {
  double predicted = 1 / (1 / (e * r.ceiling_tok_s) + r.layers * layer_s);
  return std::fabs(predicted - r.measured_tok_s) / r.measured_tok_s;
}


}  // namespace qsel::fit
