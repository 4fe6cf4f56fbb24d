#include "qsel/cli/app.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include "qsel/cli/context.h"
#include "qsel/core/text.h"
#include "qsel/core/timing.h"
#include "qsel/core/version.h"
#include "qsel/report/style.h"
#include "qsel/report/table.h"
#include "commands.h"

namespace qsel {

namespace {


// The log's sink: each formatted line goes through printable(), as every error
// message does, so a record's or a file's bytes never reach the terminal raw, and
// is capped (capped_line) so none echoes a stranger's 100 KB.
class EscapingSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit EscapingSink(std::ostream& out) : out_(out) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    std::string_view line(formatted.data(), formatted.size());
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    out_ << capped_line(printable(line)) << '\n';
    out_.flush();
  }
  void flush_() override { out_.flush(); }

 private:
  std::ostream& out_;
};

void setup_logging(std::ostream& err, int verbosity) {
  auto sink = std::make_shared<EscapingSink>(err);
  auto logger = std::make_shared<spdlog::logger>("qsel", sink);
  logger->set_pattern("qsel: %l: %v");
  logger->set_level(verbosity >= 2 ? spdlog::level::debug : verbosity == 1 ? spdlog::level::info
                    : verbosity < 0 ? spdlog::level::err : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

// --help fitted to the terminal by the rule every command's text output follows
// (fit_lines): a description too long for its line continues under the
// description column, the footer's prose and tables likewise. CLI11 2.1's own
// formatter pads names to a column but never wraps what follows.
class WidthFormatter final : public CLI::Formatter {
 public:
  explicit WidthFormatter(std::size_t width) : width_(width) {}
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    return fit_lines(CLI::Formatter::make_help(app, std::move(name), mode), width_);
  }

 private:
  std::size_t width_;
};

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const auto& c : commands()) names.push_back(c.name);
  return names;
}

// The first word that is not an option or an option's value: what the user meant as a command.
std::string first_word(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    if (a == "--data" || a == "--format" || a == "--color") { ++i; continue; }
    if (!a.empty() && a[0] != '-') return a;
  }
  return "";
}

int parse_error_lines(CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& args,
                      std::ostream& out, std::ostream& err) {
  if (e.get_exit_code() == 0) return app.exit(e, out, err);
  std::string word = first_word(args);
  auto names = command_names();
  if (app.get_subcommands().empty() && !word.empty() && std::find(names.begin(), names.end(), word) == names.end()) {
    auto near = nearest(word, names, 1);
    err << fmt::format("qsel: error: unknown command {}{}\n", quote_value(word),
                       near.empty() ? "; run `qsel --help` for the list" : fmt::format("; did you mean \"{}\"?", near[0]));
    return 2;
  }
  std::string what = e.what();
  // "--kv-cache: foo not in {auto,fp16}" → "--kv-cache: expected one of auto, fp16, got "foo""
  if (std::size_t colon = what.find(": "), set = what.rfind(" not in {"); colon != std::string::npos && set != std::string::npos &&
      set > colon && what.back() == '}' && colon < 64) {
    std::string choices = what.substr(set + 9, what.size() - set - 10);
    for (std::size_t at = choices.find(','); at != std::string::npos; at = choices.find(',', at + 2)) choices.replace(at, 1, ", ");
    err << fmt::format("qsel: error: {}: expected one of {}, got {}\n", what.substr(0, colon), printable(choices),
                       quote_value(what.substr(colon + 2, set - colon - 2)));
    return 2;
  }
  // "Could not convert: --top = abc" → "--top: expected a number, got "abc""
  if (what.rfind("Could not convert: ", 0) == 0) {
    std::string rest = what.substr(19);
    std::size_t eq = rest.find(" = ");
    if (eq != std::string::npos) {
      err << fmt::format("qsel: error: {}: expected a number, got {}\n", rest.substr(0, eq), quote_value(rest.substr(eq + 3)));
      return 2;
    }
  }
  // "The following argument was not expected: --fromat" → did you mean one of this command's options?
  std::string extra_prefix = "The following argument was not expected: ", extras_prefix = "The following arguments were not expected: ";
  bool many = what.rfind(extras_prefix, 0) == 0;
  if (many || what.rfind(extra_prefix, 0) == 0) {
    std::string arg = what.substr((many ? extras_prefix : extra_prefix).size());
    if (many) {  // the first word that looks like an option is the likely typo
      std::size_t start = 0, dash = std::string::npos;
      while (start < arg.size()) {
        std::size_t end = arg.find(' ', start);
        if (arg.compare(start, 2, "--") == 0) {
          dash = start;
          break;
        }
        start = end == std::string::npos ? arg.size() : end + 1;
      }
      if (dash != std::string::npos) arg = arg.substr(dash, arg.find(' ', dash) - dash);
      else arg = arg.substr(0, arg.find(' '));
    }
    std::string flag = arg.substr(0, arg.find('='));
    if (flag.rfind("--", 0) == 0) {
      std::vector<std::string> flags;
      std::vector<CLI::App*> scopes = {&app};
      for (CLI::App* sub : app.get_subcommands()) scopes.push_back(sub);
      for (CLI::App* scope : scopes)
        for (const CLI::Option* o : scope->get_options())
          for (const auto& n : o->get_lnames()) flags.push_back("--" + n);
      auto near = nearest(flag, flags, 1);
      err << fmt::format("qsel: error: unknown option {}{}\n", quote_value(flag),
                         near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near[0]));
      return 2;
    }
    err << fmt::format("qsel: error: unexpected argument {}\n", quote_value(arg));
    return 2;
  }
  err << "qsel: error: " << printable(what) << "\n";
  return 2;
}

