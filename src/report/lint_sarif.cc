// SARIF 2.1.0 as GitHub code scanning reads it: rules with descriptions and help,
// results with repository-relative artifact URIs under %SRCROOT% and a
// fingerprint that survives edits above the finding.
#include <cctype>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/lint/registry.h"
#include "qsel/report/rule_doc.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
namespace {

const char* level(Severity s) { return s == Severity::Error ? "error" : "warning"; }

ojson rule_descriptor(const RuleInfo& r) {
  std::string help = fmt::format("{}\n\nHow to fix: {}", r.doc.what, r.doc.fix);
  return {{"id", r.code}, {"name", r.name}, {"shortDescription", {{"text", r.summary}}},
          {"fullDescription", {{"text", r.doc.what}}}, {"helpUri", lint_doc_url(r.code)},
          {"help", {{"text", help}, {"markdown", render_rule_markdown(r)}}},
          {"defaultConfiguration", {{"level", level(r.severity)}}},
          {"properties", {{"tags", {"qsel", r.fixable ? "fixable" : "manual"}}}}};
}

std::size_t rule_index(std::string_view code) {
  const auto& all = rules();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].code == code) return i;
  return 0;
}

// 64-bit FNV-1a: fixed by its definition, so a fingerprint means the same on every
// platform and in every release.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

ojson result(const Finding& f, const fs::path& root, std::map<std::string, std::size_t>& seen) {
  std::string relative = root_relative(f.file, root);
  ojson physical = {{"artifactLocation", {{"uri", uri_encode(relative)}, {"uriBaseId", "%SRCROOT%"}}}};
  if (f.mark.known()) {
    physical["region"] = {{"startLine", f.mark.line}};
    if (f.mark.column > 0) physical["region"]["startColumn"] = f.mark.column;
  }
  std::string hash = finding_fingerprint(f, relative, seen[finding_fingerprint(f, relative, 0)]++);
  ojson res = {{"ruleId", f.code}, {"ruleIndex", rule_index(f.code)}, {"level", level(f.severity)},
               {"message", {{"text", printable(f.message)}}}, {"locations", {{{"physicalLocation", physical}}}},
               {"partialFingerprints", {{"qselFindingHash/v1", hash}}}};
  if (!f.record.empty()) res["properties"] = {{"record", printable(f.record)}};
  return res;
}

}  // namespace

std::string finding_fingerprint(const Finding& f, const std::string& relative, std::size_t nth) {
  std::string key = f.code + '\x1f' + relative + '\x1f' + f.record + '\x1f' + f.message;
  if (nth > 0) key += '\x1f' + std::to_string(nth);
  return fmt::format("{:016x}", fnv1a(key));
}

ojson lint_sarif(const LintReport& report, const fs::path& root, std::string_view version) {
  ojson rule_list = ojson::array();
  for (const RuleInfo& r : rules()) rule_list.push_back(rule_descriptor(r));
  ojson results = ojson::array();
  std::map<std::string, std::size_t> seen;
  for (const Finding& f : report.findings) results.push_back(result(f, root, seen));
  std::string root_uri = "file://" + uri_encode(fs::absolute(root).lexically_normal().generic_string());
  if (root_uri.back() != '/') root_uri += '/';
  ojson driver = {{"name", "qsel"}, {"version", version}, {"semanticVersion", version}, {"rules", rule_list}};
  ojson run = {{"tool", {{"driver", driver}}},
               {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", root_uri}}}}},
               {"results", results}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", {run}}};
}

}  // namespace qsel
