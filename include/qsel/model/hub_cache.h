// The Hub client's cache on disk, under $XDG_CACHE_HOME/qsel (core/private_dir.h:
// a folder only this user may change, walked without following links). Entries
// are keyed by the endpoint's scheme, host, port and path (never its credentials),
// then the repository:
//   hub/ENDPOINT/ORG/NAME/refs/REVISION.json          a file list (ListingEntry)
//   hub/ENDPOINT/ORG/NAME/files/SHA/FILE               a file, or the start of one
//   hub/ENDPOINT/ORG/NAME/files/SHA/FILE@meta.json     its size, completeness, ETag (FileMeta)
//   url/SHA256-OF-URL, url/SHA256-OF-URL@meta.json     a file outside the Hub
// Every name is one path component (bytes outside [A-Za-z0-9._-] percent-encoded,
// so '@' never ends an encoded name). An entry that is missing, a link, not
// what qsel writes (a wrong JSON type, a bad ETag) is a miss, said once at -v,
// and written anew; a cache that cannot be used costs speed, never an answer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/core/private_dir.h"

namespace qsel {

// A repository's file list as kept: when it was asked, its ETag, the list.
struct ListingEntry {
  long fetched = 0;         // seconds since the epoch
  std::string etag;         // empty or a valid ETag
  nlohmann::json listing;   // an object (hub_repo_from_listing checks the rest)
};

// What is known of a kept file: its whole size, whether the bytes kept are all
// of it, and its ETag.
struct FileMeta {
  std::uint64_t size = 0;
  bool complete = false;
  std::string etag;
};

// The readers of what the cache holds: nothing, with *why, unless `text` is
// exactly what qsel writes (types, ranges, a valid ETag); never a throw.
std::optional<ListingEntry> parse_listing_entry(std::string_view text, std::string* why);
std::optional<FileMeta> parse_file_meta(std::string_view text, std::string* why);
std::string listing_entry_text(const ListingEntry& e);
std::string file_meta_text(const FileMeta& m);

// An HTTP entity tag (RFC 9110): "…" or W/"…" of visible characters but '"', at
// most 256 bytes. Only such a value is kept or ever sent back as a header.
bool valid_etag(std::string_view etag);

// `s` as one path component: letters, digits, '-', '_' and '.' (not leading) kept,
// every other byte percent-encoded; long names end in a hash.
std::string cache_name(std::string_view s);

class HubCache {
 public:
  using Path = std::vector<std::string>;

  // The cache at `root` for the Hub at `endpoint`; an empty root means no cache.
  HubCache(const std::string& root, const std::string& endpoint);
  bool enabled(std::string* why = nullptr) const;
  const std::string& root() const { return dir_.root(); }

  Path listing_path(const std::string& repo, const std::string& revision) const;
  Path file_path(const std::string& repo, const std::string& sha, const std::string& file) const;
  static Path url_path(const std::string& shown_url);
  static Path meta_of(Path p);

  std::optional<ListingEntry> listing(const Path& p) const;
  std::optional<FileMeta> meta(const Path& p) const;
  // Raw bytes (a file or its start), at most `cap`.
  std::optional<std::string> bytes(const Path& p, std::size_t cap) const;
  // Writes; a failure (a full disk, a read-only folder) is a warning, never an error.
  void put(const Path& p, std::string_view bytes) const;
  // Says at -v that the entry at `p` was not used, and why.
  void not_used(const Path& p, const std::string& why) const;

 private:
  template <typename Entry>
  std::optional<Entry> entry(const Path& p, std::size_t cap, std::optional<Entry> (*parse)(std::string_view, std::string*)) const;
  PrivateDir dir_;
  std::string endpoint_key_;
};

}  // namespace qsel
