// What every command shares: the global options, the corpus (embedded or
// --data), the output stream and styling.
#pragma once
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "qsel/core/errors.h"
#include "qsel/graph/graph.h"
#include "qsel/model/hub.h"
#include "qsel/report/style.h"

namespace qsel {

struct Context {
  std::string data_dir;           // --data / QSEL_DATA; empty: the embedded corpus
  std::string format = "text";    // --format
  int verbosity = 0;              // -v raises, -q lowers
  std::string color = "auto";     // --color auto|always|never (--no-color: never)
  bool offline = false;           // --offline: Hugging Face repos from the cache only
  std::ostream* out = nullptr;    // stdout unless a test redirects it
  std::ostream* err = nullptr;

  Style style() const;
  bool json() const { return format == "json"; }
  // The corpus as a graph, loaded on first use. Load problems are printed to
  // stderr, one located line each, and end the command with exit code 2.
  const Graph& graph();
  // The schemas that go with the corpus in use.
  const std::map<std::string, nlohmann::json>& schemas();
  // How to reach the Hugging Face Hub: the environment (HF_ENDPOINT, HF_TOKEN,
  // HF_HUB_OFFLINE, XDG_CACHE_HOME …) and --offline; a progress line unless -q.
  HubSettings hub() const;
  // A note for the user on stderr ("fixed 3 finding(s)"); -q silences it.
  void note(const std::string& line) const;
  // Writes `j` as the command's JSON output.
  void print_json(const nlohmann::json& j) const;
  void print_json(const nlohmann::ordered_json& j) const;

 private:
  const Graph* graph_ = nullptr;
  std::unique_ptr<Graph> owned_;  // a --data corpus
};

}  // namespace qsel
