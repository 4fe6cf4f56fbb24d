#include "qsel/lint/linter.h"

#include "qsel/core/disposal.h"
#include "qsel/core/errors.h"
#include "qsel/core/atomic_write.h"
#include "qsel/core/text_file.h"
#include "qsel/core/timing.h"

#include <algorithm>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/lint/baseline.h"
#include "qsel/lint/check.h"
#include "qsel/lint/errors.h"
#include "qsel/lint/fixer.h"
#include "qsel/lint/noqa.h"
#include "qsel/lint/record_pass.h"
#include "qsel/lint/registry.h"
#include "qsel/lint/snippet.h"
#include "qsel/lint/workspace.h"

namespace qsel {
namespace {

// Consumes the workspace's corpus: the graph takes it instead of a copy (a
// copy doubled lint's peak memory on large corpora). Counts are taken before.
// The record parts of the checks already ran in `pass`, as each record loaded.
Findings all_findings(Workspace& ws, RecordPass& pass, bool last) {
  Findings out = loader_findings(ws.corpus.problems);
  auto start = std::chrono::steady_clock::now();
  Graph graph(std::move(ws.corpus));
  spdlog::debug("lint: graph of {} records and {} references in {} ms", graph.records().size(), graph.edges().size(),
                elapsed_ms(start));
  start = std::chrono::steady_clock::now();
  Findings each = pass.take(graph.records());
  Findings checked = run_corpus_checks(graph);
  spdlog::debug("lint: corpus checks in {} ms", elapsed_ms(start));
  out.insert(out.end(), std::make_move_iterator(each.begin()), std::make_move_iterator(each.end()));
  out.insert(out.end(), std::make_move_iterator(checked.begin()), std::make_move_iterator(checked.end()));
  if (last) dispose(std::move(graph));  // from the command line, the exit frees it
  return out;
}

void apply_baseline(LintReport& report, const std::string& file) {
  Baseline baseline = Baseline::read(file);
  Findings kept;
  for (Finding& f : report.findings) {
    if (baseline.absorb(f)) ++report.baselined;
    else kept.push_back(std::move(f));
  }
  report.findings = std::move(kept);
}

void write_baseline(const LintReport& report, const std::string& file) {
  try {
    write_file_atomic(file, baseline_text(report.findings, file));
  } catch (const UsageError& e) {
    throw LintInputError(fmt::format("{} (writing the baseline)", e.what()));
  }
}

std::string diff_of(const std::vector<FileEdit>& edits) {
  std::string out;
  for (const FileEdit& e : edits) out += unified_diff(e.file, e.before, e.after);
  return out;
}

}  // namespace

std::size_t LintReport::errors() const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Error; }));
}

std::size_t LintReport::warnings() const { return findings.size() - errors(); }

std::vector<LintReport::CodeCount> LintReport::by_code() const {
  std::map<std::string, CodeCount> counts;
  for (const Finding& f : findings) {
    CodeCount& c = counts[f.code];
    c.code = f.code;
    c.name = f.name;
    ++c.count;
    c.fixable += f.fix ? 1 : 0;
  }
  std::vector<CodeCount> out;
  for (auto& [code, c] : counts) out.push_back(std::move(c));
  std::stable_sort(out.begin(), out.end(), [](const CodeCount& a, const CodeCount& b) { return a.count > b.count; });
  return out;
}

