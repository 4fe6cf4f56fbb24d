#include "qsel/cli/context.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/text.h"
#include "qsel/core/timing.h"

#include "qsel/graph/embedded_graph.h"
#include "qsel/loader/corpus_blob.h"

namespace qsel {


Style Context::style() const {
  Style s;
  // A colour choice forced by --color always or FORCE_COLOR applies to any stream (tests, --output-file).
  bool tty = out == &std::cout && isatty(STDOUT_FILENO) != 0;
  s.color = want_color(color, tty, std::getenv("NO_COLOR"), std::getenv("FORCE_COLOR"), std::getenv("TERM"));
  s.width = terminal_width(std::getenv("COLUMNS"), out == &std::cout ? STDOUT_FILENO : -1);
  return s;
}

HubSettings Context::hub() const { return hub_settings_from_environment(offline, verbosity >= 0); }

const std::map<std::string, nlohmann::json>& Context::schemas() { return embedded_schemas(); }

const Graph& Context::graph() {
  if (graph_) return *graph_;
  auto started = std::chrono::steady_clock::now();
  if (data_dir.empty()) {
    graph_ = &embedded_graph();
    spdlog::info("corpus: embedded, {} records (sha256:{}), ready in {} ms", graph_->corpus().records.size(),
                 graph_->corpus().digest.substr(0, 12), elapsed_ms(started));
    return *graph_;
  }
  std::error_code ec;
  auto status = std::filesystem::status(data_dir, ec);
  if (ec || !std::filesystem::exists(status))
    throw UsageError(fmt::format("--data {}: no such directory", quote_value(data_dir)));
  if (!std::filesystem::is_directory(status))
    throw UsageError(fmt::format("--data {}: not a directory (expected a corpus folder with formats/, accelerators/, …)", quote_value(data_dir)));
  SchemaSet set(schemas());
  Corpus corpus = load_corpus(data_dir, set);
  spdlog::info("corpus: read {} record file(s) from {} in {} ms", corpus.files, data_dir, elapsed_ms(started));
  if (!corpus.problems.empty()) {
    for (const auto& p : corpus.problems) *err << capped_line(printable(located(p))) << " [" << p.code << "]\n";
    throw UsageError(fmt::format("{} problem(s) in corpus {}; run `qsel lint {}` for details",
                                 corpus.problems.size(), data_dir, data_dir));
  }
  if (corpus.files == 0) throw UsageError(fmt::format("no record files found in {}", data_dir));
  started = std::chrono::steady_clock::now();
  owned_ = std::make_unique<Graph>(std::move(corpus));
  spdlog::debug("corpus: graph of {} records built in {} ms", owned_->corpus().records.size(), elapsed_ms(started));
  return *(graph_ = owned_.get());
}

void Context::note(const std::string& line) const {
  if (verbosity >= 0) *err << capped_line("qsel: " + printable(line)) << "\n";
}

void Context::print_json(const nlohmann::json& j) const {
  *out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void Context::print_json(const nlohmann::ordered_json& j) const {
  *out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace qsel
