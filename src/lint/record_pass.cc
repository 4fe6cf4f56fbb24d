#include "qsel/lint/record_pass.h"

#include <string_view>
#include <unordered_set>

#include "qsel/graph/reference_fields.h"
#include "qsel/lint/check.h"

namespace qsel {

RecordPass::RecordPass(bool prune, CheckOptions options) : prune_(prune), options_(options) {
  for (const KindInfo& k : all_kinds()) kept_by_kind_.push_back(kept_paths_for(k.kind, corpus_reads()));
}

void RecordPass::operator()(Record& record) {
  Findings found = check_record(record, options_);
  if (!found.empty()) {
    std::lock_guard lock(mutex_);
    found_.insert(found_.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  const KeptPaths& kept = kept_by_kind_[static_cast<std::size_t>(record.kind)];
  if (!prune_ || kept.keeps_everything()) return;
  KeptPaths paths = kept;  // the graph finds references again in what is kept
  for (const FoundReference& ref : references_of(record)) paths.add(ref.pointer);
  paths.prune(record);
}

Findings RecordPass::take(const std::vector<Record>& kept) {
  std::unordered_set<std::string_view> files;
  files.reserve(kept.size());
  for (const Record& r : kept) files.insert(r.file);
  std::lock_guard lock(mutex_);
  Findings out;
  for (Finding& f : found_)
    if (files.count(f.file)) out.push_back(std::move(f));
  found_.clear();
  return out;
}

}  // namespace qsel
