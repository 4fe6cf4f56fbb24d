#include "qsel/graph/gpu_names.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace qsel {
namespace {

// Words that name a vendor or brand, never the part.
bool vendor_word(const std::string& w) {
  static const char* words[] = {"nvidia", "geforce", "amd", "radeon", "instinct", "apple", "intel", "tesla", "graphics", "generation", "gpu", "r", "tm"};  // "Intel(R) Arc(TM)"
  return std::any_of(std::begin(words), std::end(words), [&](const char* v) { return w == v; });
}

std::vector<std::string> words_of(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s.substr(0, 200)) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '.') cur += static_cast<char>(std::tolower(c));
    else if (!cur.empty()) { out.push_back(cur); cur.clear(); }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// "36gb", "80g", "128gib" → the number; 0 when the word is not a memory size.
double memory_word(const std::string& w) {
  std::size_t i = 0;
  while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
  if (i == 0 || i > 4) return 0;
  std::string unit = w.substr(i);
  if (unit != "gb" && unit != "g" && unit != "gib") return 0;
  return std::stod(w.substr(0, i));
}

double memory_of(const Record& a) { return a.data.value("memory_gb", 0.0); }

// What a driver reports for the part: the recorded figure, else the label in MiB.
double reported_mib_of(const Record& a) {
  double reported = a.data.value("memory_reported_mib", 0.0);
  return reported > 0 ? reported : memory_of(a) * 1024;
}

std::string compact(std::string_view s) { return normalize_name(s); }

// "a6000" → {a, 6000}; "rtx3090" → {"", 3090} (series words are not part of the
// number); "4090d" → {"", 4090}. Nothing for a word without a 3+ digit run or a memory size.
struct ModelNumber {
  std::string prefix, digits;
};

std::optional<ModelNumber> model_number(const std::string& w) {
  if (memory_word(w) > 0) return std::nullopt;
  std::size_t i = 0;
  while (i < w.size() && std::isalpha(static_cast<unsigned char>(w[i]))) ++i;
  std::size_t j = i;
  while (j < w.size() && std::isdigit(static_cast<unsigned char>(w[j]))) ++j;
  if (j - i < 3) return std::nullopt;
  ModelNumber m{w.substr(0, i), w.substr(i, j - i)};
  for (const char* series : {"rtx", "gtx", "rx", "arc", "quadro", "titan"})
    if (m.prefix == series) m.prefix.clear();
  return m;
}

}  // namespace

GpuName split_gpu_name(std::string_view name) {
  GpuName out;
  auto words = words_of(name);
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (vendor_word(words[i])) continue;
    if (double m = memory_word(words[i]); m > 0) { out.memory_gb = m; continue; }
    if (i + 1 < words.size() && (words[i + 1] == "gb" || words[i + 1] == "gib") && words[i].size() <= 4 &&
        std::all_of(words[i].begin(), words[i].end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      out.memory_gb = std::stod(words[i]);
      ++i;
      continue;
    }
    kept.push_back(words[i]);
  }
  for (std::size_t i = 0; i < kept.size(); ++i) out.rest += (i ? " " : "") + kept[i];
  return out;
}

const Record* resolve_typed_gpu(const Graph& g, std::string_view name, std::string* how) {
  GpuName n = split_gpu_name(name);
  if (n.rest.empty()) return nullptr;
  auto pick_member = [&](const Record* r) -> const Record* {
    if (n.memory_gb <= 0 || std::fabs(memory_of(*r) - n.memory_gb) < 0.5) return r;
    std::string family = r->str("family");
    if (family.empty()) return nullptr;
    for (const Record* a : g.of_kind(Kind::Accelerator))
      if (a->str("family") == family && std::fabs(memory_of(*a) - n.memory_gb) < 0.5) return a;
    return nullptr;
  };
  if (n.memory_gb > 0) {
    Resolution with = g.resolve(fmt::format("{} {:g}gb", n.rest, n.memory_gb), Kind::Accelerator);
    if (with) {
      *how = fmt::format("\"{}\" read as {}", name, with.record->id);
      return with.record;
    }
  }
  Resolution r = g.resolve(n.rest, Kind::Accelerator);
  if (!r) return nullptr;
  const Record* chosen = pick_member(r.record);
  if (!chosen) return nullptr;
  *how = n.memory_gb > 0 ? fmt::format("\"{}\" read as {} ({:g} GB)", name, chosen->id, n.memory_gb)
                         : fmt::format("\"{}\" read as {}{}", name, chosen->id,
                                       r.how == Resolution::How::Family ? ", the family default" : "");
  return chosen;
}

