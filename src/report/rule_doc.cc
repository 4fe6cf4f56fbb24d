// The three renderings of a rule's doc: terminal text, JSON and the docs page.
#include <sstream>

#include <fmt/format.h>

#include "qsel/lint/finding.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/rule_doc.h"

namespace qsel {
namespace {

// Words of one paragraph, filled to `width` columns and indented by `indent`.
std::string fill(const std::string& paragraph, std::size_t indent, std::size_t width) {
  std::string out, line, pad(indent, ' ');
  std::istringstream words(paragraph);
  for (std::string w; words >> w;) {
    if (!line.empty() && indent + line.size() + 1 + w.size() > width) {
      out += pad + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return line.empty() ? out : out + pad + line + "\n";
}

// Each paragraph (separated by a blank line) of `text`, filled.
std::string wrap_doc(std::string_view text, std::size_t indent, std::size_t width = 88) {
  std::string out, rest(text);
  for (std::size_t pos = 0; pos <= rest.size();) {
    std::size_t next = rest.find("\n\n", pos);
    if (next == std::string::npos) next = rest.size();
    if (!out.empty()) out += "\n";
    out += fill(rest.substr(pos, next - pos), indent, width);
    pos = next + 2;
  }
  return out;
}

std::string indent_block(std::string_view text, std::size_t indent) {
  std::string out, pad(indent, ' ');
  std::istringstream in{std::string(text)};
  for (std::string l; std::getline(in, l);) out += (l.empty() ? "" : pad + l) + "\n";
  return out;
}

std::string fixable_text(const RuleInfo& r) { return r.fixable ? "yes (`qsel lint --fix`, where safe)" : "no"; }

}  // namespace

std::string render_rule_doc(const RuleInfo& r, const Style& s) {
  std::string out = fmt::format("{} {}  {}\n", s.bold(r.code), s.bold(r.name),
                                s.dim(fmt::format("({}{})", severity_name(r.severity), r.fixable ? ", fixable" : "")));
  out += wrap_doc(r.summary, 0) + "\n";
  auto section = [&](const char* title, std::string body) { out += s.bold(title) + "\n" + body + "\n"; };
  section("What it flags", wrap_doc(r.doc.what, 2));
  section("Why it matters", wrap_doc(r.doc.why, 2));
  section("Example", indent_block(r.doc.example, 4) + "\n" + indent_block(r.doc.example_output, 4));
  section("How to fix", wrap_doc(r.doc.fix, 2));
  out.pop_back();
  return out;
}

nlohmann::ordered_json rule_doc_json(const RuleInfo& r) {
  return {{"code", r.code}, {"name", r.name}, {"severity", severity_name(r.severity)}, {"fixable", r.fixable},
          {"summary", r.summary},
          {"doc", {{"what", r.doc.what}, {"why", r.doc.why}, {"example", r.doc.example},
                   {"example_output", r.doc.example_output}, {"fix", r.doc.fix}}}};
}

std::string render_rule_markdown(const RuleInfo& r) {
  std::string out = fmt::format("# {} {}\n\n{}\n\n", r.code, r.name, r.summary);
  out += fmt::format("- Severity: {}\n- Fixable: {}\n\n", severity_name(r.severity), fixable_text(r));
  out += fmt::format("## What it flags\n\n{}\n\n## Why it matters\n\n{}\n\n", r.doc.what, r.doc.why);
  out += fmt::format("## Example\n\n```yaml\n{}\n```\n\n```text\n{}\n```\n\n", r.doc.example, r.doc.example_output);
  out += fmt::format("## How to fix\n\n{}\n\n", r.doc.fix);
  out += "<!-- This page is the rule registry's doc (src/lint/); tests/lint/registry_test.cc keeps them equal.\n"
         "     After editing the registry, regenerate with: QSEL_UPDATE_DOCS=1 ./build/tests/qsel_tests \"[registry]\" -->\n";
  return out;
}

nlohmann::ordered_json lint_rule_topic(const RuleInfo& r, const Style& style) {
  nlohmann::ordered_json j = {{"topic", std::string(r.code)}, {"kind", "lint-rule"}, {"text", render_rule_doc(r, style)}};
  j["rule"] = rule_doc_json(r);
  j["rule"]["url"] = lint_doc_url(r.code);
  return j;
}

}  // namespace qsel
