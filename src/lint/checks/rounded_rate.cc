// QS042: an accelerator's rate is a rounded copy: not half its datasheet's sparse
// rate, or a sibling part's rate written to fewer digits.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS042", "rounded-rate", Severity::Error, true,
    "An accelerator's rate is not its datasheet's: a dense rate other than half its sparse one, or a sibling's rate copied to fewer digits.",
    {R"(An accelerator whose `tflops.P` is not exactly half of `tflops_sparse.P` (the datasheet's rate with structured sparsity), or that has a sparse rate and no dense one; or whose tensor rate (tf32, fp16, bf16, fp8, int8, fp6, fp4, int4, fp64_matrix) differs from a sibling's by no more than half a unit of the shorter figure's last digit (989 against 989.5, 623.74 against 624, 1307 against 1307.4) — one of the two is a rounded copy of the other. Siblings are parts of the same vendor and target whose shared tensor rates all agree that way or are equal: the same silicon at the same clocks. The finding lands on the part whose sibling's rate is its sparse rate halved, else on the part fewer siblings agree with; on both when nothing settles it.)",
     R"(Vendors print sparse rates and mark them (NVIDIA's asterisk, AMD's "with sparsity"); the dense rate is that figure halved, to the half TFLOPS: H100 NVL's 1,671 sparse FP16 is 835.5 dense. Copies through spec tables round it — 840 on the H200 NVL, 989 on the GH200 — and a roofline or compute-bound forecast then disagrees with its sibling parts by a rounding nobody decided. The sparse figure in the record makes the rule mechanical.)",
     R"(# accelerators/h200-nvl.yaml
tflops:
  fp16: 840
tflops_sparse:
  fp16: 1671)",
     R"(accelerators/h200-nvl.yaml:3:9: error: tflops.fp16 is 840, but the datasheet's sparse 1671 halves to 835.5: a dense rate is its sparse one divided by 2 [QS042 rounded-rate])",
     R"(Read the vendor's datasheet row for the precision: store the sparse figure in `tflops_sparse` and its half in `tflops` (`qsel lint --fix` writes the half), or, where the vendor prints only dense rates, the dense figure as printed. Parts that share silicon and clocks carry the same figures.)"}};

constexpr const char* kTensorRates[] = {"tf32", "fp16", "bf16", "fp8", "int8", "fp6", "fp4", "int4", "fp64_matrix"};

double rate(const json& t, const std::string& key) {
  auto it = t.find(key);
  return it != t.end() && it->is_number() ? it->get<double>() : -1;
}

// A figure as written: 840, 835.5 (the shortest text that reads back, without a trailing ".0").
std::string figure(double v) { return fmt::format("{}", v); }

bool same(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

// The place value of a figure's last written digit: 0.01 for 623.74, 1 for 989, 10 for 840 (a
// trailing zero of a whole number reads as rounding; at most 10).
double last_digit(double v) {
  std::string t = figure(v);
  if (std::size_t dot = t.find('.'); dot != std::string::npos && t.find_first_of("eE") == std::string::npos)
    return std::pow(10.0, -static_cast<double>(t.size() - dot - 1));
  return std::fmod(v, 10.0) == 0 && v != 0 ? 10 : 1;
}

// Agree to the shorter figure's last digit without being equal.
bool rounded_pair(double a, double b) {
  if (a <= 0 || b <= 0 || same(a, b)) return false;
  double unit = std::max(last_digit(a), last_digit(b));
  return std::fabs(a - b) <= unit / 2 + 1e-9 && std::fabs(a - b) / std::max(a, b) < 0.01;
}

// The rate a part's own sparse figure settles, or -1.
double settled(const Record& a, const std::string& key) {
  double sparse = rate(field(a, "tflops_sparse"), key), dense = rate(field(a, "tflops"), key);
  return sparse > 0 && dense > 0 && same(dense, sparse / 2) ? dense : -1;
}

void check_sparse(CheckContext& c, const Record& a) {
  const json& sparse = field(a, "tflops_sparse");
  if (!sparse.is_object()) return;
  const json& dense = field(a, "tflops");
  for (const auto& [key, v] : sparse.items()) {
    if (!v.is_number()) continue;
    double half = v.get<double>() / 2, d = rate(dense, key);
    if (d < 0) {
      c.report(a, "/tflops_sparse/" + key,
               fmt::format("tflops_sparse.{} is {}, but tflops has no {}: give the dense rate, {}", key, figure(v.get<double>()), key,
                           figure(half)));
    } else if (!same(d, half)) {
      Finding& f = c.report(a, "/tflops/" + key,
                            fmt::format("tflops.{} is {}, but the datasheet's sparse {} halves to {}: a dense rate is its sparse one "
                                        "divided by 2",
                                        key, figure(d), figure(v.get<double>()), figure(half)));
      f.fix = Fix{f.mark, figure(d), figure(half)};
    }
  }
}

// Two parts are siblings — the same silicon at the same clocks, as far as their figures
// say — when every tensor rate both carry is equal or agrees to the shorter figure's
// last digit.
bool siblings(const Record& a, const Record& b) {
  const json &ta = field(a, "tflops"), &tb = field(b, "tflops");
  bool shared = false;
  for (const char* key : kTensorRates) {
    double x = rate(ta, key), y = rate(tb, key);
    if (x <= 0 || y <= 0) continue;
    shared = true;
    if (!same(x, y) && !rounded_pair(x, y)) return false;
  }
  return shared;
}

void check_siblings(CheckContext& c, const std::vector<const Record*>& parts) {
  for (const Record* p : parts) {
    std::vector<const Record*> sibs;
    for (const Record* q : parts)
      if (q != p && siblings(*p, *q)) sibs.push_back(q);
    for (const char* key : kTensorRates) {
      double mine = rate(field(*p, "tflops"), key);
      if (mine <= 0 || settled(*p, key) > 0) continue;
      // The other figure the siblings carry for this rate, and how many carry each.
      const Record* other = nullptr;
      bool other_settled = false;
      int with_mine = 1, with_other = 0;
      double theirs = -1;
      for (const Record* q : sibs) {
        double v = rate(field(*q, "tflops"), key);
        if (v <= 0) continue;
        if (same(v, mine)) {
          ++with_mine;
        } else if (rounded_pair(v, mine)) {
          if (!other || settled(*q, key) > 0) other = q, theirs = v;
          other_settled = other_settled || settled(*q, key) > 0;
          ++with_other;
        }
      }
      if (!other || (!other_settled && with_mine > with_other)) continue;
      c.report(*p, std::string("/tflops/") + key,
               fmt::format("tflops.{} is {}, and {}'s is {} (same target {}, the same figures otherwise): one of the two is a rounded copy "
                           "of the other{}; take the datasheet's",
                           key, figure(mine), other->id, figure(theirs), p->str("target"),
                           other_settled ? fmt::format(" — {}'s is its sparse rate halved", other->id) : ""));
    }
  }
}

constexpr KeptField kReads[] = {{Kind::Accelerator, "/tflops"}, {Kind::Accelerator, "/tflops_sparse"},
                                {Kind::Accelerator, "/target"}, {Kind::Accelerator, "/vendor"}};

void run(CheckContext& c) {
  std::map<std::pair<std::string, std::string>, std::vector<const Record*>> siblings;
  for (const Record* a : c.graph().of_kind(Kind::Accelerator)) {
    check_sparse(c, *a);
    if (!a->str("target").empty()) siblings[{a->str("vendor"), a->str("target")}].push_back(a);
  }
  for (const auto& [key, parts] : siblings) check_siblings(c, parts);
}

}  // namespace

Check rounded_rate() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
