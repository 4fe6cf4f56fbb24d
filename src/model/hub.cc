// The Hub client: a repository's file list, small files whole, headers by
// Range, and the cache that makes a second question free. Each answer the Hub
// gives that is not a file (401, 403, 404, a gated repository) becomes one line
// that says what to do.
#include "qsel/model/hub.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/core/citation.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/model/hub_cache.h"
#include "qsel/net/url.h"

namespace qsel {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kMaxListing = 32 << 20;        // the file list of a repository with thousands of files
constexpr std::size_t kMaxFiles = 100000;
constexpr std::uint64_t kFirstRange = 256 << 10;     // most safetensors headers fit; a GGUF header grows from here
constexpr std::uint64_t kHeaderBudget = 128ull << 20;  // what qsel reads of one remote file (safetensors allows 100 MB)
// Files whose first Range is read ahead together: the shards qsel reads over the
// network (ReadLimits::remote), so at most 1,024 x 256 KiB ahead of the readers.
constexpr std::size_t kMaxPrefetch = 1024;
constexpr std::size_t kConnections = 8;

long now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string human_bytes(std::uint64_t b) {
  if (b >= (1ull << 30)) return fmt::format("{:.1f} GiB", b / double(1ull << 30));
  if (b >= (1ull << 20)) return fmt::format("{:.1f} MiB", b / double(1ull << 20));
  return fmt::format("{} KiB", (b + 1023) / 1024);
}

// The ETag of an answer when it is one qsel may keep and send back; else none.
std::string etag_of(const HttpResponse& r) {
  std::string e = r.header("etag");
  return valid_etag(e) ? e : std::string();
}

}  // namespace

struct Hub::Impl {
  Hub& hub;
  HubCache cache;
  Clock::time_point deadline;

  explicit Impl(Hub& h)
      : hub(h), cache(h.settings_.cache_dir, h.settings_.endpoint), deadline(Clock::now() + std::chrono::seconds(h.settings_.deadline_s)) {
    std::string why;
    if (!s().cache_dir.empty() && !cache.enabled(&why)) spdlog::warn("{}", why);
  }

  const HubSettings& s() const { return hub.settings_; }
  void hit() { hub.cache_hits_++; }

  [[noreturn]] void offline_miss(const std::string& what) const {
    std::string why;
    if (s().cache_dir.empty()) throw UsageError(fmt::format("{}: offline, and no cache folder (set XDG_CACHE_HOME or HOME)", what));
    if (!cache.enabled(&why)) throw UsageError(fmt::format("{}: offline, and the {}", what, why));
    throw UsageError(fmt::format("{}: not in the cache ({}) and offline (--offline or HF_HUB_OFFLINE); run it once online first", what,
                                 s().cache_dir));
  }

  // ---- requests -----------------------------------------------------------
  // Credentials go to the Hub only.
  HttpRequest authorised(HttpRequest rq) const {
    if (same_origin(rq.url, s().endpoint)) {
      if (!s().token_problem.empty()) throw UsageError(s().token_problem);
      if (!s().token.empty()) rq.bearer = s().token;
      else if (rq.user.empty() && rq.password.empty()) rq.user = s().user, rq.password = s().password;
    }
    return rq;
  }

  HttpOptions options() const {
    HttpOptions o = s().http;
    o.deadline = deadline;
    o.deadline_s = s().deadline_s;
    return o;
  }

  bool draw_progress() const { return s().progress && isatty(STDERR_FILENO); }

  // First Ranges read ahead by prefetch(), by URL and range, until a reader asks for them.
  struct Ahead {
    std::optional<HttpResponse> response;
    std::exception_ptr error;
  };
  std::map<std::tuple<std::string, std::uint64_t, std::uint64_t>, Ahead> ahead;

