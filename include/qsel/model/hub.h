// The Hugging Face Hub as a place to read a model's headers from, never its
// weights: a repository's file list (one API call), small JSON files whole, and
// safetensors/GGUF headers by HTTP Range, grown until the header is complete.
// Everything read is kept in a cache under $XDG_CACHE_HOME/qsel keyed by
// endpoint, repository, commit and ETag (model/hub_cache.h), so a second
// identical question is answered without the network; --offline (or
// HF_HUB_OFFLINE=1) reads only the cache. One Hub is one command: every request
// it makes ends within HubSettings::deadline_s of its construction.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/artifact/checkpoint.h"
#include "qsel/net/http.h"

namespace qsel {

struct HubSettings {
  std::string endpoint = "https://huggingface.co";  // HF_ENDPOINT, without user:password@ (shown, keyed by)
  std::string user, password;                        // HF_ENDPOINT's user:password@: sent to the endpoint only, never printed
  std::string token;                                 // HF_TOKEN or the token file; never printed
  std::string token_from;                            // "HF_TOKEN" or the token file's path (for messages)
  std::string token_problem;                         // why the token file could not be read: the first request to the Hub fails with it
  bool offline = false;                              // --offline or HF_HUB_OFFLINE=1: the cache only
  std::string cache_dir;                             // $XDG_CACHE_HOME/qsel (QSEL_CACHE_DIR); empty = no cache
  long fresh_s = 24 * 3600;                          // a branch's file list is reused this long before asking again
  bool progress = false;                             // a progress line on stderr for slow requests
  long deadline_s = 180;                             // everything one command asks the network, retries and waits included
  HttpOptions http;
};

// The settings from the environment (HF_ENDPOINT, HF_TOKEN, HF_TOKEN_PATH,
// HF_HOME, HF_HUB_OFFLINE, HF_HUB_DOWNLOAD_TIMEOUT, HF_HUB_ETAG_TIMEOUT,
// XDG_CACHE_HOME, QSEL_CACHE_DIR, HOME) and the two flags. A malformed
// variable is a UsageError naming it.
HubSettings hub_settings_from_environment(bool offline_flag, bool show_progress);

// A model named the way the Hub names it.
struct HubRef {
  std::string repo;                // "Qwen/Qwen3-32B-AWQ"
  std::string revision = "main";   // a branch, tag or commit
  bool revision_given = false;     // "@rev" or a URL's revision
  std::string file;                // one file in the repo (a URL's path): empty for the whole repo
  std::string tag;                 // a GGUF quantization tag after ':' ("Q4_K_M")
  std::string url;                 // a URL outside the Hub (a .gguf anywhere), read as one file: without user:password@
  std::string user, password;      // a URL's user:password@: they authenticate its requests and are never shown
  std::string display() const;     // "Qwen/Qwen3-32B-AWQ@main:Q4_K_M"
};

// ORG/NAME[@REVISION][:TAG], hf://ORG/NAME…, https://<endpoint>/ORG/NAME[/(resolve|blob|tree)/REV[/PATH]],
// or any http(s) URL of a .gguf file. nullopt when `name` has none of those
// shapes; a UsageError when it has one but a part is malformed.
std::optional<HubRef> parse_hub_ref(std::string_view name, const std::string& endpoint);

struct HubFile {
  std::string path;
  std::uint64_t size = 0;  // 0 when the listing did not say
};

struct HubRepo {
  std::string repo, revision, sha;  // sha: the commit the revision pointed at
  std::string gated;                // "", "auto" or "manual"
  std::vector<HubFile> files;  // sorted by path, each once
  bool from_cache = false;
  const HubFile* find(const std::string& path) const;  // a binary search
};

// The Hub's answer to /api/models/{repo}/revision/{rev} (JSON text) as a file
// list, sorted by path, each path once; a UsageError naming `where` when it is
// not one. Paths that could climb out of a folder are dropped.
HubRepo hub_repo_from_listing(const std::string& text, const std::string& repo, const std::string& revision, const std::string& where);

class Hub {
 public:
  explicit Hub(HubSettings settings);
  ~Hub();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  const HubSettings& settings() const { return settings_; }
  // The repository's files at `revision` (cached; a branch is asked again after fresh_s).
  HubRepo repo(const std::string& repo, const std::string& revision);
  // A file read whole (config.json, an index), at most `cap` bytes.
  std::string small_file(const HubRepo& r, const std::string& path, std::size_t cap, std::string_view what);
  // A file read by Range from its start, as far as a header reader asks.
  std::unique_ptr<ByteSource> open(const HubRepo& r, const HubFile& f);
  // The first Range open() will ask of each file (2 to 1,024 of them), asked for
  // together over at most 8 connections, with one progress line on a terminal
  // ("reading headers: 37/104 files, 2.1 MiB, 1.4 s"); the readers then take
  // them in their own order. Files the cache holds are not asked for; a file's
  // error is reported when it is opened and read.
  void prefetch(const HubRepo& r, const std::vector<std::string>& files);
  // A file outside the Hub (a GGUF URL), read by Range; `user`/`password` (or the URL's own
  // user:password@) authenticate it, and its name, messages and cache key never hold them.
  std::unique_ptr<ByteSource> open_url(const std::string& url, const std::string& user = "", const std::string& password = "");

