// The Hub cache as attacker-reachable storage (issue 41): a shared folder, a
// restored CI cache or an unpacked tarball may hold links, foreign owners and
// entries qsel never wrote. None of them may redirect a write, leak a read,
// break a command, or keep a credential.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "qsel/core/errors.h"
#include "qsel/model/hub.h"
#include "qsel/model/hub_cache.h"
#include "support/hub_fixtures.h"

using namespace qsel;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> cache_entries(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

// The file list, config.json and a shard header: every kind of entry the Hub client writes.
void read_every_kind(Hub& hub) {
  HubRepo r = hub.repo(test::kAwqRepo, "main");
  CHECK(r.sha == test::kAwqSha);
  CHECK(hub.small_file(r, "config.json", 1 << 20, "config.json").find("qwen3") != std::string::npos);
  auto f = hub.open(r, *r.find("model-00001-of-00002.safetensors"));
  char b[8];
  CHECK(f->read_at(0, b, 8));
}

std::string cache_text(const fs::path& p) { return test::read_text(p); }

void overwrite_entry(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary | std::ios::trunc) << text; }

// The loopback Hub serving Qwen3-32B-AWQ, and a cache that read every kind of entry from it once.
struct FilledCache {
  test::HubServer s;
  test::TempDir d;
  HubSettings h;
  FilledCache() {
    test::serve_qwen3_32b_awq(s);
    h = test::hub_settings(s, d);
    Hub hub(h);
    read_every_kind(hub);
  }
};

}  // namespace

TEST_CASE("hub cache: a link planted at any entry is neither written through nor read (C1)", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  test::TempDir outside;
  auto files = cache_entries(h.cache_dir);
  REQUIRE(files.size() >= 5);  // the list, config.json and its meta, the shard's bytes and its meta
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto victim = outside.write("victim-" + std::to_string(i), "victim " + std::to_string(i) + "\n");
    fs::remove(files[i]);
    fs::create_symlink(victim, files[i]);
  }
  h.fresh_s = 0;  // the list is asked again and rewritten
  Hub again(h);
  read_every_kind(again);
  for (std::size_t i = 0; i < files.size(); ++i) {
    INFO(files[i]);
    CHECK(cache_text(outside.path() / ("victim-" + std::to_string(i))) == "victim " + std::to_string(i) + "\n");
  }
  CHECK(again.cache_hits() == 0);  // a link is never an answer
  for (const auto& f : cache_entries(h.cache_dir)) CHECK(!fs::is_symlink(f));
}

TEST_CASE("hub cache: a linked folder inside the cache cannot take a write outside it (C1)", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  test::TempDir outside;
  // Every folder holding entries becomes a link to an empty folder outside the cache.
  std::set<fs::path> folders;
  for (const auto& f : cache_entries(h.cache_dir)) folders.insert(f.parent_path());
  int n = 0;
  for (const auto& f : folders) {
    fs::remove_all(f);
    fs::path out = outside.path() / std::to_string(n++);
    fs::create_directories(out);
    fs::create_symlink(out, f);
  }
  h.fresh_s = 0;
  Hub again(h);
  read_every_kind(again);
  for (int i = 0; i < n; ++i) CHECK(fs::is_empty(outside.path() / std::to_string(i)));
}

TEST_CASE("hub cache: offline, a linked entry is a miss, never the linked file's bytes (C1)", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  test::TempDir outside;
  auto secret = outside.write("shadow", "root:SECRET-HASH:19000:0:99999:7:::\n");
  for (const auto& f : cache_entries(h.cache_dir))
    if (cache_text(f).find("qwen3") != std::string::npos) {  // config.json's bytes
      fs::remove(f);
      fs::create_symlink(secret, f);
    }
  h.offline = true;
  Hub offline(h);
  HubRepo r = offline.repo(test::kAwqRepo, "main");
  try {
    std::string text = offline.small_file(r, "config.json", 1 << 20, "config.json");
    CHECK(text.find("SECRET") == std::string::npos);
    FAIL("read through the link");
  } catch (const UsageError& e) {
    CHECK_THAT(e.what(), Contains("not in the cache"));
    CHECK_THAT(e.what(), !Contains("SECRET"));
  }
}