  HttpResponse get(HttpRequest rq, const std::string& label) {
    if (rq.range && rq.if_range.empty() && rq.if_none_match.empty() && !ahead.empty())
      if (auto it = ahead.find({rq.url, rq.range->first, rq.range->second}); it != ahead.end()) {
        Ahead a = std::move(it->second);
        ahead.erase(it);
        if (a.error) std::rethrow_exception(a.error);
        return std::move(*a.response);
      }
    rq = authorised(std::move(rq));
    HttpOptions o = options();
    if (draw_progress())
      o.progress = [label](std::uint64_t got, std::uint64_t total, bool done) {
        if (done) std::fputs("\r\033[K", stderr);
        else std::fprintf(stderr, "\r\033[Kqsel: reading %s … %s%s", printable(label).c_str(), human_bytes(got).c_str(),
                          total ? (" of " + human_bytes(total)).c_str() : "");
        std::fflush(stderr);
      };
    hub.requests_++;
    return http_get(rq, o);
  }

  [[noreturn]] void fail(const HttpResponse& r, const std::string& repo, const std::string& what) const {
    std::string code = r.header("x-error-code");
    std::string page = s().endpoint + "/" + repo;
    if (code == "GatedRepo" || ((r.status == 401 || r.status == 403) && to_lower(r.body).find("gated") != std::string::npos)) {
      if (s().token.empty())
        throw UsageError(fmt::format("{}: gated: accept the licence on the model page ({}) and set HF_TOKEN", repo, page));
      throw UsageError(fmt::format("{}: gated, and the token from {} has no access to it yet: accept the licence on the model page ({})",
                                   repo, s().token_from, page));
    }
    if (r.status == 401 || r.status == 403 || code == "RepoNotFound") {
      if (s().token.empty())
        throw UsageError(fmt::format("{}: no such model repository on {}, or a private one (set HF_TOKEN if it is yours)", repo, s().endpoint));
      throw UsageError(fmt::format("{}: no such model repository on {}, or the token from {} has no access to it", repo, s().endpoint,
                                   s().token_from));
    }
    if (code == "RevisionNotFound") throw UsageError(fmt::format("{}: no revision named in {}", repo, quote_value(what)));
    if (r.status == 404 && code == "EntryNotFound") throw UsageError(fmt::format("{}: no file {} in the repository", repo, quote_value(what)));
    if (r.status == 404) throw UsageError(fmt::format("{}: not found on {} ({})", repo, s().endpoint, quote_value(what)));
    throw UsageError(fmt::format("{}: HTTP {} while reading {}", repo, r.status, quote_value(what)));
  }

  // ---- the file list --------------------------------------------------------
  static HubRepo parse_listing(const std::string& repo, const std::string& rev, const json& j, const std::string& where) {
    HubRepo r;
    r.repo = repo;
    r.revision = rev;
    if (!j.is_object() || !j.contains("sha") || !j["sha"].is_string() || !is_commit(j["sha"].get<std::string>()))
      throw UsageError(fmt::format("{}: expected the model's commit (\"sha\": 40 hex digits) in the answer", where));
    r.sha = j["sha"].get<std::string>();
    if (j.contains("gated") && j["gated"].is_string()) r.gated = j["gated"].get<std::string>().substr(0, 20);
    if (!j.contains("siblings") || !j["siblings"].is_array()) throw UsageError(fmt::format("{}: expected a \"siblings\" list of files", where));
    for (const auto& f : j["siblings"]) {
      if (r.files.size() >= kMaxFiles) throw UsageError(fmt::format("{}: more than {} files in the repository", where, kMaxFiles));
      if (!f.is_object() || !f.contains("rfilename") || !f["rfilename"].is_string()) continue;
      HubFile hf;
      hf.path = f["rfilename"].get<std::string>();
      if (hf.path.empty() || hf.path.size() > 1000 || hf.path.front() == '/' || hf.path.find("..") != std::string::npos ||
          hf.path.find('\0') != std::string::npos)
        continue;  // never a path that could climb out of the cache folder
      const json* size = f.contains("lfs") && f["lfs"].is_object() && f["lfs"].contains("size") ? &f["lfs"]["size"]
                         : f.contains("size") ? &f["size"] : nullptr;
      if (size && size->is_number_unsigned()) hf.size = size->get<std::uint64_t>();
      r.files.push_back(std::move(hf));
    }
    // Sorted by path, each once: find() is a binary search, not a scan per name.
    std::stable_sort(r.files.begin(), r.files.end(), [](const HubFile& a, const HubFile& b) { return a.path < b.path; });
    r.files.erase(std::unique(r.files.begin(), r.files.end(), [](const HubFile& a, const HubFile& b) { return a.path == b.path; }), r.files.end());
    return r;
  }

