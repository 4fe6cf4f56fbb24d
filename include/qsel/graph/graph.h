// The in-memory graph: records are nodes, every id-valued field is a typed edge,
// with reverse edges so "what refers to X" is one lookup. Dangling references
// stay in the graph as edges with no target; lint reports them.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "qsel/graph/reference_fields.h"
#include "qsel/loader/loader.h"
#include "qsel/loader/prune.h"

namespace qsel {

struct Edge {
  std::size_t from = 0;
  std::optional<std::size_t> to;  // empty: dangling (no record has that id)
  bool wrong_kind = false;        // a record has the id, but of a kind the field cannot name
  std::string to_id;
  std::string_view label;         // "native-on", "selects", … (the field's, which lives as long as the program)
  std::string pointer;            // where in `from` the id is written
  const ReferenceField* field = nullptr;
};

struct Resolution {
  enum class How { Id, Alias, Family };
  const Record* record = nullptr;            // null when nothing matched
  How how = How::Id;
  std::string matched;                       // the alias or family name that matched
  std::vector<const Record*> others;         // other family members (How::Family)
  std::vector<const Record*> ambiguous;      // several records share the alias
  std::vector<std::string> suggestions;      // did-you-mean ids when nothing matched
  explicit operator bool() const { return record != nullptr; }
};

// Fails with "unknown WHAT "query"; did you mean …?" (a UsageError, exit 2).
[[noreturn]] void throw_unknown(const std::string& what, const std::string& query, const Resolution& r);

class Graph {
 public:
  explicit Graph(Corpus corpus);
  ~Graph();
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  const Corpus& corpus() const { return corpus_; }
  const std::vector<Record>& records() const { return corpus_.records; }
  const Record& record(std::size_t i) const { return corpus_.records[i]; }
  std::optional<std::size_t> index_of(std::string_view id) const;
  const Record* find(std::string_view id) const;
  // The records of kind `k`, sorted by id (listed once, when the graph is built).
  const std::vector<const Record*>& of_kind(Kind k) const;

  const std::vector<Edge>& edges() const { return edges_; }
  std::vector<const Edge*> out_edges(std::size_t node) const;
  std::vector<const Edge*> in_edges(std::size_t node) const;
  std::vector<const Edge*> dangling() const;
  // Every label an edge has ("native-on", "serves"), sorted, each once.
  std::vector<std::string> edge_labels() const;

  // Id or alias, case-insensitive and tolerant of '-', '_' and spaces; an
  // accelerator family name resolves to its default member. `kind` narrows.
  Resolution resolve(std::string_view query, std::optional<Kind> kind = std::nullopt) const;

  // A record that failed validation (lint only), by exact id: references to it
  // are not dangling, its own problems already say what is wrong with it.
  const RecordStub* unvalidated(std::string_view id) const;

  // Ids of every record (of `kind` when given), for suggestions.
  std::vector<std::string> ids(std::optional<Kind> kind = std::nullopt) const;

  // What a higher layer computes once per corpus (the fitted quality model): `make` runs
  // once per key for this graph, and the result lives as long as the graph. It must not
  // hold the graph's own address (a graph can move); records' addresses are stable.
  template <class T>
  std::shared_ptr<const T> memo(const std::string& key, const std::function<std::shared_ptr<const T>()>& make) const {
    return std::static_pointer_cast<const T>(memo_raw(key, [&] { return std::shared_ptr<const void>(make()); }));
  }

 private:
  Corpus corpus_;
  std::vector<Edge> edges_;
  std::vector<std::vector<const Record*>> by_kind_;  // per kind, sorted by id
  std::unordered_map<std::string, std::size_t> by_id_;
  std::vector<std::vector<std::size_t>> out_, in_;
  std::unordered_map<std::string, std::vector<std::size_t>> by_key_;     // normalised id and aliases
  std::unordered_map<std::string, std::vector<std::size_t>> by_family_;  // normalised family name
  std::unordered_map<std::string, std::size_t> unvalidated_;             // id -> corpus_.unvalidated index
  // The names resolve() suggests from, per kind, built once on first use: a miss in a
  // 100,000-record corpus rebuilt 150,000 names for every unknown id (9,163 took 150 s).
  struct SuggestionIndex;
  std::shared_ptr<SuggestionIndex> suggestion_index_;
  struct Memo;
  std::shared_ptr<Memo> memo_;
  std::shared_ptr<const void> memo_raw(const std::string& key, const std::function<std::shared_ptr<const void>()>& make) const;
  const std::pair<std::vector<std::string>, std::unordered_map<std::string, std::string>>& suggestion_names(std::optional<Kind> kind) const;
  // The member a family name resolves to: the one marked family_default, else the first.
  std::size_t family_default(const std::vector<std::size_t>& members) const;
};

// What the graph reads of records besides id, name, aliases and references
// (accelerator family names and the fields GPU names are matched on), for a
// caller that prunes records before building it (loader/prune.h).
const std::vector<KeptField>& graph_reads();

// Lower case, with '-', '_' and spaces removed: "H100 SXM" -> "h100sxm".
std::string normalize_name(std::string_view text);

}  // namespace qsel