TEST_CASE("hub cache: the folder is created 0700, and one others may write or another user owns is not used", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  struct stat st {};
  REQUIRE(::stat(h.cache_dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  for (const auto& f : cache_entries(h.cache_dir)) {
    REQUIRE(::stat(f.parent_path().c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
  }

  test::TempDir w;
  HubSettings open = test::hub_settings(c.s, w);
  fs::create_directories(open.cache_dir);
  ::chmod(open.cache_dir.c_str(), 0777);
  std::string why;
  CHECK(!HubCache(open.cache_dir, open.endpoint).enabled(&why));
  CHECK_THAT(why, Contains(open.cache_dir) && Contains("others may write to it") && Contains("not using it"));
  {
    Hub hub(open);
    read_every_kind(hub);  // still answers, uncached
    CHECK(hub.requests() > 0);
  }
  CHECK(cache_entries(open.cache_dir).empty());
  if (::geteuid() == 0) {  // only root can hand the folder to another user
    ::chmod(open.cache_dir.c_str(), 0700);
    REQUIRE(::chown(open.cache_dir.c_str(), 65534, 65534) == 0);
    CHECK(!HubCache(open.cache_dir, open.endpoint).enabled(&why));
    CHECK_THAT(why, Contains("owned by user 65534"));
  }
  // A link as the cache folder itself is not followed either.
  test::TempDir l;
  fs::create_symlink(c.d.path() / "cache", l.path() / "cache");
  CHECK(!HubCache((l.path() / "cache").string(), h.endpoint).enabled(&why));
  CHECK_THAT(why, Contains("a symbolic link"));
}

TEST_CASE("hub cache: a malformed entry is a miss, repaired, never an internal error (M4)", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  const std::vector<std::string> lists = {R"({"fetched": "x", "etag": "", "listing": {}})", R"({"fetched": 1, "etag": 7, "listing": []})",
                                          R"({"fetched": 99999999999, "listing": {"sha": "zz", "siblings": []}})", "[]", "{", ""};
  const std::vector<std::string> metas = {R"({"size": "abc", "complete": true})", R"({"size": -1})", R"({"complete": "yes", "size": 5})",
                                          R"({"size": 1e300})", "null"};
  for (std::size_t i = 0; i < std::max(lists.size(), metas.size()); ++i) {
    for (const auto& f : cache_entries(h.cache_dir)) {
      std::string name = f.filename().string();
      if (name == "main.json") overwrite_entry(f, lists[i % lists.size()]);
      else if (name.ends_with("meta.json")) overwrite_entry(f, metas[i % metas.size()]);
    }
    INFO(lists[i % lists.size()] << " / " << metas[i % metas.size()]);
    Hub again(h);
    REQUIRE_NOTHROW(read_every_kind(again));
    CHECK(again.requests() > 0);
    Hub repaired(h);
    read_every_kind(repaired);
    CHECK(repaired.requests() == 0);  // every entry written anew
  }
  // A time in the future is not fresh: a branch's list is asked again.
  for (const auto& f : cache_entries(h.cache_dir))
    if (f.filename() == "main.json") {
      auto j = nlohmann::json::parse(cache_text(f));
      j["fetched"] = 99999999999LL;
      overwrite_entry(f, j.dump());
    }
  Hub future(h);
  future.repo(test::kAwqRepo, "main");
  CHECK(future.requests() == 1);
}

TEST_CASE("hub cache: http and https, and two path prefixes of one host, never share an entry", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  h.offline = true;
  REQUIRE_NOTHROW(Hub(h).repo(test::kAwqRepo, "main"));
  for (std::string other : {"https" + h.endpoint.substr(4), h.endpoint + "/mirror"}) {
    INFO(other);
    HubSettings o = h;
    o.endpoint = other;
    CHECK_THROWS_WITH(Hub(o).repo(test::kAwqRepo, "main"), Contains("not in the cache"));
  }
}

TEST_CASE("hub cache: the entry readers take only what qsel writes", "[model][hub][cache]") {
  std::string why;
  auto l = parse_listing_entry(R"({"fetched": 1700000000, "etag": "\"abc\"", "listing": {"sha": "x"}})", &why);
  REQUIRE(l);
  CHECK(l->fetched == 1700000000);
  CHECK(l->etag == "\"abc\"");
  CHECK(!parse_listing_entry(R"({"fetched": "x", "listing": {}})", &why));
  CHECK_THAT(why, Contains("fetched"));
  CHECK(!parse_listing_entry(R"({"fetched": 1, "etag": "\"a\r\nX: 1\"", "listing": {}})", &why));  // a validator qsel would send
  CHECK_THAT(why, Contains("etag"));
  CHECK(!parse_listing_entry(std::string(100, '[') + std::string(100, ']'), &why));
  auto m = parse_file_meta(R"({"size": 123, "complete": true, "etag": "W/\"x\""})", &why);
  REQUIRE(m);
  CHECK(m->size == 123);
  CHECK(m->complete);
  CHECK(!parse_file_meta(R"({"size": "abc"})", &why));
  CHECK(!parse_file_meta(R"({"size": 1.5})", &why));
  CHECK(!parse_file_meta(R"({"size": 5, "complete": 1})", &why));
  CHECK(parse_file_meta(file_meta_text(*m), &why)->etag == "W/\"x\"");
  CHECK(valid_etag("\"abc\""));
  CHECK(valid_etag("W/\"abc\""));
  CHECK(!valid_etag("\"a\rb\""));
  CHECK(!valid_etag("abc"));
  CHECK(!valid_etag(""));
}

TEST_CASE("hub cache: an entry a crash left empty or cut short (entries are not flushed one by one) is read again", "[model][hub][cache]") {
  FilledCache c;
  HubSettings& h = c.h;
  std::string shard;
  for (const auto& f : cache_entries(h.cache_dir))
    if (f.filename() == "model-00001-of-00002.safetensors") shard = cache_text(f);
  REQUIRE(shard.size() > 8);
  for (std::size_t keep : {std::size_t(0), std::size_t(5), shard.size() / 2}) {
    bool bytes_only = keep > 5;  // the metadata intact, the bytes cut short: the start kept is read on from
    INFO("entries cut to " << keep << " bytes" << (bytes_only ? " (the bytes, not their metadata)" : ""));
    for (const auto& f : cache_entries(h.cache_dir)) {
      if (bytes_only && (f.filename().string().ends_with("@meta.json") || f.filename() == "main.json")) continue;
      std::string text = cache_text(f);
      overwrite_entry(f, text.substr(0, std::min(keep, text.size())));
    }
    Hub again(h);
    read_every_kind(again);
    HubRepo r = again.repo(test::kAwqRepo, "main");
    auto f = again.open(r, *r.find("model-00001-of-00002.safetensors"));
    std::string head(shard.size(), '\0');
    REQUIRE(f->read_at(0, head.data(), head.size()));
    CHECK(head == shard);  // the kept start and what was read on from it are the file's own bytes
    CHECK(again.requests() > 0);
  }
}