  // The cached list, when it is one qsel wrote for this repository.
  std::optional<HubRepo> cached_repo(const HubCache::Path& path, const std::string& repo, const std::string& rev, long* fetched,
                                     std::string* etag) const {
    auto entry = cache.listing(path);
    if (!entry) return std::nullopt;
    try {
      HubRepo r = parse_listing(repo, rev, entry->listing, "the cached file list");
      r.from_cache = true;
      *fetched = entry->fetched;
      *etag = entry->etag;
      return r;
    } catch (const UsageError& e) {
      cache.not_used(path, e.what());
      return std::nullopt;
    }
  }

  void keep_listing(const HubCache::Path& path, const HubRepo& r, const std::string& etag) const {
    json keep = {{"sha", r.sha}, {"gated", r.gated}, {"siblings", json::array()}};
    for (const auto& f : r.files) keep["siblings"].push_back({{"rfilename", f.path}, {"size", f.size}});
    cache.put(path, listing_entry_text({now_s(), etag, std::move(keep)}));
  }

  HubRepo repo(const std::string& repo, const std::string& rev) {
    HubCache::Path path = cache.listing_path(repo, rev);
    long fetched = 0;
    std::string etag;
    std::optional<HubRepo> cached = cached_repo(path, repo, rev, &fetched, &etag);
    std::string label = fmt::format("{}@{}", repo, rev);
    long age = now_s() - fetched;  // a time in the future is not fresh
    if (cached && (s().offline || is_commit(rev) || (age >= 0 && age < s().fresh_s))) {
      hit();
      return *cached;
    }
    if (s().offline) offline_miss(label);
    HttpRequest rq;
    std::string revision;  // one path segment: a revision with '/' (refs/pr/1) travels as refs%2Fpr%2F1
    for (char c : uri_encode(rev)) revision += c == '/' ? std::string("%2F") : std::string(1, c);
    rq.url = fmt::format("{}/api/models/{}/revision/{}?blobs=true", s().endpoint, uri_encode(repo), revision);
    rq.max_bytes = kMaxListing;
    if (cached) rq.if_none_match = etag;
    HttpResponse resp = get(rq, label + " (file list)");
    if (resp.status == 304 && cached) {
      keep_listing(path, *cached, etag);
      hit();
      return *cached;
    }
    if (resp.status != 200) fail(resp, repo, rev);
    HubRepo r = hub_repo_from_listing(resp.body, repo, rev, rq.url);
    keep_listing(path, r, etag_of(resp));
    spdlog::info("hub: {} is commit {} ({} files)", label, r.sha.substr(0, 12), r.files.size());
    return r;
  }

