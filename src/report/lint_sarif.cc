// SARIF 2.1.0 as GitHub code scanning reads it: rules with descriptions and help,
// results with repository-relative artifact URIs under %SRCROOT%.
#include <cctype>

#include <fmt/format.h>

#include "qsel/lint/registry.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace fs = std::filesystem;
namespace {

using ojson = nlohmann::ordered_json;

// RFC 3986: keep unreserved characters and '/', percent-encode the rest.
std::string uri_encode(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

const char* level(Severity s) { return s == Severity::Error ? "error" : "warning"; }

ojson rule_descriptor(const RuleInfo& r) {
  std::string help = fmt::format("{}\n\nHow to fix: {}", r.doc.what, r.doc.fix);
  return {{"id", r.code}, {"name", r.name}, {"shortDescription", {{"text", r.summary}}},
          {"fullDescription", {{"text", r.doc.what}}},
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

ojson result(const Finding& f, const fs::path& root) {
  ojson physical = {{"artifactLocation", {{"uri", uri_encode(root_relative(f.file, root))}, {"uriBaseId", "%SRCROOT%"}}}};
  if (f.mark.known()) physical["region"] = {{"startLine", f.mark.line}, {"startColumn", f.mark.column}};
  ojson res = {{"ruleId", f.code}, {"ruleIndex", rule_index(f.code)}, {"level", level(f.severity)},
               {"message", {{"text", f.message}}}, {"locations", {{{"physicalLocation", physical}}}}};
  if (!f.record.empty()) res["properties"] = {{"record", f.record}};
  return res;
}

}  // namespace

ojson lint_sarif(const LintReport& report, const fs::path& root, std::string_view version) {
  ojson rule_list = ojson::array();
  for (const RuleInfo& r : rules()) rule_list.push_back(rule_descriptor(r));
  ojson results = ojson::array();
  for (const Finding& f : report.findings) results.push_back(result(f, root));
  std::string root_uri = "file://" + uri_encode(fs::absolute(root).lexically_normal().generic_string());
  if (root_uri.back() != '/') root_uri += '/';
  ojson driver = {{"name", "qsel"}, {"version", version}, {"semanticVersion", version}, {"rules", rule_list}};
  ojson run = {{"tool", {{"driver", driver}}},
               {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", root_uri}}}}},
               {"results", results}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", {run}}};
}

}  // namespace qsel