LintReport lint_once(const std::vector<std::string>& paths, const LintSettings& settings, const SchemaSet& schemas,
                     bool last, bool prune, const FileOverlay* overlay) {
  auto start = std::chrono::steady_clock::now();
  RecordPass pass(prune, settings.check_options);
  Workspace ws = load_workspace(paths, schemas, [&pass](Record& r) { pass(r); }, overlay);
  spdlog::debug("lint: loaded, validated and checked {} files in {} ms", ws.corpus.files, elapsed_ms(start));
  LintReport report;
  std::vector<std::string> files = ws.file_names_in_scope();
  report.files = files.size();
  report.records = ws.records_in_scope();
  for (Finding& f : all_findings(ws, pass, last))
    if (ws.in_scope(f.file) && settings.keeps(f)) report.findings.push_back(std::move(f));
  start = std::chrono::steady_clock::now();
  report.suppressed = apply_noqa(report.findings, files, settings, overlay);  // # qsel: noqa comments
  spdlog::debug("lint: {} finding(s) suppressed by noqa comments, read in {} ms", report.suppressed, elapsed_ms(start));
  start = std::chrono::steady_clock::now();
  sort_findings(report.findings);
  attach_snippets(report.findings, overlay);  // the text report shows each finding's line; renderers read no files
  spdlog::debug("lint: {} findings sorted and quoted in {} ms", report.findings.size(), elapsed_ms(start));
  return report;
}

namespace {

void count_fixes(LintReport& report, const std::vector<FileEdit>& edits) {
  for (const FileEdit& e : edits) report.fixed += e.fixes;
  report.fixed_files = edits.size();
}

// --diff: the edits --fix would make, as a unified diff; nothing is written.
LintReport show_fixes(LintReport report, const FileOverlay* overlay) {
  std::vector<FileEdit> edits = plan_fixes(report.findings, overlay);
  report.diff = diff_of(edits);
  count_fixes(report, edits);
  return report;
}

}  // namespace

namespace {

// lint - --fix: the fixes go into stdin's text, which the report carries for stdout;
// the file --stdin-filename names is never read for fixing nor written.
LintReport fix_stdin(const LintRequest& req, LintReport report, const SchemaSet& schemas) {
  std::vector<FileEdit> edits = plan_fixes(report.findings, &*req.stdin_file);
  LintRequest again = req;
  again.fix = false;
  if (!edits.empty()) again.stdin_file->text = edits.front().after;
  LintReport after = run_lint(again, schemas);  // report what remains in the fixed text
  count_fixes(after, edits);
  if (!edits.empty())
    for (Finding& f : report.findings)
      if (f.fix) after.applied.push_back(std::move(f));
  after.fixed_text = std::move(again.stdin_file->text);
  return after;
}

}  // namespace

LintReport run_lint(const LintRequest& req, const SchemaSet& schemas) {
  LintReport report = lint_once(req.paths, req.settings, schemas, /*last=*/!req.fix, /*prune=*/true,
                                req.stdin_file ? &*req.stdin_file : nullptr);
  if (!req.write_baseline.empty()) {
    write_baseline(report, req.write_baseline);
    return report;
  }
  if (!req.baseline.empty()) apply_baseline(report, req.baseline);
  const FileOverlay* overlay = req.stdin_file ? &*req.stdin_file : nullptr;
  if (req.diff) return show_fixes(std::move(report), overlay);
  if (!req.fix) return report;
  if (overlay) return fix_stdin(req, std::move(report), schemas);
  std::vector<FileEdit> edits = plan_fixes(report.findings);
  std::vector<FixFailure> failed = write_edits(edits);
  std::erase_if(edits, [&](const FileEdit& e) {
    return std::any_of(failed.begin(), failed.end(), [&](const FixFailure& f) { return f.file == e.file; });
  });
  LintRequest again = req;
  again.fix = false;
  LintReport after = run_lint(again, schemas);  // report what remains
  count_fixes(after, edits);
  for (Finding& f : report.findings)
    if (f.fix && std::any_of(edits.begin(), edits.end(), [&](const FileEdit& e) { return e.file == f.file; }))
      after.applied.push_back(std::move(f));
  for (const auto& f : failed) {
    const RuleInfo* info = find_rule("QS031");
    after.findings.push_back({"QS031", info ? std::string(info->name) : "fix-not-applied", Severity::Error, f.file, {}, "",
                              fmt::format("not fixed: {}", f.reason), std::nullopt});
  }
  after.fix_failures = failed.size();
  sort_findings(after.findings);
  return after;
}

int lint_exit_code(const LintReport& report, bool strict) {
  return report.errors() > 0 || (strict && report.warnings() > 0) ? 1 : 0;
}

}  // namespace qsel