  // ---- files --------------------------------------------------------------
  // The first Range of each file a reader will open (what RemoteFile's first
  // read asks for), asked for all at once, at most 8 at a time; kept for get().
  // A file the cache holds is not asked for; an error waits for the reader of
  // its file, so what fails first in the files' order is what is reported.
  void prefetch(const HubRepo& r, const std::vector<std::string>& files) {
    if (s().offline || files.size() < 2 || files.size() > kMaxPrefetch) return;
    std::vector<HttpRequest> rqs;
    std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t>> keys;
    for (const auto& name : files) {
      const HubFile* f = r.find(name);
      if (!f || (f->size > 0 && f->size < 8)) continue;  // not opened, or too short to hold a header length
      HubCache::Path blob = cache.file_path(r.repo, r.sha, f->path);
      if (auto meta = cache.meta(HubCache::meta_of(blob)); meta && meta->size > 0 && (f->size == 0 || f->size == meta->size)) continue;
      HttpRequest rq;
      rq.url = hub.file_url(r, f->path);
      rq.range = {0, (f->size > 0 ? std::min(kFirstRange, f->size) : kFirstRange) - 1};
      rq.max_bytes = static_cast<std::size_t>(kHeaderBudget);
      std::tuple<std::string, std::uint64_t, std::uint64_t> key{rq.url, rq.range->first, rq.range->second};
      if (ahead.count(key) || std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      rqs.push_back(authorised(std::move(rq)));
      keys.push_back(std::move(key));
    }
    if (rqs.size() < 2) return;
    HttpManyProgress progress;
    auto started = Clock::now();
    auto drawn = started - std::chrono::seconds(1);
    bool drew = false;
    if (draw_progress())
      progress = [&](std::size_t done, std::size_t total, std::uint64_t bytes) {
        auto now = Clock::now();
        if (done < total && now - drawn < std::chrono::milliseconds(100)) return;
        drawn = now;
        drew = true;
        std::fprintf(stderr, "\r\033[Kqsel: reading headers: %zu/%zu files, %s, %.1f s", done, total, human_bytes(bytes).c_str(),
                     std::chrono::duration<double>(now - started).count());
        std::fflush(stderr);
      };
    hub.requests_ += static_cast<int>(rqs.size());
    std::vector<HttpResult> got;
    try {
      got = http_get_many(rqs, options(), kConnections, progress);
    } catch (...) {
      if (drew) std::fputs("\r\033[K", stderr);
      throw;
    }
    if (drew) {
      std::fputs("\r\033[K", stderr);
      std::fflush(stderr);
    }
    spdlog::info("hub: {}: the first {} of {} files read ahead in {} ms", r.repo, human_bytes(kFirstRange), rqs.size(),
                 std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count());
    for (std::size_t i = 0; i < got.size(); ++i) ahead[keys[i]] = Ahead{std::move(got[i].response), got[i].error};
  }

  std::string small_file(const HubRepo& r, const std::string& path, std::size_t cap) {
    HubCache::Path blob = cache.file_path(r.repo, r.sha, path);
    if (auto meta = cache.meta(HubCache::meta_of(blob)); meta && meta->complete)
      if (auto text = cache.bytes(blob, cap); text && text->size() == meta->size) {
        hit();
        return *text;
      }
    std::string label = fmt::format("{}/{}", r.repo, path);
    if (s().offline) offline_miss(label);
    HttpRequest rq;
    rq.url = hub.file_url(r, path);
    rq.max_bytes = cap;
    HttpResponse resp = get(rq, label);
    if (resp.status != 200) fail(resp, r.repo, path);
    cache.put(blob, resp.body);
    cache.put(HubCache::meta_of(blob), file_meta_text({resp.body.size(), true, etag_of(resp)}));
    return resp.body;
  }
};

namespace {

// A file on a server read from its start by Range, as far as a reader asks.
// What was read is kept in the cache beside its size and ETag, so the next
// reader of the same header makes no request. Every Range after the first asks
// for the version already read (If-Range) and checks the answer's ETag: a file
// that changes between reads is an error, never stitched into one.
class RemoteFile final : public ByteSource {
 public:
  RemoteFile(Hub::Impl& impl, std::string url, std::string name, HubCache::Path cache, std::string repo, std::uint64_t size,
             std::string user = "", std::string password = "")
      : impl_(impl), url_(std::move(url)), name_(std::move(name)), cache_(std::move(cache)), repo_(std::move(repo)),
        user_(std::move(user)), password_(std::move(password)), size_(size) {
    if (auto meta = impl_.cache.meta(HubCache::meta_of(cache_)); meta && meta->size > 0 && (size_ == 0 || size_ == meta->size))
      if (auto bytes = impl_.cache.bytes(cache_, kHeaderBudget)) {
        size_ = meta->size;
        prefix_ = std::move(*bytes);
        if (prefix_.size() > size_) prefix_.resize(static_cast<std::size_t>(size_));
        etag_ = meta->etag;
        from_cache_ = true;
        impl_.hit();
      }
    if (size_ == 0) grow(std::min<std::uint64_t>(kFirstRange, kHeaderBudget));  // learns the size from Content-Range
  }

