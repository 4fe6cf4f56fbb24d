// What must hold of recommend's ranking whatever the question (docs/ranking.md,
// "Properties checked over the grid"): run over accelerators x models x engine
// restrictions, with more GPUs, more RAM and a shorter context beside each query.
// CI checks a fixed sample; QSEL_SWEEP=full (scripts/sweep-properties) every accelerator.
#include <catch2/catch.hpp>

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "qsel/core/json_number.h"
#include "qsel/core/units.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"

using namespace qsel;

namespace {

const std::vector<std::string> kModels = {
    "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
    "gpt-oss-20b", "gpt-oss-120b", "deepseek-r1", "gemma-3-27b", "gemma-3-12b", "mistral-small-3.2-24b", "mistral-7b", "phi-4",
    "llama-4-scout", "qwen2.5-72b", "qwen2.5-coder-32b", "mixtral-8x7b", "glm-4.5-air", "llama-3.2-3b"};

bool takes_more_parts(const Record& a) {
  std::string m = a.str("market");
  return m == "consumer" || m == "workstation" || m == "datacenter" || m == "cloud";
}

Query query(const Graph& g, const Record& acc, const std::string& model, const std::vector<std::string>& engines) {
  Query q;
  q.accelerator = &acc;
  q.target = g.find(acc.str("target"));
  q.model = model_from_record(*g.find(model));
  q.engines = engines;
  if (q.model->max_context > 0) q.context = std::min<long>(q.context, q.model->max_context);
  return q;
}

std::string who(const Candidate& c) {
  return fmt::format("{} on {} ({}, {}, {})", c.format->id, c.engine ? c.engine->id : "-", c.path, c.memory ? c.memory->fit : "?",
                     c.quality.short_text);
}

bool in_system_ram(const Candidate& c) { return c.memory && (c.memory->fit == "offload" || c.memory->fit == "slow"); }
double bits(const Candidate& c) { return number_or(c.format->data, "weight_bits", c.memory ? c.memory->bpw : 0); }

// `b`'s quality is worse than `a`'s by more than the band of their difference.
bool worse(const QualityModel& m, const Candidate& b, const Candidate& a) {
  double ca = a.quality.total(), cb = b.quality.total();
  if (!a.quality.known || !b.quality.known || cb <= ca) return false;
  if (ca <= 0) return cb > 0;
  return std::log(cb / ca) > 1.2816 * m.difference_sd(a.quality.estimate, b.quality.estimate) + 1e-9;
}

bool deployable(const Deliberation& d) {
  return !d.candidates.empty() && d.deployable && rule_util::fits(d.candidates.front()) && !rule_util::has_blocker(d.candidates.front());
}

struct Sweep {
  int queries = 0;
  std::vector<std::string> violations;
  std::mutex mutex;
  void fail(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    violations.push_back(what);
  }
};

// More of a resource never gives a lower-quality #1.
void more_never_worse(const Graph& g, const Fitted& f, const Query& base, const Deliberation& d, Query more, const std::string& what,
                      Sweep& s) {
  if (!deployable(d)) return;
  Deliberation m = deliberate(g, more, &f);
  if (!deployable(m)) {
    s.fail(fmt::format("{}: {} leaves no deployable #1 (was {})", base.accelerator->id, what, who(d.candidates[0])));
    return;
  }
  const Candidate &a = d.candidates[0], &b = m.candidates[0];
  // A plan partly in system RAM trades quality for speed at the stated price (fit_price.h): more of a
  // resource can move that trade towards a faster plan, never towards a slower, worse one.
  auto speed = [](const Candidate& c) { return c.memory ? decode_speed(*c.memory) : 0.0; };
  if (in_system_ram(a) && (!in_system_ram(b) || speed(b) > speed(a))) return;
  // On a local runner the 16-bit file is priced against a lossless format that runs kSlowGain faster (ranking.cc,
  // price_slow_reference): less context can make the 8-bit file that much faster and move the trade towards it.
  bool local = a.engine && a.engine->str("role") == "local";
  if (local && is_baseline(*a.format) && !is_baseline(*b.format) && speed(b) > speed(a) && quality_band(b.quality.total()) == "lossless")
    return;
  // A tight fit that may not load gives way to a comfortable one of a quality inside the tight fit's price.
  if (a.memory && b.memory && a.memory->fit == "tight" && b.memory->fit == "yes") return;
  // On a datacenter or cloud part the question is serving (eligibility step 7): when the larger machine
  // first holds a serving engine that the smaller one could not, the answer changes class, not quality.
  auto serving = [](const Candidate& c) { return c.engine && c.engine->str("role") == "serving"; };
  std::string market = base.accelerator->str("market");
  if ((market == "datacenter" || market == "cloud") && serving(b) && !serving(a)) return;
  if (worse(*f.quality_model, b, a))
    s.fail(fmt::format("{} {}: {} gives a worse #1: {} after {}", base.accelerator->id, base.model->id, what, who(b), who(a)));
}

void check_query(const Graph& g, const Fitted& f, const Query& asked, Sweep& s) {
  Query q = asked;
  q.suggest = false;  // the properties are about the ranking; the nothing-fits lead has its own tests (nothing_fits_test)
  Deliberation d = deliberate(g, q, &f);
  const auto& cs = d.candidates;
  std::string where = fmt::format("{} {} {}", q.accelerator->id, q.model->id, q.engines.empty() ? "any" : q.engines[0]);
  // A family's higher-bit types rank above its lower-bit ones when all fit on the GPU with room
  // (same engine, path and KV cache; neither the release; both mainline and uncontested), unless
  // only the one with fewer bits is a published checkpoint and their estimates agree.
  for (std::size_t i = 0; i < cs.size(); ++i)
    for (std::size_t j = i + 1; j < cs.size(); ++j) {
      const Candidate &hi = cs[i], &lo = cs[j];
      if (hi.quality.family.empty() || hi.quality.family != lo.quality.family || hi.engine != lo.engine || hi.path != lo.path) continue;
      if (!hi.memory || !lo.memory || hi.memory->fit != "yes" || lo.memory->fit != "yes" || hi.memory->kv_dtype != lo.memory->kv_dtype) continue;
      if (hi.shipped || lo.shipped || hi.contested() || lo.contested() || hi.maturity != lo.maturity) continue;
      if (rule_util::has_blocker(hi) || rule_util::has_blocker(lo) || (bits(hi) >= 4) != (bits(lo) >= 4)) continue;
      if (lo.memory->bpw <= hi.memory->bpw + 0.05) continue;
      // A published checkpoint ranks before a format the user must quantize themselves (tie-break
      // 10 before 14, docs/ranking.md): a file that exists outranks a quarter of a bit, FP8
      // (8.0 bits) before an MXFP8 (8.25) nobody publishes — but only while the estimates cannot
      // tell the two apart; a published one measurably worse is still a violation.
      // A format the engine makes from the 16-bit repository as it loads (online_quantization) counts as published.
      bool hi_published = !hi.release.empty() || !hi.online_flags.empty(), lo_published = !lo.release.empty() || !lo.online_flags.empty();
      if (hi_published && !lo_published && !worse(*f.quality_model, hi, lo)) continue;
      s.fail(fmt::format("{}: {} ranks above {} of its family with more bits", where, who(hi), who(lo)));
    }
  if (deployable(d)) {
    const Candidate& top = cs[0];
    // An experimental or emulated path is never #1 while a mainline native or dequant path of equal or more bits fits,
    // of the answer's class: on a datacenter or cloud part the question is serving (eligibility step 9), so a local
    // runner's GGUF does not count against a serving engine's own format (Intel Max: vLLM's FP8 weight-only through its
    // XPU kernel, with llama.cpp's Q8_0 the only other 8-bit path).
    std::string top_market = q.accelerator->str("market");
    bool serving_part = top_market == "datacenter" || top_market == "cloud";
    auto serving_own = [](const Candidate& c) {
      return c.engine && c.engine->str("role") == "serving" && c.format->str("scheme") != "gguf";
    };
    if (top.path == "emulated" && !top.shipped)
      for (const auto& c : cs)
        if (&c != &top && rule_util::fits(c) && c.maturity == "mainline" && c.path != "emulated" && !c.contested() &&
            !rule_util::has_blocker(c) && !rule_util::broken(c) && bits(c) >= bits(top) &&
            !(serving_part && serving_own(top) && !serving_own(c))) {
          s.fail(fmt::format("{}: #1 {} is emulated while {} fits", where, who(top), who(c)));
          break;
        }
    // The shipped format is never out-ranked by a re-quantization or up-cast of it.
    const Release* primary = q.model->shipped();
    if (primary && !is_baseline(*g.find(primary->format)))
      for (const auto& c : cs) {
        if (!c.shipped || !c.memory || c.memory->fit != "yes" || c.maturity != "mainline" || rule_util::has_blocker(c)) continue;
        if (!top.shipped) s.fail(fmt::format("{}: #1 {} out-ranks the release {}", where, who(top), who(c)));
        break;
      }
  }
  // More GPUs, more RAM, a smaller KV cache.
  if (q.count == 1 && takes_more_parts(*q.accelerator)) {
    Query more = q;
    more.count = 2;
    more_never_worse(g, f, q, d, more, "--count 2", s);
  }
  Query ram = q;
  ram.host.ram_gb = 128 * kGiBInGB;
  more_never_worse(g, f, q, d, ram, "--ram 128", s);
  Query shorter = q;
  shorter.context = q.context / 2;
  more_never_worse(g, f, q, d, shorter, "half the context", s);
  // --objective speed never picks a candidate slower than another of its class by more than the
  // forecast's error (10%, the band of ranking.cc). Not of its class: a re-quantization of a quantized
  // release that nobody publishes, at about the release's size (3/4 of its bits to 10% more), while the
  // release fits on the GPU (the release comes first under every objective); nor a checkpoint to calibrate yourself
  // while a published one about as fast fits (eligibility step 7).
  Query fast = q;
  fast.objective = "speed";
  Deliberation sp = deliberate(g, fast, &f);
  if (deployable(sp)) {
    const Candidate& top = sp.candidates[0];
    auto speed = [](const Candidate& c) { return c.memory ? decode_speed(*c.memory) : 0.0; };
    std::string market = q.accelerator->str("market");
    bool serving = market == "datacenter" || market == "cloud";
    const Release* released = q.model->shipped();
    bool quantized_release = released && !is_baseline(*g.find(released->format));
    auto sized = [](const Candidate& c) { return c.memory && c.memory->bpw > 0 ? c.memory->bpw : bits(c); };
    auto waits_for_release = [&](const Candidate& c) {
      if (!quantized_release || c.shipped || !c.release.empty() || is_baseline(*c.format)) return false;
      return std::any_of(sp.candidates.begin(), sp.candidates.end(), [&](const Candidate& o) {
        bool release = o.format->id == released->format ||
                       std::any_of(q.model->releases.begin(), q.model->releases.end(),
                                   [&](const Release& r) { return r.repack && r.format == o.format->id; });
        return release && o.memory && (o.memory->fit == "yes" || o.memory->fit == "tight") &&
               o.maturity == "mainline" && !o.contested() && !rule_util::has_blocker(o) && sized(c) >= 0.75 * sized(o) && sized(c) <= 1.10 * sized(o);
      });
    };
    // Eligibility step 10: a GGUF file on a serving engine waits while one of that engine's own formats fits.
    auto gguf_waits = [&](const Candidate& c) {
      if (!c.engine || c.engine->str("role") != "serving" || c.format->str("scheme") != "gguf") return false;
      return std::any_of(sp.candidates.begin(), sp.candidates.end(), [&](const Candidate& o) {
        return o.engine == c.engine && o.format->str("scheme") != "gguf" && o.memory &&
               (o.memory->fit == "yes" || o.memory->fit == "tight") && !rule_util::broken(o);
      });
    };
    // Eligibility step 7: a checkpoint to calibrate yourself for a serving engine waits for a published one of its
    // quality band or better, on a serving engine, within the forecast's error of its speed.
    auto waits_for_published = [&](const Candidate& c) {
      if (!c.engine || c.engine->str("role") != "serving" || c.shipped || !c.release.empty() || !c.online_flags.empty() || is_baseline(*c.format) ||
          c.format->str("scheme") == "gguf" || !c.quality.known)
        return false;
      int band = quality_band_rank(quality_band(c.quality.total()));
      return std::any_of(sp.candidates.begin(), sp.candidates.end(), [&](const Candidate& o) {
        return &o != &c && (!o.release.empty() || o.shipped || !o.online_flags.empty()) && !is_baseline(*o.format) && o.quality.known && o.engine &&
               o.engine->str("role") == "serving" && o.memory && (o.memory->fit == "yes" || o.memory->fit == "tight") &&
               !o.contested() && !rule_util::has_blocker(o) && quality_band_rank(quality_band(o.quality.total())) <= band &&
               !(o.path == "emulated" && c.path != "emulated" && bits(c) >= bits(o)) && !gguf_waits(o) &&
               speed(o) * 1.10 >= speed(c);
      });
    };
    for (const auto& c : sp.candidates) {
      if (!rule_util::fits(c) || c.maturity != "mainline" || c.contested() || rule_util::has_blocker(c) || rule_util::broken(c)) continue;
      if (waits_for_release(c) || waits_for_published(c) || gguf_waits(c)) continue;
      if (c.path == "emulated" || (c.memory && c.memory->fit == "slow") || (bits(c) > 0 && bits(c) < 4) || !top.memory) continue;
      if (serving && c.engine && c.engine->str("role") != "serving") continue;
      if (speed(c) > speed(top) * 1.10 * 1.0001 && (bits(top) >= 4 || bits(top) <= 0)) {
        s.fail(fmt::format("{}: --objective speed #1 {} at {:.0f} tok/s, {} at {:.0f}", where, who(top), speed(top), who(c), speed(c)));
        break;
      }
    }
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  s.queries += 6;
}

}  // namespace

TEST_CASE("ranking properties: what must hold over accelerators x models x engine restrictions", "[rules][ranking][properties]") {
  const Graph& g = embedded_graph();
  Fitted f;
  {
    Deliberation warm = deliberate(g, query(g, *g.find("rtx-4090"), "llama-3.1-8b", {}));
    f.calibration = warm.calibration;
    f.quality_model = warm.quality_model;
  }
  bool full = std::getenv("QSEL_SWEEP") && std::string(std::getenv("QSEL_SWEEP")) == "full";
  const auto& accelerators = g.of_kind(Kind::Accelerator);
  std::size_t stride = full ? 1 : 16;  // CI: a fixed sixteenth of the parts, every market among them
  std::vector<std::pair<const Record*, std::string>> grid;
  for (std::size_t i = 0; i < accelerators.size(); i += stride)
    for (std::size_t m = 0; m < kModels.size(); ++m)
      if (full || (i / stride + m) % 2 == 0) grid.push_back({accelerators[i], kModels[m]});
  Sweep s;
  unsigned threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t k = t; k < grid.size(); k += threads) {
        const Record& acc = *grid[k].first;
        std::vector<std::vector<std::string>> restrictions = {{}, {"llama-cpp"}, {"vllm"}};
        if (acc.str("vendor") == "apple") restrictions.push_back({"mlx-lm"});
        for (const auto& engines : restrictions) check_query(g, f, query(g, acc, grid[k].second, engines), s);
      }
    });
  for (auto& th : pool) th.join();
  if (full || std::getenv("QSEL_SWEEP_REPORT"))
    std::cout << fmt::format("ranking properties: {} accelerators x {} models, {} deliberations, {} violations\n",
                             (accelerators.size() + stride - 1) / stride, kModels.size(), s.queries, s.violations.size());
  for (std::size_t i = 0; i < s.violations.size() && i < 40; ++i) UNSCOPED_INFO(s.violations[i]);
  CHECK(s.violations.empty());
  CHECK(s.queries > 500);
}
