// What a record's `sources` entry points at: a code citation (repo, path, commit),
// its date, and its rank in the source order of docs/sources.md#order.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace qsel {

// The source order, highest first. A record's value follows the highest source;
// a lower one that disagrees is kept as a contested_by entry.
inline constexpr std::string_view kSourceTiers[] = {"engine-code", "engine-docs", "vendor-datasheet",
                                                    "vendor-blog", "census",      "third-party"};

// 0 for engine-code ... 5 for third-party; -1 for an empty or unknown tier.
int tier_rank(std::string_view tier);

struct Citation {
  bool code = false;    // a file (or folder) in a repository: a GitHub blob/tree URL of a
                        // non-documentation file, or a source with `repo`/`path`
  std::string repo;     // owner/name
  std::string path;     // inside the repository
  std::string ref;      // what the URL names: a branch, a tag or a commit
  std::string commit;   // the 40-hex commit (from `commit`, else from the URL), or ""
  std::string date;     // `date` (YYYY-MM-DD), or ""
  std::string tier;     // `tier`, else inferred: engine-code for a pinned code citation,
                        // census for the two design notes; "" when nothing says
};

// Reads one source object (title, url, repo, path, commit, date, tier ...).
Citation read_citation(const nlohmann::json& source);

// One of the two design notes (doc 04, doc 23): census notes no user can open. They
// are shown as "census notes (not public)" with what they claim, never as a reference.
bool is_census_note(const nlohmann::json& source);
inline constexpr const char* kCensusNotes = "census notes (not public)";

// True for 40 lower-case hex digits.
bool is_commit(std::string_view s);

// How current a record's sources are: the oldest and newest `date` of its
// sources, how many carry one, and how many code citations carry none.
struct Freshness {
  std::string oldest, newest;  // YYYY-MM-DD, or "" when no source has a date
  int dated = 0, undated_code = 0;
};
Freshness freshness_of(const nlohmann::json& record);

// Days since 1970-01-01 of a YYYY-MM-DD date, or -1 when it is not a real date.
int date_days(std::string_view ymd);

// YYYY-MM-DD of a day count since 1970-01-01.
std::string days_to_date(int days);

// Today in days since 1970-01-01: SOURCE_DATE_EPOCH (seconds) when set to a
// number, so a run can be reproduced; the clock otherwise.
int today_days();

// Calls `fn(pointer, source)` for every source object of a record: the entries of
// any `sources` list and any object under a `source` key, at any depth.
void for_each_source(const nlohmann::json& record,
                     const std::function<void(const std::string& pointer, const nlohmann::json& source)>& fn);

}  // namespace qsel
