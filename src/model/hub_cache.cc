#include "qsel/model/hub_cache.h"

#include <cctype>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/text.h"
#include "qsel/net/url.h"

namespace qsel {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxListingEntry = 64 << 20;  // a 100,000-file listing is about 5 MB
constexpr std::size_t kMaxMetaEntry = 4096;

std::optional<json> parse_entry(std::string_view text, std::string* why) {
  if (json_nesting(text) > kMaxJsonNesting) {
    *why = fmt::format("nested deeper than {} levels", kMaxJsonNesting);
    return std::nullopt;
  }
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *why = "not a JSON object";
    return std::nullopt;
  }
  return j;
}

// The ETag at `key`: absent or "" is none; anything else must be a valid one.
bool etag_at(const json& j, const char* key, std::string* out, std::string* why) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_string() || (!it->get_ref<const std::string&>().empty() && !valid_etag(it->get_ref<const std::string&>()))) {
    *why = fmt::format("\"{}\" is not an ETag", key);
    return false;
  }
  *out = it->get<std::string>();
  return true;
}

}  // namespace

bool valid_etag(std::string_view e) {
  if (e.starts_with("W/")) e.remove_prefix(2);
  if (e.size() < 2 || e.size() > 256 || e.front() != '"' || e.back() != '"') return false;
  for (char c : e.substr(1, e.size() - 2)) {
    auto u = static_cast<unsigned char>(c);
    if (u == '"' || u < 0x21 || u == 0x7f) return false;  // RFC 9110 etagc: %x21 / %x23-7E / obs-text
  }
  return true;
}

std::optional<ListingEntry> parse_listing_entry(std::string_view text, std::string* why) {
  auto j = parse_entry(text, why);
  if (!j) return std::nullopt;
  ListingEntry e;
  auto fetched = j->find("fetched");
  if (fetched == j->end() || !fetched->is_number_integer() || fetched->get<long long>() < 0) {
    *why = "\"fetched\" is not a time";
    return std::nullopt;
  }
  e.fetched = static_cast<long>(fetched->get<long long>());
  if (!etag_at(*j, "etag", &e.etag, why)) return std::nullopt;
  auto listing = j->find("listing");
  if (listing == j->end() || !listing->is_object()) {
    *why = "\"listing\" is not an object";
    return std::nullopt;
  }
  e.listing = std::move(*listing);
  return e;
}

std::optional<FileMeta> parse_file_meta(std::string_view text, std::string* why) {
  auto j = parse_entry(text, why);
  if (!j) return std::nullopt;
  FileMeta m;
  auto size = j->find("size");
  if (size == j->end() || !size->is_number_unsigned()) {
    *why = "\"size\" is not a byte count";
    return std::nullopt;
  }
  m.size = size->get<std::uint64_t>();
  if (auto complete = j->find("complete"); complete != j->end()) {
    if (!complete->is_boolean()) {
      *why = "\"complete\" is not true or false";
      return std::nullopt;
    }
    m.complete = complete->get<bool>();
  }
  if (!etag_at(*j, "etag", &m.etag, why)) return std::nullopt;
  return m;
}

std::string listing_entry_text(const ListingEntry& e) {
  return json{{"fetched", e.fetched}, {"etag", e.etag}, {"listing", e.listing}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string file_meta_text(const FileMeta& m) { return json{{"size", m.size}, {"complete", m.complete}, {"etag", m.etag}}.dump(); }

std::string cache_name(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (std::isalnum(c) || c == '-' || c == '_' || (c == '.' && i > 0)) out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  if (out.empty()) return "%";
  if (out.size() > 200) out = out.substr(0, 150) + "%" + sha256_hex(s).substr(0, 40);  // NAME_MAX is 255
  return out;
}

HubCache::HubCache(const std::string& root, const std::string& endpoint)
    : dir_(PrivateDir::open(root)), endpoint_key_(cache_name(url_origin(endpoint))) {}

bool HubCache::enabled(std::string* why) const {
  if (why) *why = dir_.why();
  return dir_.usable();
}

HubCache::Path HubCache::listing_path(const std::string& repo, const std::string& revision) const {
  auto slash = repo.find('/');
  return {"hub", endpoint_key_, cache_name(repo.substr(0, slash)), cache_name(repo.substr(slash + 1)), "refs", cache_name(revision) + ".json"};
}

HubCache::Path HubCache::file_path(const std::string& repo, const std::string& sha, const std::string& file) const {
  auto slash = repo.find('/');
  return {"hub", endpoint_key_, cache_name(repo.substr(0, slash)), cache_name(repo.substr(slash + 1)), "files", cache_name(sha), cache_name(file)};
}

HubCache::Path HubCache::url_path(const std::string& shown_url) { return {"url", sha256_hex(shown_url).substr(0, 40)}; }

HubCache::Path HubCache::meta_of(Path p) {
  p.back() += "@meta.json";
  return p;
}

void HubCache::not_used(const Path& p, const std::string& why) const {
  spdlog::info("cache: {}: not an entry qsel wrote ({}); reading it again", dir_.shown(p), why);
}

std::optional<std::string> HubCache::bytes(const Path& p, std::size_t cap) const {
  std::string why;
  auto text = dir_.read(p, cap, &why);
  if (!text && !why.empty()) spdlog::info("cache: {} (not used; reading it again)", why);
  return text;
}

// An entry read with `parse`; one that is there but not what qsel writes is said once at -v.
template <typename Entry>
std::optional<Entry> HubCache::entry(const Path& p, std::size_t cap, std::optional<Entry> (*parse)(std::string_view, std::string*)) const {
  auto text = bytes(p, cap);
  if (!text) return std::nullopt;
  std::string why;
  auto e = parse(*text, &why);
  if (!e) not_used(p, why);
  return e;
}

std::optional<ListingEntry> HubCache::listing(const Path& p) const { return entry(p, kMaxListingEntry, &parse_listing_entry); }

std::optional<FileMeta> HubCache::meta(const Path& p) const { return entry(p, kMaxMetaEntry, &parse_file_meta); }

void HubCache::put(const Path& p, std::string_view b) const {
  if (!dir_.usable()) return;
  std::string why;
  // Not flushed to disk: 104 shards are 416 flushes (2.4 s on a loaded machine, more than
  // reading their headers took). Every entry is checked when read, and one a crash left
  // empty or short is a miss or a shorter start, read again.
  if (!dir_.write(p, b, &why, false)) spdlog::warn("cache: {} (the answer is not cached)", why);
}

}  // namespace qsel
