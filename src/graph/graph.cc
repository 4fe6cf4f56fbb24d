#include "qsel/graph/graph.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "qsel/core/errors.h"
#include "qsel/core/parallel.h"
#include "qsel/core/text.h"

#include <fmt/format.h>

namespace qsel {

std::string normalize_name(std::string_view text) {
  std::string out;
  for (char c : text)
    if (c != '-' && c != '_' && c != ' ' && c != '\t') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

const std::vector<KeptField>& graph_reads() {
  // resolve() matches accelerators by family, family_default, memory and name
  // spellings (gpu_names.cc): accelerators are read whole.
  static const std::vector<KeptField> reads = {{Kind::Accelerator, ""}};
  return reads;
}

namespace {

// Every record's references. Finding them walks each record's fields, so a
// large corpus (lint at scale) spreads the records over the cores; the
// embedded corpus is small enough that a thread would cost more than it saves.
std::vector<std::vector<FoundReference>> all_references(const std::vector<Record>& recs) {
  std::vector<std::vector<FoundReference>> out(recs.size());
  constexpr std::size_t kChunk = 256;
  parallel_for((recs.size() + kChunk - 1) / kChunk, threads_for(recs.size(), 4096), [&](std::size_t chunk) {
    for (std::size_t i = chunk * kChunk; i < std::min((chunk + 1) * kChunk, recs.size()); ++i) out[i] = references_of(recs[i]);
  });
  return out;
}

}  // namespace

struct Graph::SuggestionIndex {
  std::mutex mu;
  std::map<int, std::pair<std::vector<std::string>, std::unordered_map<std::string, std::string>>> by_kind;  // -1: any kind
};

struct Graph::Memo {
  std::recursive_mutex mutex;
  std::map<std::string, std::shared_ptr<const void>> entries;
};

std::shared_ptr<const void> Graph::memo_raw(const std::string& key, const std::function<std::shared_ptr<const void>()>& make) const {
  std::lock_guard<std::recursive_mutex> lock(memo_->mutex);
  auto it = memo_->entries.find(key);
  if (it == memo_->entries.end()) it = memo_->entries.emplace(key, make()).first;
  return it->second;
}

Graph::Graph(Corpus corpus)
    : corpus_(std::move(corpus)), suggestion_index_(std::make_shared<SuggestionIndex>()), memo_(std::make_shared<Memo>()) {
  const auto& recs = corpus_.records;
  std::vector<std::vector<FoundReference>> refs = all_references(recs);
  by_kind_.resize(all_kinds().size());
  for (const Record& r : recs) by_kind_[static_cast<std::size_t>(r.kind)].push_back(&r);
  for (auto& list : by_kind_)
    std::sort(list.begin(), list.end(), [](const Record* a, const Record* b) { return a->id < b->id; });
  out_.resize(recs.size());
  in_.resize(recs.size());
  for (std::size_t i = 0; i < recs.size(); ++i) by_id_.emplace(recs[i].id, i);
  for (std::size_t i = 0; i < corpus_.unvalidated.size(); ++i) unvalidated_.emplace(corpus_.unvalidated[i].id, i);
  std::size_t edges = 0;
  for (const auto& list : refs) edges += list.size();
  edges_.reserve(edges);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const Record& r = recs[i];
    by_key_[normalize_name(r.id)].push_back(i);
    for (const auto& a : r.aliases) {
      auto& v = by_key_[normalize_name(a)];
      if (std::find(v.begin(), v.end(), i) == v.end()) v.push_back(i);
    }
    if (r.kind == Kind::Accelerator && !r.str("family").empty()) by_family_[normalize_name(r.str("family"))].push_back(i);
    for (auto& ref : refs[i]) {
      Edge e{i, std::nullopt, false, std::move(ref.id), ref.field->label, std::move(ref.pointer), ref.field};
      if (auto it = by_id_.find(e.to_id); it != by_id_.end()) {
        const auto& allowed = ref.field->to;
        e.wrong_kind = !allowed.empty() && std::find(allowed.begin(), allowed.end(), recs[it->second].kind) == allowed.end();
        if (!e.wrong_kind) e.to = it->second;
      }
      edges_.push_back(std::move(e));
    }
    std::vector<FoundReference>().swap(refs[i]);  // its strings are in the edges now
  }
  for (std::size_t k = 0; k < edges_.size(); ++k) {
    out_[edges_[k].from].push_back(k);
    if (edges_[k].to) in_[*edges_[k].to].push_back(k);
  }
}

// Freeing a large corpus is millions of small frees; half of them go to a
// second thread. (Where no thread can be started, one thread frees them all.)
Graph::~Graph() {
  std::vector<Record>& recs = corpus_.records;
  if (recs.size() < 4096) return;
  try {
    auto middle = recs.begin() + static_cast<std::ptrdiff_t>(recs.size() / 2);
    std::vector<Record> tail(std::make_move_iterator(middle), std::make_move_iterator(recs.end()));
    recs.erase(middle, recs.end());
    std::thread helper([&tail] { std::vector<Record>().swap(tail); });
    std::vector<Record>().swap(recs);
    helper.join();
  } catch (...) {  // no memory or no thread: the members free the rest as usual
  }
}

std::optional<std::size_t> Graph::index_of(std::string_view id) const {
  auto it = by_id_.find(std::string(id));
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

const RecordStub* Graph::unvalidated(std::string_view id) const {
  auto it = unvalidated_.find(std::string(id));
  return it == unvalidated_.end() ? nullptr : &corpus_.unvalidated[it->second];
}

const Record* Graph::find(std::string_view id) const {
  auto i = index_of(id);
  return i ? &corpus_.records[*i] : nullptr;
}

const std::vector<const Record*>& Graph::of_kind(Kind k) const { return by_kind_[static_cast<std::size_t>(k)]; }

std::vector<const Edge*> Graph::out_edges(std::size_t node) const {
  std::vector<const Edge*> out;
  for (auto k : out_[node]) out.push_back(&edges_[k]);
  return out;
}

std::vector<std::string> Graph::edge_labels() const {
  std::set<std::string_view> labels;
  for (const Edge& e : edges_) labels.insert(e.label);
  return {labels.begin(), labels.end()};
}

std::vector<const Edge*> Graph::in_edges(std::size_t node) const {
  std::vector<const Edge*> out;
  for (auto k : in_[node]) out.push_back(&edges_[k]);
  return out;
}

std::vector<const Edge*> Graph::dangling() const {
  std::vector<const Edge*> out;
  for (const auto& e : edges_)
    if (!e.to) out.push_back(&e);
  return out;
}

std::vector<std::string> Graph::ids(std::optional<Kind> kind) const {
  std::vector<std::string> out;
  for (const auto& r : corpus_.records)
    if (!kind || r.kind == *kind) out.push_back(r.id);
  return out;
}

Resolution Graph::resolve(std::string_view query, std::optional<Kind> kind) const {
  Resolution res;
  auto fits = [&](std::size_t i) { return !kind || corpus_.records[i].kind == *kind; };
  if (auto i = index_of(query); i && fits(*i)) {
    res.record = &corpus_.records[*i];
    return res;
  }
  std::string key = normalize_name(query);
  if (auto it = by_key_.find(key); it != by_key_.end()) {
    std::vector<std::size_t> hits;
    std::copy_if(it->second.begin(), it->second.end(), std::back_inserter(hits), fits);
    if (!hits.empty()) {
      res.record = &corpus_.records[hits[0]];
      res.how = normalize_name(res.record->id) == key ? Resolution::How::Id : Resolution::How::Alias;
      res.matched = std::string(query);
      for (std::size_t k = 1; k < hits.size(); ++k) res.ambiguous.push_back(&corpus_.records[hits[k]]);
      return res;
    }
  }
  if (auto it = by_family_.find(key); it != by_family_.end() && (!kind || *kind == Kind::Accelerator)) {
    const auto& members = it->second;
    std::size_t chosen = family_default(members);
    res.record = &corpus_.records[chosen];
    res.how = Resolution::How::Family;
    res.matched = std::string(query);
    for (auto i : members)
      if (i != chosen) res.others.push_back(&corpus_.records[i]);
    return res;
  }
  const auto& [names, to_id] = suggestion_names(kind);
  auto near = nearest(key, names, 6);
  std::size_t best = near.empty() ? 0 : edit_distance(key, near[0]);
  for (const auto& n : near) {
    if (edit_distance(key, n) > best) break;  // only the closest: a list of near-misses is no hint
    const std::string& id = to_id.at(n);
    if (std::find(res.suggestions.begin(), res.suggestions.end(), id) == res.suggestions.end()) res.suggestions.push_back(id);
    if (res.suggestions.size() == 3) break;
  }
  return res;
}

std::size_t Graph::family_default(const std::vector<std::size_t>& members) const {
  auto def = std::find_if(members.begin(), members.end(), [&](std::size_t i) { return corpus_.records[i].data.value("family_default", false); });
  return def != members.end() ? *def : members.front();
}

const std::pair<std::vector<std::string>, std::unordered_map<std::string, std::string>>& Graph::suggestion_names(std::optional<Kind> kind) const {
  std::lock_guard<std::mutex> lock(suggestion_index_->mu);
  int slot = kind ? static_cast<int>(*kind) : -1;
  auto [it, fresh] = suggestion_index_->by_kind.try_emplace(slot);
  if (fresh) {
    auto& [names, to_id] = it->second;
    for (const auto& [k, v] : by_key_)
      for (auto i : v)
        if (!kind || corpus_.records[i].kind == *kind) {
          if (to_id.emplace(k, corpus_.records[i].id).second) names.push_back(k);
        }
    // Family names too ("h100" for "h1000"), suggesting what the family resolves to.
    if (!kind || *kind == Kind::Accelerator)
      for (const auto& [k, members] : by_family_)
        if (to_id.emplace(k, corpus_.records[family_default(members)].id).second) names.push_back(k);
  }
  return it->second;  // std::map nodes stay put as other slots are added
}

void throw_unknown(const std::string& what, const std::string& query, const Resolution& r) {
  std::string hint;
  if (!r.suggestions.empty()) hint = fmt::format("; did you mean \"{}\"?", fmt::join(r.suggestions, "\", \""));
  throw UsageError(fmt::format("unknown {} {}{}", what, quote_value(query), hint));
}

}  // namespace qsel