// The parse error's line, capped like every other: CLI11 quotes whatever was typed.
int parse_error(CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (e.get_exit_code() == 0) return app.exit(e, out, err);
  std::ostringstream line;
  int code = parse_error_lines(app, e, args, out, line);
  std::string text = line.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  err << capped_line(text) << "\n";
  return code;
}

}  // namespace

std::string version_line(Context& ctx) {
  const Graph& g = ctx.graph();
  std::vector<std::string> counts;
  for (const auto& k : all_kinds()) {
    auto n = g.of_kind(k.kind).size();
    if (n) counts.push_back(fmt::format("{} {}", n, n == 1 ? k.name : k.plural));
  }
  return fmt::format("qsel {} (corpus {}: {}; sha256:{})", kQselVersion, g.corpus().origin, fmt::join(counts, ", "),
                     g.corpus().digest.substr(0, 12));
}

const Command* find_command_for(const CLI::App* sub) { return sub ? find_command(sub->get_name()) : nullptr; }

std::string global_options_help(const Command* c) {
  std::string formats = "text, json";
  if (c) {
    formats.clear();
    for (std::size_t i = 0; i < c->formats.size(); ++i)
      formats += fmt::format("{}{}{}", i ? ", " : "", c->formats[i], i == 0 ? " (default)" : "");
  }
  return fmt::format(
      "Global options (before or after the command):\n"
      "  --format FORMAT             {}\n"
      "  --data DIR                  Corpus folder to use instead of the embedded one (also QSEL_DATA)\n"
      "  --color WHEN                auto (default), always or never; auto honours NO_COLOR, FORCE_COLOR, TERM=dumb\n"
      "  -v, --verbose               Log to stderr what was read and why rules excluded or ranked what they did,\n"
      "                              with timings (-vv: every candidate and exclusion)\n"
      "  -q, --quiet                 Only the requested output on stdout and errors on stderr\n"
      "  --offline                   Read Hugging Face repos and URLs only from the cache (also HF_HUB_OFFLINE=1)\n",
      formats);
}

