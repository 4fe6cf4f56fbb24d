// qsel lint [PATH…]: the CI gate for a record corpus.
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "qsel/cli/context.h"
#include "qsel/lint/config.h"
#include "qsel/lint/errors.h"
#include "qsel/lint/registry.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace {
namespace fs = std::filesystem;

constexpr const char* kToolVersion = "0.1.0";  // matches `qsel --version` (tested)

struct LintArgs {
  std::vector<std::string> paths, select, ignore;
  std::string config, baseline, write_baseline;
  bool strict = false, fix = false, diff = false, list_rules = false;
};

// No path: the corpus named by --data / QSEL_DATA, else ./data.
std::vector<std::string> default_paths(const Context& ctx) {
  if (!ctx.data_dir.empty()) return {ctx.data_dir};
  std::error_code ec;
  if (fs::is_directory("data", ec)) return {"data"};
  throw UsageError("no path given and no data/ folder here; run `qsel lint PATH…`");
}

LintSettings settings_for(const LintArgs& a, const std::vector<std::string>& paths) {
  std::optional<fs::path> file = a.config.empty() ? find_config(paths.front()) : std::optional<fs::path>(a.config);
  LintSettings s = file ? read_config(*file) : LintSettings{};
  if (!a.select.empty()) s.select = parse_rule_list(a.select);
  for (const auto& code : parse_rule_list(a.ignore)) s.ignore.push_back(code);
  s.strict = s.strict || a.strict;
  return s;
}

LintRequest request_for(const LintArgs& a, const Context& ctx) {
  if (a.fix && a.diff) throw UsageError("--fix writes the files and --diff only shows the edits; choose one");
  LintRequest req;
  req.paths = a.paths.empty() ? default_paths(ctx) : a.paths;
  req.settings = settings_for(a, req.paths);
  req.baseline = a.baseline.empty() ? req.settings.baseline : a.baseline;
  req.write_baseline = a.write_baseline;
  req.fix = a.fix;
  req.diff = a.diff;
  return req;
}

int list_rules(Context& ctx) {
  if (ctx.json()) ctx.print_json(rules_json(rules()));
  else *ctx.out << render_rules_table(rules(), ctx.style());
  return 0;
}

void print_report(const LintReport& report, Context& ctx) {
  fs::path root = repository_root(fs::current_path());
  if (ctx.format == "json") ctx.print_json(lint_json(report));
  else if (ctx.format == "sarif") ctx.print_json(lint_sarif(report, root, kToolVersion));
  else if (ctx.format == "github") *ctx.out << render_lint_github(report, root);
  else *ctx.out << render_lint_text(report, ctx.style());
}

int finish(const LintRequest& req, const LintReport& report, Context& ctx) {
  if (!req.write_baseline.empty()) {
    *ctx.err << fmt::format("qsel: wrote {} finding(s) to {}\n", report.findings.size(), req.write_baseline);
    return 0;
  }
  if (req.diff) {
    *ctx.out << report.diff;
    *ctx.err << fmt::format("qsel: --fix would apply {} fix(es) in {} file(s)\n", report.fixed, report.fixed_files);
    return report.fixed > 0 ? 1 : 0;
  }
  if (req.fix) *ctx.err << fmt::format("qsel: fixed {} finding(s) in {} file(s)\n", report.fixed, report.fixed_files);
  print_report(report, ctx);
  return lint_exit_code(report, req.settings.strict);
}

int run_command(const LintArgs& a, Context& ctx) {
  require_format(ctx, "lint", {"text", "json", "sarif", "github"});
  if (a.list_rules) return list_rules(ctx);
  try {
    LintRequest req = request_for(a, ctx);
    SchemaSet schemas(ctx.schemas());
    return finish(req, run_lint(req, schemas), ctx);
  } catch (const LintInputError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

Runner setup_lint(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<LintArgs>();
  sub.add_option("paths", a->paths, "Corpus folders, kind folders or record files (default: --data, QSEL_DATA or data/)");
  sub.add_option("--select", a->select, "Only these rules: codes or names, comma-separated, repeatable")
      ->allow_extra_args(false);
  sub.add_option("--ignore", a->ignore, "Skip these rules: codes or names, comma-separated, repeatable")
      ->allow_extra_args(false);
  sub.add_flag("--strict", a->strict, "Warnings fail too (exit 1)");
  sub.add_option("--config", a->config, "Config file (default: the nearest .qsel.yaml at or above the first path)");
  sub.add_option("--baseline", a->baseline, "Report only findings not recorded in this baseline file");
  sub.add_option("--write-baseline", a->write_baseline, "Record the current findings in this baseline file and exit 0");
  sub.add_flag("--fix", a->fix, "Apply the safe mechanical fixes in place, then lint again");
  sub.add_flag("--diff", a->diff, "Show the unified diff --fix would apply; change nothing");
  sub.add_flag("--list-rules", a->list_rules, "List every rule (with --format json: the registry with its docs)");
  return [a, &ctx]() { return run_command(*a, ctx); };
}

}  // namespace qsel