  const std::string& path() const override { return name_; }
  std::uint64_t size() const override { return size_; }
  bool read_at(std::uint64_t offset, void* out, std::size_t n) const override {
    if (offset > size_ || n > size_ - offset) return false;
    if (offset + n > prefix_.size()) grow(offset + n);
    std::memcpy(out, prefix_.data() + offset, n);
    return true;
  }

 private:
  void grow(std::uint64_t end) const {
    if (impl_.s().offline) impl_.offline_miss(prefix_.empty() ? name_ : fmt::format("{} (bytes {} to {})", name_, prefix_.size(), end));
    std::uint64_t want = std::max<std::uint64_t>({end, prefix_.size() * 2, kFirstRange});
    if (size_ > 0) want = std::min(want, size_);
    if (want > kHeaderBudget)
      throw UsageError(fmt::format("{}: byte {}: the header runs past the {} qsel reads of a remote file", name_, end, human_bytes(kHeaderBudget)));
    HttpRequest rq;
    rq.url = url_;
    rq.user = user_;
    rq.password = password_;
    rq.range = {prefix_.size(), want - 1};
    rq.max_bytes = static_cast<std::size_t>(kHeaderBudget);
    if (!prefix_.empty() && !etag_.starts_with("W/")) rq.if_range = etag_;  // a weak ETag cannot ask for a Range (RFC 9110)
    HttpResponse r = impl_.get(rq, name_);
    if (r.status == 416) throw UsageError(fmt::format("{}: the server says bytes {}+ are outside the file", name_, prefix_.size()));
    if (r.status != 206 && r.status != 200) impl_.fail(r, repo_, name_);
    std::string etag = etag_of(r);
    bool changed = !prefix_.empty() && ((!etag_.empty() && etag != etag_) || (seen_total_ > 0 && r.total_size > 0 && r.total_size != seen_total_));
    if (changed && from_cache_ && !live_) {  // the kept start is an older version's: read it again from its start
      spdlog::info("cache: {}: the file changed since its start was kept; reading it again", name_);
      prefix_.clear();
      etag_.clear();
      from_cache_ = false;
      return grow(end);
    }
    if (changed)
      throw UsageError(fmt::format("{}: the file changed while qsel read it (ETag {} became {}); try again", name_,
                                   etag_.empty() ? "none" : etag_, etag.empty() ? "none" : etag));
    live_ = true;
    if (etag_.empty()) etag_ = etag;
    if (r.total_size > 0) seen_total_ = r.total_size;
    if (size_ == 0) {
      if (r.total_size == 0) throw UsageError(fmt::format("{}: the server does not say how large the file is", name_));
      size_ = r.total_size;
      want = std::min(want, size_);
    }
    std::uint64_t expect = want - prefix_.size();
    if (r.body.size() < expect)
      throw UsageError(fmt::format("{}: asked for bytes {} to {}, the server sent {} bytes", name_, prefix_.size(), want - 1, r.body.size()));
    prefix_.append(r.body, 0, static_cast<std::size_t>(expect));
    impl_.cache.put(cache_, prefix_);
    impl_.cache.put(HubCache::meta_of(cache_), file_meta_text({size_, prefix_.size() == size_, etag_}));
  }

  Hub::Impl& impl_;
  std::string url_, name_;
  HubCache::Path cache_;
  std::string repo_;
  std::string user_, password_;
  mutable std::uint64_t size_;
  mutable std::string prefix_;
  mutable std::string etag_;             // the version read so far
  mutable std::uint64_t seen_total_ = 0; // the whole size the server last gave
  mutable bool from_cache_ = false, live_ = false;
};

}  // namespace

HubRepo hub_repo_from_listing(const std::string& text, const std::string& repo, const std::string& rev, const std::string& where) {
  if (json_nesting(text) > kMaxJsonNesting) throw UsageError(fmt::format("{}: the file list nests deeper than {} levels", where, kMaxJsonNesting));
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw UsageError(fmt::format("{}: byte {}: the file list is not JSON", where, e.byte));
  } catch (const json::exception&) {
    throw UsageError(fmt::format("{}: the file list is not JSON", where));
  }
  return Hub::Impl::parse_listing(repo, rev, j, where);
}