  int requests() const { return requests_; }           // HTTP requests made so far
  int cache_hits() const { return cache_hits_; }       // reads answered by the cache
  std::string file_url(const HubRepo& r, const std::string& path) const;

  struct Impl;

 private:
  HubSettings settings_;
  int requests_ = 0, cache_hits_ = 0;
  std::unique_ptr<Impl> impl_;
  friend struct Impl;
};

// A repository as a FileTree (artifact/checkpoint.h): what read_checkpoint_tree reads.
class HubTree final : public FileTree {
 public:
  HubTree(Hub& hub, HubRepo repo) : hub_(hub), repo_(std::move(repo)) {}
  std::string root() const override;
  std::string name(const std::string& file) const override;
  bool has(const std::string& file) const override;
  std::vector<std::string> files_with_ext(std::string_view ext) const override;
  std::string read_text(const std::string& file, std::size_t cap, std::string_view what) const override;
  std::unique_ptr<ByteSource> open(const std::string& file) const override;
  void prefetch(const std::vector<std::string>& files) const override;
  const HubRepo& repo() const { return repo_; }

 private:
  Hub& hub_;
  HubRepo repo_;
};

// The GGUF files of a repository that a quantization tag names ("Q4_K_M"
// matches "Llama-3.1-8B-Instruct-Q4_K_M.gguf" and the parts of a split file),
// case-insensitively, whole words only. Empty when none.
std::vector<std::string> gguf_files_for_tag(const HubRepo& r, const std::string& tag);
// True for a path ending ".gguf" (any case).
bool is_gguf_path(std::string_view path);
// A GGUF path without ".gguf" and without a split part's "-00001-of-00003":
// the parts of one split file share it ("Q2_K/m-Q2_K").
std::string gguf_stem(const std::string& path);
// The distinct stems of `files`, in order: more than one means several files, not one split file.
std::vector<std::string> gguf_stems(const std::vector<std::string>& files);
// Every quantization tag the repository's GGUF files carry ("Q4_K_M", "Q8_0").
std::vector<std::string> gguf_tags(const HubRepo& r);

// The one GGUF file a listing holds for a quantization tag, as llama.cpp loads it.
struct ListedGguf {
  std::string path;         // "Q2_K/m-Q2_K-00001-of-00002.gguf": a split file's first part
  std::uint64_t bytes = 0;  // every part summed; 0 when the listing did not give every size
  int parts = 1;
};
// The file (all parts of one split file) the listing holds for `tag` (gguf_files_for_tag):
// when several carry it ("m-Q4_K_M.gguf", "m-UD-Q4_K_M.gguf"), the shortest name, then the
// first. Nothing when no file carries it, when a split file lacks a part (-m needs them all,
// the first one named), or when the name is not printable as it is (control characters,
// bidirectional controls, bytes that are not UTF-8: printable() would change it).
std::optional<ListedGguf> listed_gguf(const HubRepo& r, const std::string& tag);

}  // namespace qsel
