#include "qsel/cli/context.h"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include "qsel/loader/corpus_blob.h"

namespace qsel {


Style Context::style() const {
  Style s;
  s.color = out == &std::cout && want_color(STDOUT_FILENO, no_color);
  return s;
}

const std::map<std::string, nlohmann::json>& Context::schemas() { return embedded().schemas; }

const Graph& Context::graph() {
  if (graph_) return *graph_;
  if (data_dir.empty()) return *(graph_ = &embedded_graph());
  SchemaSet set(schemas());
  Corpus corpus = load_corpus(data_dir, set);
  if (!corpus.problems.empty()) {
    for (const auto& p : corpus.problems) *err << located(p) << " [" << p.code << "]\n";
    throw UsageError(fmt::format("{} problem(s) in corpus {}; run `qsel lint {}` for details",
                                 corpus.problems.size(), data_dir, data_dir));
  }
  if (corpus.files == 0) throw UsageError(fmt::format("no record files found in {}", data_dir));
  owned_ = std::make_unique<Graph>(std::move(corpus));
  return *(graph_ = owned_.get());
}

void Context::print_json(const nlohmann::json& j) const {
  *out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void Context::print_json(const nlohmann::ordered_json& j) const {
  *out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace qsel