std::string command_footer(const Command& c) {
  std::string text = "\n" + global_options_help(&c) + "\nExit codes:\n  0  success\n";
  if (c.exit_one) text += fmt::format("  1  {}\n", c.exit_one);
  text += "  2  usage or input error: one line naming the file, line and column, and what was expected\n";
  if (c.exit_three) text += fmt::format("  3  {}\n", c.exit_three);
  text += "\nExamples:\n";
  for (const char* e : c.examples) text += fmt::format("  {}\n", e);
  return text;
}

void build_cli(CLI::App& app, Context& ctx, std::vector<std::pair<CLI::App*, Runner>>& runners, bool& version) {
  app.fallthrough();
  app.require_subcommand(0, 1);
  app.add_flag("--version", version, "Print the version and the corpus it carries");
  app.add_option("--data", ctx.data_dir, "Corpus directory to use instead of the embedded one (also QSEL_DATA)")->type_name("DIR");
  app.add_option("--format", ctx.format, "Output format: text, json (lint: concise, sarif, github, gitlab, junit, pylint, azure; recommend, list: markdown; matrix: csv, "
                                         "markdown; graph: dot, mermaid)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember(output_format_names()));
  app.add_option("--color", ctx.color, "Colour: auto (a terminal, unless NO_COLOR or TERM=dumb; FORCE_COLOR forces it), always, never")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag_function("--no-color", [&](std::int64_t) { ctx.color = "never"; }, "Same as --color never");
  app.add_flag_function("-v,--verbose", [&](std::int64_t n) { ctx.verbosity += static_cast<int>(n); },
                        "Log what was read and why on stderr, with timings (-vv: more)");
  app.add_flag_function("-q,--quiet", [&](std::int64_t n) { ctx.verbosity -= static_cast<int>(n); },
                        "Only the requested output and errors");
  app.add_flag("--offline", ctx.offline, "Read Hugging Face repos and URLs only from the cache (also HF_HUB_OFFLINE=1)");
  app.footer("\nExit codes: 0 success, 1 findings or no viable answer (see each command's --help), 2 usage or input error.\n"
             "Run `qsel COMMAND --help` for a command's options, formats and examples; `qsel man` prints the manual.");
  for (const auto& c : commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.summary);
    sub->footer(command_footer(c));
    if (c.hidden) sub->group("");
    runners.emplace_back(sub, c.setup(*sub, ctx));
  }
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Context ctx;
  ctx.out = &out;
  ctx.err = &err;
  if (const char* d = std::getenv("QSEL_DATA"); d && *d) ctx.data_dir = d;

  CLI::App app{"qsel — quantization advisor and record linter for LLM deployment", "qsel"};
  // Before the commands are added: each takes its parent's formatter.
  app.formatter(std::make_shared<WidthFormatter>(terminal_width(std::getenv("COLUMNS"), &out == &std::cout ? STDOUT_FILENO : -1)));
  std::vector<std::pair<CLI::App*, Runner>> runners;
  bool version = false;
  build_cli(app, ctx, runners, version);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return parse_error(app, e, args, out, err);
  }
  // The log writes to `err` for this run only: a caller running qsel in-process (the
  // tests) keeps its own logger, never one bound to a stream that is gone.
  struct RestoreLogger {
    std::shared_ptr<spdlog::logger> saved = spdlog::default_logger();
    ~RestoreLogger() { spdlog::set_default_logger(saved); }
  } restore;
  setup_logging(err, ctx.verbosity);
  try {
    if (version) {
      out << version_line(ctx) << "\n";
      return 0;
    }
    for (auto& [sub, runner] : runners)
      if (sub->parsed()) {
        auto started = std::chrono::steady_clock::now();
        int code = runner();
        spdlog::info("{} finished in {} ms, exit {}", sub->get_name(), elapsed_ms(started), code);
        return code;
      }
    err << app.help();
    err << "qsel: error: a command is required\n";
    return 2;
  } catch (const UsageError& e) {
    err << capped_line("qsel: error: " + printable(e.what())) << "\n";  // a message quotes what strangers wrote: one escaped, capped line
    return 2;
  }
}

}  // namespace qsel
