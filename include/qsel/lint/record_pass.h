// What lint does with each record while it loads, on the loading thread: run
// the record parts of every check, then prune the record to what the corpus
// parts and the graph read (loader/prune.h). Lint never holds every record's
// whole tree at once, so its peak memory follows the pruned records, not the
// corpus.
#pragma once
#include <mutex>
#include <vector>

#include "qsel/lint/check.h"
#include "qsel/lint/finding.h"
#include "qsel/loader/prune.h"
#include "qsel/loader/record.h"

namespace qsel {

class RecordPass {
 public:
  // `prune`: false keeps records whole (the tests compare both ways).
  explicit RecordPass(bool prune = true, CheckOptions options = {});

  // Safe to call from several threads at once.
  void operator()(Record& record);

  // The findings of the records in `kept`: a record dropped later (a repeated
  // id) takes its findings with it, as if it had never been checked.
  Findings take(const std::vector<Record>& kept);

 private:
  bool prune_;
  CheckOptions options_;
  std::vector<KeptPaths> kept_by_kind_;  // before each record's own references
  std::mutex mutex_;
  Findings found_;
};

}  // namespace qsel