ReportedGpuMatcher::ReportedGpuMatcher(const Graph& g) {
  for (const Record* a : g.of_kind(Kind::Accelerator)) {
    Part p;
    p.record = a;
    std::vector<std::string> spellings = {a->id, a->name, a->str("family")};
    spellings.insert(spellings.end(), a->aliases.begin(), a->aliases.end());
    // Vendor words and memory sizes set aside on both sides, so "NVIDIA GeForce
    // RTX 4060" does not outscore "RTX 4060 Ti" inside "NVIDIA GeForce RTX 4060 Ti".
    for (const auto& s : spellings) p.spellings.push_back(compact(split_gpu_name(s).rest));
    p.reported_mib = reported_mib_of(*a);
    p.family = a->str("family");
    p.family_default = a->data.value("family_default", false);
    parts_.push_back(std::move(p));
  }
}

const Record* ReportedGpuMatcher::match(std::string_view name, double memory_mib) const {
  GpuName reported = split_gpu_name(name);
  std::string hay = compact(reported.rest);
  if (memory_mib <= 0) memory_mib = reported.memory_gb * 1024;
  const Part* best = nullptr;
  std::size_t best_len = 0;
  double best_gap = 1e18;
  for (const Part& a : parts_) {
    std::size_t len = 0;
    for (const auto& c : a.spellings) {
      bool usable = c.size() >= 3 || (c.size() >= 2 && c == hay);
      if (usable && c.size() > len && hay.find(c) != std::string::npos) len = c.size();
    }
    if (len == 0) continue;
    double gap = memory_mib <= 0 ? 0 : std::fabs(a.reported_mib - memory_mib);
    if (len > best_len || (len == best_len && gap < best_gap)) {
      best = &a;
      best_len = len;
      best_gap = gap;
    }
  }
  if (best && memory_mib <= 0)  // no memory to choose by: the family's default member
    for (const Part& a : parts_)
      if (!best->family.empty() && a.family == best->family && a.family_default) return a.record;
  if (!best || memory_mib <= 0) return best ? best->record : nullptr;
  // The name may cover a whole family (a 4060 Ti 8 or 16 GB): the memory decides.
  const Part* chosen = best;
  for (const Part& a : parts_) {
    if (best->family.empty() || a.family != best->family || &a == best) continue;
    double gap = std::fabs(a.reported_mib - memory_mib);
    if (gap < best_gap) {
      chosen = &a;
      best_gap = gap;
    }
  }
  return chosen->record;
}

const Record* match_reported_gpu(const Graph& g, std::string_view name, double memory_mib) {
  return ReportedGpuMatcher(g).match(name, memory_mib);
}

std::vector<std::string> parts_sharing_a_word(const Graph& g, std::string_view query) {
  std::vector<std::string> wanted;
  for (const auto& w : words_of(split_gpu_name(query).rest))
    if (w.size() >= 3 && std::all_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) &&
        w != "rtx" && w != "gtx" && w != "pro" && w != "max" && w != "ultra" && w != "super" && w != "laptop" && w != "series" &&
        w != "quadro" && w != "titan" && w != "arc")
      wanted.push_back(w);
  std::vector<std::string> out;
  if (wanted.empty()) return out;
  for (const Record* a : g.of_kind(Kind::Accelerator)) {
    std::vector<std::string> spellings = {a->id, a->name};
    spellings.insert(spellings.end(), a->aliases.begin(), a->aliases.end());
    bool shares = std::any_of(spellings.begin(), spellings.end(), [&](const std::string& s) {
      auto ws = words_of(s);
      return std::any_of(ws.begin(), ws.end(), [&](const std::string& w) { return std::find(wanted.begin(), wanted.end(), w) != wanted.end(); });
    });
    if (shares) out.push_back(a->id);
  }
  return out;
}

std::vector<std::string> parts_sharing_model_number(const Graph& g, std::string_view query) {
  ModelNumber wanted;
  for (const auto& w : words_of(query))
    if (auto m = model_number(w); m && m->digits.size() > wanted.digits.size()) wanted = *m;
  std::vector<std::string> out;
  if (wanted.digits.empty()) return out;
  for (const Record* a : g.of_kind(Kind::Accelerator)) {
    std::vector<std::string> spellings = {a->id};
    spellings.insert(spellings.end(), a->aliases.begin(), a->aliases.end());
    bool shares = std::any_of(spellings.begin(), spellings.end(), [&](const std::string& s) {
      auto ws = words_of(s);
      return std::any_of(ws.begin(), ws.end(), [&](const std::string& w) {
        auto m = model_number(w);
        return m && m->digits == wanted.digits && m->prefix == wanted.prefix;
      });
    });
    if (shares) out.push_back(a->id);
  }
  return out;
}

}  // namespace qsel
