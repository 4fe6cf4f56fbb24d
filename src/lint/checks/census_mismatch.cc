// QS025: an accelerator's census figures differ from the tally of the format records.
#include <algorithm>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/json_number.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS025", "census-mismatch", Severity::Error, false,
    "An accelerator's census differs from the format records that list it.",
    {R"(An accelerator record with a `census` block whose `native` (or `emulated`) count, or list of counted formats (`native_formats`, `emulated_formats`), differs from the format records whose `native_support` (or `emulated_support`) lists that accelerator — as the census sees them: a format that follows a higher source and keeps the census's claim as a `contested_by` entry for that list and part (`listed: false` where the census leaves the part out, `listed: true` where it puts it in) is counted the census's way. Where the census names its formats, the finding is reported on the side that changed: on the format record that lists the part without being counted (the file just edited), or on the census entry naming a format that no longer lists it. Every message names the census (its file and source) and the records it counted.)",
     R"(The census figures are what doc 04 §3.2 states per part ("13 native formats on H100 SXM, 6 on the RTX 4090"; docs/sources.md), and the support lists are where they live in the corpus. When an edit to a format's lists moves a tally, one of the two is now wrong, and the per-hardware guidance built on it is too. A count alone cannot say which record moved; the list of counted formats can, so the finding lands in the file that was edited.)",
     R"(# formats/gguf-q4-k-m-imatrix.yaml (a copy of gguf-q4-k-m)
id: gguf-q4-k-m-imatrix
native_support:
- rtx-4090      # rtx-4090's census counts 6 native formats, and not this one)",
     R"(formats/gguf-q4-k-m-imatrix.yaml:4:3: error: lists rtx-4090 in native_support, but rtx-4090's census (accelerators/rtx-4090.yaml, doc 04 §3.2) counts 6 native formats without this one: autoround-w4a16, bitsandbytes-load-in-4bit, llmcompressor-quant, ort-matmulnbits-int4, ort-quant-int8, ortgenai-int4-fp8 [QS025 census-mismatch])",
     R"(If the format really runs natively there, the census has moved: add the format to `census.native_formats`, raise `census.native`, and say where the new figure comes from in `source`. If not, take the part out of the format's list. `qsel show ID` lists every edge into the accelerator.)"}};

std::string joined(const std::vector<std::string>& ids) {
  if (ids.empty()) return "none";
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

// True when `f` keeps a contested_by entry saying a lower source (the census)
// puts `id` in (`listed`) or leaves it out of (`!listed`) its `list`: the record
// follows a higher source there, and the census is that source's contested claim.
bool contested(const Record& f, const std::string& id, const char* list, bool listed) {
  const json& entries = field(f, "contested_by");
  if (!entries.is_array()) return false;
  for (const json& e : entries) {
    if (!e.is_object() || e.value("field", std::string()) != list || e.value("listed", !listed) != listed) continue;
    for (const json& p : array_field(e, "parts"))
      if (p.is_string() && p.get<std::string>() == id) return true;
  }
  return false;
}

// The format records listing `id` in `list` as the census sees them, with the
// pointer of each entry: those listing it, less those whose contested_by says the
// census leaves it out, plus those whose contested_by says the census puts it in.
std::vector<std::pair<const Record*, std::string>> listing(const Graph& g, const std::string& id, const char* list) {
  std::vector<std::pair<const Record*, std::string>> out;
  for (const Record* f : g.of_kind(Kind::Format)) {
    auto ids = f->strings(std::string("/") + list);
    bool listed = false;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == id) {
        listed = true;
        if (!contested(*f, id, list, false)) out.emplace_back(f, fmt::format("/{}/{}", list, i));
      }
    if (!listed && contested(*f, id, list, true)) out.emplace_back(f, "/contested_by");
  }
  return out;
}

void compare(CheckContext& c, const Record& r, const char* key, const char* list) {
  const json& census = field(r, "census");
  const json& stated = census.value(key, json());
  std::string source = census.value("source", std::string("no source given"));
  std::string names_key = std::string(key) + "_formats";
  auto found = listing(c.graph(), r.id, list);
  std::vector<std::string> actual;
  for (const auto& [f, _] : found) actual.push_back(f->id);
  std::string where = fmt::format("{}'s census ({}, {})", r.id, r.file, source);
  if (census.contains(names_key) && census[names_key].is_array()) {
    std::vector<std::string> counted = r.strings("/census/" + names_key);
    // On the format that lists the part without being counted: the record just edited.
    for (const auto& [f, pointer] : found)
      if (std::find(counted.begin(), counted.end(), f->id) == counted.end())
        c.report(*f, pointer, fmt::format("lists {} in {}, but {} counts {} {} format{} without this one: {}", r.id, list, where,
                                          counted.size(), key, counted.size() == 1 ? "" : "s", joined(counted)));
    // On the census entry naming a format that does not list the part.
    for (std::size_t i = 0; i < counted.size(); ++i)
      if (std::find(actual.begin(), actual.end(), counted[i]) == actual.end() && c.graph().find(counted[i]))
        c.report(r, fmt::format("/census/{}/{}", names_key, i),
                 fmt::format("census.{} counts {}, but {} does not list {} in {}; the formats that do: {}", names_key, counted[i],
                             counted[i], r.id, list, joined(actual)));
    if (stated.is_number_integer() && stated.get<std::size_t>() != counted.size())
      c.report(r, fmt::format("/census/{}", key),
               fmt::format("census.{} is {}, but census.{} names {} format{}: {}", key, stated.get<std::size_t>(), names_key,
                           counted.size(), counted.size() == 1 ? "" : "s", joined(counted)));
    return;
  }
  if (!stated.is_number_integer() || stated.get<std::size_t>() == actual.size()) return;
  c.report(r, fmt::format("/census/{}", key),
           fmt::format("census.{} is {} ({}), but {} format record{} list {} in {}: {}", key, stated.get<std::size_t>(), source,
                       actual.size(), actual.size() == 1 ? "" : "s", r.id, list, joined(actual)));
}

constexpr KeptField kReads[] = {{Kind::Accelerator, "/census"}, {Kind::Format, "/native_support"},
                                {Kind::Format, "/emulated_support"}, {Kind::Format, "/contested_by"}};

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Accelerator)) {
    if (!field(*r, "census").is_object()) continue;
    compare(c, *r, "native", "native_support");
    compare(c, *r, "emulated", "emulated_support");
  }
}

}  // namespace

Check census_mismatch() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