const HubFile* HubRepo::find(const std::string& path) const {
  auto it = std::lower_bound(files.begin(), files.end(), path, [](const HubFile& f, const std::string& p) { return f.path < p; });
  return it != files.end() && it->path == path ? &*it : nullptr;
}

Hub::Hub(HubSettings settings) : settings_(std::move(settings)), impl_(std::make_unique<Impl>(*this)) {}
Hub::~Hub() = default;

HubRepo Hub::repo(const std::string& repo, const std::string& revision) { return impl_->repo(repo, revision); }

std::string Hub::file_url(const HubRepo& r, const std::string& path) const {
  return fmt::format("{}/{}/resolve/{}/{}", settings_.endpoint, uri_encode(r.repo), r.sha, uri_encode(path));
}

std::string Hub::small_file(const HubRepo& r, const std::string& path, std::size_t cap, std::string_view) {
  return impl_->small_file(r, path, cap);
}

void Hub::prefetch(const HubRepo& r, const std::vector<std::string>& files) { impl_->prefetch(r, files); }

std::unique_ptr<ByteSource> Hub::open(const HubRepo& r, const HubFile& f) {
  return std::make_unique<RemoteFile>(*impl_, file_url(r, f.path), fmt::format("{}/{}", r.repo, f.path), impl_->cache.file_path(r.repo, r.sha, f.path),
                                      r.repo, f.size);
}

std::unique_ptr<ByteSource> Hub::open_url(const std::string& url, const std::string& user, const std::string& password) {
  std::string shown = redact_url(url);  // the URL's own user:password@ still authenticates (http_get keeps it apart)
  std::string u = user, p = password;
  if (auto parsed = parse_url(url); parsed && u.empty() && p.empty()) u = parsed->user, p = parsed->password;
  return std::make_unique<RemoteFile>(*impl_, shown, shown, HubCache::url_path(shown), url_host(shown), 0, u, p);
}

// ---- the repository as a FileTree ----------------------------------------------

std::string HubTree::root() const { return fmt::format("{}@{}", repo_.repo, repo_.revision); }
std::string HubTree::name(const std::string& file) const { return fmt::format("{}/{}", repo_.repo, file); }
bool HubTree::has(const std::string& file) const { return repo_.find(file) != nullptr; }

std::vector<std::string> HubTree::files_with_ext(std::string_view ext) const {
  std::vector<std::string> out;
  for (const auto& f : repo_.files)
    if (f.path.find('/') == std::string::npos && f.path.size() > ext.size() && f.path.ends_with(ext)) out.push_back(f.path);
  std::sort(out.begin(), out.end());
  return out;
}

std::string HubTree::read_text(const std::string& file, std::size_t cap, std::string_view what) const {
  if (const HubFile* f = repo_.find(file); f && f->size > cap)
    throw UsageError(fmt::format("{}: file is {} bytes; a {} may be at most {} bytes", name(file), f->size, what, cap));
  return hub_.small_file(repo_, file, cap, what);
}

void HubTree::prefetch(const std::vector<std::string>& files) const { hub_.prefetch(repo_, files); }

std::unique_ptr<ByteSource> HubTree::open(const std::string& file) const {
  const HubFile* f = repo_.find(file);
  if (!f) throw UsageError(fmt::format("{}: the index names {}, which the repository does not have", root(), quote_value(file)));
  return hub_.open(repo_, *f);
}

// ---- GGUF quantization tags ------------------------------------------------------

