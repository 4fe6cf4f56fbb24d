// After ranking: which candidates share a row of the answer's table. Adjacent candidates
// of one format whose figures are the same share a row whatever their engines (as
// before); adjacent formats of one scheme (FP8 blockwise, rowwise, per-tensor …) share
// one too when nothing a deployer chooses by tells them apart: the same path, memory,
// fit, KV cache and speed, one quality family (the method that makes them: GGUF's
// K-quants, i-quants and legacy types stay apart), quality estimates whose bands overlap (the differences are
// inside what the estimates know), and every format of the row on every engine of it,
// so a row of two formats and two engines claims no pairing that is not ranked.
#include <algorithm>
#include <cmath>
#include <set>

#include "qsel/rules/fit_price.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

// Within what the table shows: 0.1 GB, and 2% (or half a token) of speed.
bool row_near_gb(double a, double b) { return std::abs(a - b) < 0.1; }
bool row_near_speed(double a, double b) { return std::abs(a - b) <= std::max(0.5, 0.02 * std::max(a, b)); }


// The figures a row shows are the same (format and engine aside).
bool row_same_figures(const Candidate& a, const Candidate& b) {
  if (a.path != b.path || a.disputed() != b.disputed() || a.memory.has_value() != b.memory.has_value()) return false;
  if (!a.memory) return true;
  const Memory &x = *a.memory, &y = *b.memory;
  return x.fit == y.fit && x.kv_dtype == y.kv_dtype && row_near_gb(x.weights_gb, y.weights_gb) && row_near_gb(x.kv_gb, y.kv_gb) && row_near_gb(x.state_gb, y.state_gb) &&
         row_near_gb(x.total_gb, y.total_gb) && row_near_speed(decode_speed(x), decode_speed(y)) && (x.forecast_tok_s > 0) == (y.forecast_tok_s > 0);
}

// Two formats of one scheme whose estimated costs cannot be told apart.
bool row_alike_formats(const Candidate& a, const Candidate& b) {
  if (a.format == b.format) return a.quality.short_text == b.quality.short_text;
  std::string scheme = a.format->str("scheme");
  if (scheme.empty() || scheme != b.format->str("scheme")) return false;
  const QualityCost &p = a.quality, &q = b.quality;
  if (!p.known || !q.known || p.reference || q.reference || p.family != q.family) return false;  // K-quants and i-quants stay apart
  return a.shipped == b.shipped && a.release.empty() == b.release.empty() && p.low + p.kv_cost <= q.high + q.kv_cost &&
         q.low + q.kv_cost <= p.high + p.kv_cost;
}

// Every format of [from, to) on every engine of it.
bool row_full_product(const std::vector<Candidate>& cs, std::size_t from, std::size_t to) {
  std::set<const Record*> formats, engines;
  std::set<std::pair<const Record*, const Record*>> pairs;
  for (std::size_t i = from; i < to; ++i) {
    formats.insert(cs[i].format);
    engines.insert(cs[i].engine);
    pairs.insert({cs[i].format, cs[i].engine});
  }
  return pairs.size() == formats.size() * engines.size();
}

}  // namespace

void assign_rows(Deliberation& d) {
  auto& cs = d.candidates;
  int row = -1;
  for (std::size_t i = 0; i < cs.size();) {
    // The longest run from i whose members are alike the first.
    std::size_t j = i + 1;
    while (j < cs.size() && row_same_figures(cs[i], cs[j]) && row_alike_formats(cs[i], cs[j])) ++j;
    bool one_row = row_full_product(cs, i, j);
    for (std::size_t k = i; k < j; ++k) {
      if (k == i || (!one_row && cs[k].format != cs[k - 1].format)) ++row;
      cs[k].row = row;
    }
    i = j;
  }
}

}  // namespace qsel
