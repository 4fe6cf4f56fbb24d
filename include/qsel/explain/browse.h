// What `qsel list`, `qsel matrix` and `qsel graph` say about the corpus, as JSON
// the report unit renders (schemas/output/list, matrix and graph .schema.json). The
// CLI parses the flags into these queries and prints the answer.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"

namespace qsel {

// ---- list --------------------------------------------------------------------------

struct ListFilters {
  std::string native_on, emulated_on, regime, engine, severity, vendor;
};

// The values the enum-valued filters take (from the record schemas): an unknown
// one is a usage error with "did you mean".
struct ListEnums {
  std::vector<std::string> regimes, severities, vendors;
};

struct ListFilterInfo {
  const char* flag;                   // "--native-on"
  std::string ListFilters::*value;
  std::vector<Kind> kinds;            // the kinds it can filter
  const char* help;
};
// Every filter, in the order they apply (the CLI adds one option per entry).
const std::vector<ListFilterInfo>& list_filters();

// With a kind: its records (with the columns of its table) that pass every filter
// given; a filter without a kind, or for a kind it cannot filter, is a UsageError.
// Without a kind: the count of every kind.
nlohmann::ordered_json list_answer(const Graph& g, std::optional<Kind> kind, const ListFilters& filters, const ListEnums& enums);

// ---- matrix ------------------------------------------------------------------------

struct MatrixQuery {
  std::string engine, gpu, vendor;
  bool derived = false;
  bool verdicts = false;             // formats x targets, each cell qsel's verdict (rules/verdict.h)
  std::vector<std::string> vendors;  // the values --vendor may take
};

// An engine's support matrix (--engine), every matrix's row for a GPU (--gpu), the
// grid of formats x parts derived from the format records (--derived), the grid of
// formats x targets with qsel's verdict in each cell (--verdicts: what explain F --on
// TARGET says, with its reasons), or the list of matrices.
nlohmann::ordered_json matrix_answer(const Graph& g, const MatrixQuery& q);

// ---- graph -------------------------------------------------------------------------

struct GraphQuery {
  std::string around;              // empty: the whole corpus
  int depth = 1;                   // hops from `around`, edges followed both ways
  std::vector<std::string> kinds;  // only records of these kinds (empty: every kind); the root always stays
  std::vector<std::string> edges;  // only edges with these labels, and the records they join (empty: every edge)
};

// The selected records (nearest first, then by kind and id) and the edges among
// them, with dangling references as missing nodes. An edge that claims how a format
// runs on a part (native-on, emulated-on, census-*) carries qsel's verdict for the
// pair (the one explain, list and recommend give) and whether the claim agrees.
nlohmann::ordered_json graph_answer(const Graph& g, const GraphQuery& q);

}  // namespace qsel