namespace {

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// "-00001-of-00003" before ".gguf": a split file's part.
bool split_part(std::string_view stem, std::string_view* rest) {
  constexpr std::size_t n = 15;  // "-00001-of-00003"
  if (stem.size() <= n) return false;
  std::string_view tail = stem.substr(stem.size() - n);
  bool shape = tail[0] == '-' && tail.substr(6, 4) == "-of-";
  for (std::size_t i : {1u, 2u, 3u, 4u, 5u, 10u, 11u, 12u, 13u, 14u}) shape = shape && std::isdigit(static_cast<unsigned char>(tail[i]));
  if (shape) *rest = stem.substr(0, stem.size() - n);
  return shape;
}

std::string stem_of(const std::string& path) { return base_name(gguf_stem(path)); }

}  // namespace

bool is_gguf_path(std::string_view p) { return p.size() > 5 && to_lower(p.substr(p.size() - 5)) == ".gguf"; }

std::string gguf_stem(const std::string& path) {
  std::string_view s(path);
  if (is_gguf_path(s)) s.remove_suffix(5);
  std::string_view rest;
  if (split_part(s, &rest)) s = rest;
  return std::string(s);
}

std::vector<std::string> gguf_stems(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;  // 100,000 names: a scan per name was 35 s
  for (const auto& f : files)
    if (std::string s = gguf_stem(f); seen.insert(s).second) out.push_back(std::move(s));
  return out;
}

std::vector<std::string> gguf_files_for_tag(const HubRepo& r, const std::string& tag) {
  std::string t = to_lower(tag);
  std::vector<std::string> out;
  for (const auto& f : r.files) {
    if (!is_gguf_path(f.path)) continue;
    std::string s = to_lower(stem_of(f.path));
    for (std::size_t at = s.find(t); at != std::string::npos; at = s.find(t, at + 1)) {
      bool left = at == 0 || s[at - 1] == '-' || s[at - 1] == '.' || s[at - 1] == '_';
      bool right = at + t.size() == s.size() || s[at + t.size()] == '-' || s[at + t.size()] == '.';
      if (left && right) {
        out.push_back(f.path);
        break;
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<ListedGguf> listed_gguf(const HubRepo& r, const std::string& tag) {
  std::vector<std::string> files = gguf_files_for_tag(r, tag);  // sorted: a split file's parts in order
  std::map<std::string, std::vector<std::string>> by_stem;
  for (auto& f : files)
    if (to_lower(base_name(f)).find("mmproj") == std::string::npos) by_stem[gguf_stem(f)].push_back(std::move(f));  // not a vision projector
  std::optional<ListedGguf> best;
  for (const auto& [stem, parts] : by_stem) {
    if (printable(stem) != stem) continue;  // never printed into a command line as it is
    ListedGguf g;
    g.path = parts.front();
    g.parts = static_cast<int>(parts.size());
    std::string_view rest, s(g.path);
    s.remove_suffix(5);
    if (split_part(s, &rest)) {  // "-00001-of-00003": every part listed, the first one first
      std::string_view tail = s.substr(rest.size());
      int count = std::atoi(std::string(tail.substr(10)).c_str());
      if (tail.substr(1, 5) != "00001" || count != g.parts) continue;
    } else if (parts.size() != 1) {
      continue;  // one name that is and is not a split file: not one file
    }
    bool sized = true;
    for (const auto& p : parts) {
      const HubFile* f = r.find(p);
      sized = sized && f && f->size > 0;
      if (sized) g.bytes += f->size;
    }
    if (!sized) g.bytes = 0;
    if (!best || base_name(g.path).size() < base_name(best->path).size()) best = std::move(g);
  }
  return best;
}

std::vector<std::string> gguf_tags(const HubRepo& r) {
  std::unordered_set<std::string> tags;
  for (const auto& f : r.files) {
    if (!is_gguf_path(f.path)) continue;
    std::string s = stem_of(f.path);
    std::size_t cut = s.find_last_of("-.");
    std::string tag = cut == std::string::npos ? s : s.substr(cut + 1);
    if (!tag.empty() && tag.size() <= 32) tags.insert(std::move(tag));
  }
  std::vector<std::string> out(tags.begin(), tags.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace qsel
