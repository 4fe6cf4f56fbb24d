// Renderers for `qsel lint`: text, JSON, SARIF 2.1.0, GitHub workflow commands,
// and the rule table of --list-rules. They format a LintReport; they decide nothing.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/lint/linter.h"
#include "qsel/lint/rule.h"
#include "qsel/report/style.h"

namespace qsel {

// Per finding `path:line:col: severity: message [CODE name]`, then its source
// line with a caret under the column (when the finding carries a snippet),
// `= see: qsel explain CODE` and a blank line; then the summary line:
//
//   data/formats/q.yaml:9:20: error: weight_group_size 256 ... [QS004 kquant-group-size]
//      |
//    9 | weight_group_size: 256
//      |                    ^
//      = see: qsel explain QS004
//
// The line is escaped like all record text, tabs print as four spaces, and the
// caret counts terminal cells (wide characters take two).
std::string render_lint_text(const LintReport& report, const Style& style);
// "0 errors, 5 warnings in 290 records (290 files)".
std::string lint_summary_line(const LintReport& report);
// --statistics: one line per code, most first ("    5  QS005  contested-bpw"), a
// "[*] n fixable" mark where --fix has fixes, then the summary line.
std::string render_lint_statistics(const LintReport& report, const Style& style);
// --format concise: one line per finding (file:line:col: CODE severity message, [*] when
// --fix can fix it) and the summary line.
std::string render_lint_concise(const LintReport& report, const Style& style);
// --show-fixes: each finding's fix among `fixes` (those without one are skipped) as the
// text it replaces and the text it puts there, with its location ("Fixed N findings:"
// after --fix, else "Fixable with --fix:"); empty when none has a fix.
std::string render_lint_fixes(const std::vector<Finding>& fixes, bool applied, const Style& style);

// {"schema_version": 1, "findings": [{code, name, severity, file, line, column, record, message, fixable, url}],
//  "summary": {errors, warnings, files, records}} (schemas/output/lint.schema.json); line and column are
// null when unknown, fixable says whether --fix has a safe fix, url is the code's docs/lint page.
nlohmann::ordered_json lint_json(const LintReport& report);

// A SARIF 2.1.0 log with every rule (helpUri: its docs/lint page) and one result
// per finding. Artifact URIs are relative to `root` (uriBaseId %SRCROOT%); each
// result's partialFingerprints hash code, relative file, record and message, not lines.
nlohmann::ordered_json lint_sarif(const LintReport& report, const std::filesystem::path& root, std::string_view version);

// What identifies a finding across commits (SARIF partialFingerprints, GitLab fingerprint):
// 16 hex digits of FNV-1a over its code, its file relative to the root, its record and its
// message; never its line, so an edit above it keeps it the same. `nth` (0 for the first)
// tells apart identical findings.
std::string finding_fingerprint(const Finding& f, const std::string& relative, std::size_t nth);

// GitLab Code Quality: [{description, check_name, fingerprint, severity (error major,
// warning minor), location: {path, lines: {begin}}}], paths relative to `root`.
nlohmann::ordered_json lint_gitlab(const LintReport& report, const std::filesystem::path& root);

// JUnit XML as ruff writes it: <testsuites>, a <testsuite> per file, a <testcase
// name="qsel.CODE" classname="folder/stem" line= column=> with a <failure> per finding;
// one passing testcase when there are none. Text is XML-escaped (control bytes as \xNN).
std::string render_lint_junit(const LintReport& report, const std::filesystem::path& root);
std::string xml_escape(std::string_view text);

// `path:line: [CODE] message` per finding (pylint's parseable format, as ruff's).
std::string render_lint_pylint(const LintReport& report, const std::filesystem::path& root);

// `##vso[task.logissue type=error|warning;sourcepath=P;linenumber=L;columnnumber=C;code=CODE;]message`
// per finding (Azure Pipelines, as ruff's); escaped as the agent unescapes: property values
// '%' CR LF ';' ']', the message '%' CR LF.
std::string render_lint_azure(const LintReport& report, const std::filesystem::path& root);
std::string azure_escape(std::string_view text);       // a property value
std::string azure_escape_data(std::string_view text);  // the message

// `::error file=F,line=L,col=C,title=T::message` per finding, then the summary line.
std::string render_lint_github(const LintReport& report, const std::filesystem::path& root);
// Workflow-command escaping: messages escape % CR LF; property values also : and ,.
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

// The repository top level (the nearest folder above `start` with .git), else `start`.
std::filesystem::path repository_root(const std::filesystem::path& start);
// `file` relative to `root`, '/'-separated.
std::string root_relative(const std::string& file, const std::filesystem::path& root);
// What SARIF and GitHub paths are relative to when --root is not given: the git checkout
// holding `cwd` when every path is inside it (a CI job), else the checkout holding the
// first path, else that path itself (an installed corpus: "formats/awq.yaml", not
// "../../../usr/share/qsel/data/formats/awq.yaml").
std::filesystem::path report_root(const std::vector<std::string>& paths, const std::filesystem::path& cwd);

std::string render_rules_table(const std::vector<RuleInfo>& rules, const Style& style);
// {"schema_version": 1, "rules": [rule_doc_json + url]} (schemas/output/lint-rules.schema.json).
nlohmann::ordered_json rules_json(const std::vector<RuleInfo>& rules);

}  // namespace qsel
