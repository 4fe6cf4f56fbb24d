// libFuzzer harness: the Hub cache's entries, which a shared folder, a restored CI
// cache or an unpacked tarball may hold anything in (issue 41). The first byte
// picks: 0 a file list entry (parse_listing_entry, then the list it holds), 1 a
// file's meta entry (parse_file_meta, which must read back what it writes), 2 a
// name made a path component (cache_name) and an ETag check, 3 the bytes written
// as the file list entry of an on-disk cache that an offline Hub then reads.
// Nothing may throw but a UsageError, and nothing read may escape its checks.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "qsel/core/errors.h"
#include "qsel/core/private_dir.h"
#include "qsel/model/hub.h"
#include "qsel/model/hub_cache.h"

namespace {

void listing_entry(const std::string& text) {
  std::string why;
  auto e = qsel::parse_listing_entry(text, &why);
  if (!e) return;
  if (!e->etag.empty() && !qsel::valid_etag(e->etag)) __builtin_trap();  // an ETag qsel would send back
  try {
    qsel::hub_repo_from_listing(e->listing.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "org/name", "main", "entry");
  } catch (const qsel::UsageError&) {
  }
}

void file_meta(const std::string& text) {
  std::string why;
  auto m = qsel::parse_file_meta(text, &why);
  if (!m) return;
  auto again = qsel::parse_file_meta(qsel::file_meta_text(*m), &why);
  if (!again || again->size != m->size || again->complete != m->complete || again->etag != m->etag) __builtin_trap();
}

void names(const std::string& text) {
  if (!qsel::is_single_name(qsel::cache_name(text))) __builtin_trap();  // every name stays one component
  if (qsel::valid_etag(text) && text.find_first_of("\r\n") != std::string::npos) __builtin_trap();
}

void on_disk(const std::string& text) {
  static const std::string root = "/tmp/qsel-fuzz-cache-" + std::to_string(getpid());
  static const qsel::HubCache cache(root, "https://huggingface.co");
  static const qsel::HubCache::Path path = cache.listing_path("org/name", "main");
  cache.put(path, text);
  qsel::HubSettings s;
  s.cache_dir = root;
  s.offline = true;
  try {
    qsel::Hub hub(s);
    qsel::HubRepo r = hub.repo("org/name", "main");
    for (const auto& f : r.files) (void)r.find(f.path);
  } catch (const qsel::UsageError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: listing_entry(text); break;
    case 1: file_meta(text); break;
    case 2: names(text); break;
    default: on_disk(text); break;
  }
  return 0;
}
