// qsel lint [PATH…]: the CI gate for a record corpus.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "commands.h"
#include "qsel/cli/context.h"
#include "qsel/core/text.h"
#include "qsel/core/citation.h"
#include "qsel/core/atomic_write.h"
#include "qsel/core/text_file.h"
#include "qsel/core/version.h"
#include "qsel/lint/config.h"
#include "qsel/lint/errors.h"
#include "qsel/lint/registry.h"
#include "qsel/loader/yaml_reader.h"
#include "qsel/report/lint_report.h"

namespace qsel {
namespace {
namespace fs = std::filesystem;


struct LintArgs {
  std::vector<std::string> paths, select, ignore;
  std::string config, baseline, write_baseline, output_file;
  std::string stale_after, root, stdin_filename;
  bool strict = false, fix = false, diff = false, list_rules = false, exit_zero = false, no_config = false, statistics = false,
       show_fixes = false, stale_after_given = false;
};

// No path: the corpus named by --data / QSEL_DATA, else ./data.
std::vector<std::string> default_paths(const Context& ctx) {
  if (!ctx.data_dir.empty()) return {ctx.data_dir};
  std::error_code ec;
  if (fs::is_directory("data", ec)) return {"data"};
  // Outside a checkout, name the corpus a package install put on this machine.
  for (const char* installed : {"/usr/share/qsel/data", "/usr/local/share/qsel/data"})
    if (fs::is_directory(installed, ec))
      throw UsageError(fmt::format("no path given and no data/ folder here; run `qsel lint PATH…` (the installed corpus: qsel lint {})", installed));
  throw UsageError("no path given and no data/ folder here; run `qsel lint PATH…`");
}

LintSettings settings_for(const LintArgs& a, const std::vector<std::string>& paths) {
  if (a.no_config && !a.config.empty()) throw UsageError("--config names a config and --no-config reads none; choose one");
  std::optional<fs::path> file = a.no_config ? std::nullopt : a.config.empty() ? find_config(paths.front()) : std::optional<fs::path>(a.config);
  LintSettings s = file ? read_config(*file) : LintSettings{};
  spdlog::info("lint: config {}", file ? file->string() : std::string("none found"));
  if (!a.select.empty()) s.select = parse_rule_list(a.select);
  for (const auto& code : parse_rule_list(a.ignore)) s.ignore.push_back(code);
  s.strict = s.strict || a.strict;
  if (a.stale_after_given) s.check_options.stale_after_months = parse_stale_after(a.stale_after);  // "" too: an error, not off
  s.check_options.today = today_days();
  return s;
}

// lint -: one record from stdin, named by --stdin-filename (where it would sit in the corpus,
// which is loaded around it for references); at most a record file's size limit is read.
FileOverlay read_stdin(const LintArgs& a) {
  if (a.paths.size() != 1) throw UsageError("- (stdin) is the only path when given");
  if (a.stdin_filename.empty())
    throw UsageError("- reads a record from stdin: name where it sits with --stdin-filename (data/formats/awq.yaml)");
  if (!a.write_baseline.empty()) throw UsageError("- (stdin) has no file to baseline: drop --write-baseline");
  FileOverlay o{a.stdin_filename, {}};
  constexpr std::size_t kCap = kMaxRecordFileBytes + 1;  // one byte past the cap: the loader names the record too large
  char buf[65536];
  while (o.text.size() < kCap && std::cin.read(buf, sizeof buf).gcount() > 0) o.text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
  if (o.text.size() > kCap) o.text.resize(kCap);
  return o;
}

LintRequest request_for(const LintArgs& a, const Context& ctx) {
  if (a.fix && a.diff) throw UsageError("--fix writes the files and --diff only shows the edits; choose one");
  LintRequest req;
  bool from_stdin = std::find(a.paths.begin(), a.paths.end(), "-") != a.paths.end();
  if (!from_stdin && !a.stdin_filename.empty()) throw UsageError("--stdin-filename names the record read from stdin: give - as the path");
  if (from_stdin) req.stdin_file = read_stdin(a);
  req.paths = from_stdin ? std::vector<std::string>{a.stdin_filename} : a.paths.empty() ? default_paths(ctx) : a.paths;
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

// The report in the chosen format: to stdout, or atomically to --output-file.
void print_report(const LintReport& report, const LintArgs& a, const std::vector<std::string>& paths, Context& ctx) {
  fs::path root = a.root.empty() ? report_root(paths, fs::current_path()) : fs::path(a.root);
  std::ostringstream text;
  std::ostream* saved = ctx.out;
  if (!a.output_file.empty()) ctx.out = &text;
  if (ctx.format == "json") ctx.print_json(lint_json(report));
  else if (ctx.format == "sarif") ctx.print_json(lint_sarif(report, root, kQselVersion));
  else if (ctx.format == "github") *ctx.out << render_lint_github(report, root);
  else if (ctx.format == "gitlab") ctx.print_json(lint_gitlab(report, root));
  else if (ctx.format == "junit") *ctx.out << render_lint_junit(report, root);
  else if (ctx.format == "pylint") *ctx.out << render_lint_pylint(report, root);
  else if (ctx.format == "azure") *ctx.out << render_lint_azure(report, root);
  else if (a.statistics) *ctx.out << render_lint_statistics(report, ctx.style());
  else *ctx.out << (ctx.format == "concise" ? render_lint_concise(report, ctx.style()) : render_lint_text(report, ctx.style()));
  if (a.show_fixes && (ctx.format == "text" || ctx.format == "concise"))
    *ctx.out << render_lint_fixes(report.applied, true, ctx.style()) << render_lint_fixes(report.findings, false, ctx.style());
  ctx.out = saved;
  if (a.output_file.empty()) return;
  write_file_atomic(a.output_file, text.str());
  ctx.note(fmt::format("wrote {} finding(s) as {} to {}", report.findings.size(), ctx.format, a.output_file));
}

int finish(const LintRequest& req, const LintReport& report, const LintArgs& a, Context& ctx) {
  spdlog::info("lint: {} file(s), {} record(s); {} error(s), {} warning(s), {} baselined", report.files, report.records,
               report.errors(), report.warnings(), report.baselined);
  if (!req.write_baseline.empty()) {
    ctx.note(fmt::format("wrote {} finding(s) to {}", report.findings.size(), req.write_baseline));
    return 0;
  }
  if (req.diff) {
    *ctx.out << printable_lines(report.diff);  // a user's file: tabs and newlines kept, control bytes shown escaped
    ctx.note(fmt::format("--fix would apply {} fix(es) in {} file(s)", report.fixed, report.fixed_files));
    return report.fixed > 0 && !a.exit_zero ? 1 : 0;
  }
  if (req.fix) ctx.note(fmt::format("fixed {} finding(s) in {} file(s)", report.fixed, report.fixed_files));
  if (report.fixed_text) {
    // lint - --fix, as ruff: the fixed text on stdout, the findings that remain on stderr.
    *ctx.out << *report.fixed_text;
    ctx.out->flush();
    std::ostream* saved = ctx.out;
    ctx.out = ctx.err;
    print_report(report, a, req.paths, ctx);
    ctx.out = saved;
  } else {
    print_report(report, a, req.paths, ctx);
  }
  int code = lint_exit_code(report, req.settings.strict);
  if (code == 1 && a.exit_zero) spdlog::info("lint: findings, but --exit-zero: exit 0");
  return a.exit_zero ? 0 : code;
}

int run_command(const LintArgs& a, Context& ctx) {
  require_format(ctx, "lint");
  if (a.list_rules) return list_rules(ctx);
  if (!a.root.empty()) {
    std::error_code ec;
    if (!fs::is_directory(a.root, ec)) throw UsageError(fmt::format("--root: {} is not a folder", quote_value(a.root)));
  }
  try {
    LintRequest req = request_for(a, ctx);
    if (!a.output_file.empty() && (req.diff || !req.write_baseline.empty()))
      throw UsageError("--output-file takes the report; it does not combine with --diff or --write-baseline");
    spdlog::info("lint: paths {}; baseline {}", fmt::join(req.paths, ", "), req.baseline.empty() ? "none" : req.baseline);
    std::size_t on = 0;
    for (const auto& r : rules()) on += req.settings.rule_enabled(std::string(r.code)) ? 1 : 0;
    spdlog::info("lint: {} of {} rules enabled{}", on, rules().size(), req.settings.strict ? ", strict" : "");
    for (const auto& r : rules())
      if (!req.settings.rule_enabled(std::string(r.code))) spdlog::debug("lint: {} {} is off (--select/--ignore or config)", r.code, r.name);
    SchemaSet schemas(ctx.schemas());
    return finish(req, run_lint(req, schemas), a, ctx);
  } catch (const LintInputError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

Runner setup_lint(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<LintArgs>();
  sub.add_option("paths", a->paths, "Corpus folders, kind folders or record files (default: --data, QSEL_DATA or data/); "
                                    "- reads one record from stdin (with --stdin-filename)");
  sub.add_option("--stdin-filename", a->stdin_filename, "With -: where the record read from stdin sits (data/formats/awq.yaml): "
                                                        "its kind, its corpus and the name findings carry")
      ->type_name("FILE");
  sub.add_option("--select", a->select, "Only these rules: codes or names, comma-separated, repeatable")
      ->allow_extra_args(false);
  sub.add_option("--ignore", a->ignore, "Skip these rules: codes or names, comma-separated, repeatable")
      ->allow_extra_args(false);
  sub.add_flag("--strict", a->strict, "Warnings fail too (exit 1)");
  sub.add_option("--stale-after", a->stale_after,
                 "List engine facts read at commits older than this (12, 12m, 1y, 400d) as QS038 warnings; off by default")
      ->each([a](const std::string&) { a->stale_after_given = true; });
  sub.add_option("--config", a->config, "Config file (default: the nearest .qsel.yaml at or above the first path)");
  sub.add_flag("--no-config", a->no_config, "Read no .qsel.yaml: every rule, no baseline, no per-file ignores");
  sub.add_option("--baseline", a->baseline, "Report only findings not recorded in this baseline file");
  sub.add_option("--write-baseline", a->write_baseline, "Record the current findings in this baseline file and exit 0");
  sub.add_flag("--fix", a->fix, "Apply the safe mechanical fixes in place, then lint again (with -: the fixed text "
                                "to stdout, the findings that remain to stderr)");
  sub.add_flag("--diff", a->diff, "Show the unified diff --fix would apply; change nothing");
  sub.add_option("--output-file,-o", a->output_file, "Write the report to this file (atomically) instead of stdout")
      ->type_name("FILE");
  sub.add_flag("--statistics", a->statistics, "Text format: one line per rule with its count (and how many --fix can fix), not each finding");
  sub.add_flag("--show-fixes", a->show_fixes, "Text formats: list each fix --fix applied, and each one it could apply, as old → new");
  sub.add_option("--root", a->root, "Folder SARIF, GitHub, GitLab, JUnit, pylint and Azure paths are relative to (default: the git checkout holding the "
                                    "current folder, else the one holding the first path, else that path)")
      ->type_name("DIR");
  sub.add_flag("--exit-zero", a->exit_zero, "Exit 0 even when there are findings (2 still means bad input)");
  sub.add_flag("--list-rules", a->list_rules, "List every rule (with --format json: the registry with its docs)");
  return [a, &ctx]() { return run_command(*a, ctx); };
}

}  // namespace qsel
