// The Hub client against the loopback Hub: names, file lists, headers by
// Range, the cache (a second question makes no request), offline, and the
// Hub's refusals as one line that says what to do.
#include <catch2/catch.hpp>

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "qsel/artifact/gguf.h"
#include "qsel/artifact/safetensors.h"
#include "qsel/core/errors.h"
#include "qsel/model/hub.h"
#include "qsel/model/resolve.h"
#include "support/checkpoints.h"
#include "support/hub_fixtures.h"

using namespace qsel;
using Catch::Contains;

using test::hub_settings;

TEST_CASE("hub: the ways to name a model on the Hub", "[model][hub]") {
  const std::string ep = "https://huggingface.co";
  auto r = parse_hub_ref("Qwen/Qwen3-32B-AWQ", ep);
  REQUIRE(r);
  CHECK(r->repo == "Qwen/Qwen3-32B-AWQ");
  CHECK(r->revision == "main");
  CHECK(!r->revision_given);
  r = parse_hub_ref("unsloth/Llama-3.1-8B-Instruct-GGUF@refs/pr/1:Q4_K_M", ep);
  REQUIRE(r);
  CHECK(r->revision == "refs/pr/1");
  CHECK(r->tag == "Q4_K_M");
  CHECK(r->display() == "unsloth/Llama-3.1-8B-Instruct-GGUF@refs/pr/1:Q4_K_M");
  r = parse_hub_ref("https://huggingface.co/bartowski/Qwen-GGUF/blob/main/sub/Qwen-Q8_0.gguf?download=true", ep);
  REQUIRE(r);
  CHECK(r->repo == "bartowski/Qwen-GGUF");
  CHECK(r->file == "sub/Qwen-Q8_0.gguf");
  r = parse_hub_ref("https://hf.co/Qwen/Qwen3-8B", ep);
  REQUIRE(r);
  CHECK(r->repo == "Qwen/Qwen3-8B");
  r = parse_hub_ref("https://example.com/models/x.gguf", ep);
  REQUIRE(r);
  CHECK(r->url == "https://example.com/models/x.gguf");
  CHECK(!parse_hub_ref("llama-3.1-8b", ep));
  CHECK(!parse_hub_ref("a/b/c", ep));
  CHECK(!parse_hub_ref("./models/x", ep));
  CHECK_THROWS_WITH(parse_hub_ref("Qwen/Qwen3@../../etc", ep), Contains("expected a revision"));
  CHECK_THROWS_WITH(parse_hub_ref("Qwen/Qwen3:Q4 K", ep), Contains("expected a GGUF quantization tag"));
  CHECK_THROWS_WITH(parse_hub_ref("https://example.com/page.html", ep), Contains("a Hugging Face model URL or the URL of a .gguf file"));
  CHECK_THROWS_WITH(parse_hub_ref("https://huggingface.co/datasets/a/b", ep), Contains("a dataset or a Space"));
  CHECK_THROWS_WITH(parse_hub_ref("https://huggingface.co/a/b/resolve/main/../x.gguf", ep), Contains("expected a file path"));
}

TEST_CASE("hub: the file list, a small file and a header, the second time from the cache", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  {
    Hub hub(hub_settings(s, d));
    HubRepo r = hub.repo(test::kAwqRepo, "main");
    CHECK(r.sha == test::kAwqSha);
    CHECK(r.files.size() == 5);
    CHECK(!hub.small_file(r, "config.json", 1 << 20, "config.json").empty());
    auto f = hub.open(r, *r.find("model-00001-of-00002.safetensors"));
    char b[8];
    CHECK(f->read_at(0, b, 8));
    CHECK(hub.cache_hits() == 0);
  }
  int before = s.requests();
  Hub again(hub_settings(s, d));
  HubRepo r = again.repo(test::kAwqRepo, "main");
  CHECK(r.from_cache);
  CHECK(!again.small_file(r, "config.json", 1 << 20, "config.json").empty());
  auto f = again.open(r, *r.find("model-00001-of-00002.safetensors"));
  char b[8];
  CHECK(f->read_at(0, b, 8));
  CHECK(s.requests() == before);
  CHECK(again.requests() == 0);
  CHECK(again.cache_hits() == 3);
}

TEST_CASE("hub: a stale file list is checked with its ETag (304 keeps the cache)", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  Hub(h).repo(test::kAwqRepo, "main");
  h.fresh_s = 0;
  Hub hub(h);
  CHECK(hub.repo(test::kAwqRepo, "main").sha == test::kAwqSha);
  CHECK(hub.requests() == 1);
  CHECK(s.log().back().find(" 304") != std::string::npos);
}

TEST_CASE("hub: offline reads only the cache, and says so when it is empty", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  h.offline = true;
  CHECK_THROWS_WITH(Hub(h).repo(test::kAwqRepo, "main"),
                    Contains("Qwen/Qwen3-32B-AWQ@main: not in the cache (") && Contains("and offline (--offline or HF_HUB_OFFLINE)"));
  CHECK(s.requests() == 0);
  h.cache_dir.clear();
  CHECK_THROWS_WITH(Hub(h).repo(test::kAwqRepo, "main"), Contains("offline, and no cache folder"));
}

TEST_CASE("hub: gated, private, missing repos and revisions are one line each", "[model][hub]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::serve_qwen3_32b_awq(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  Hub hub(h);
  HubRepo gated = hub.repo("test/gated", "main");
  CHECK(gated.gated == "manual");
  CHECK_THROWS_WITH(hub.small_file(gated, "config.json", 1 << 20, "config.json"),
                    Contains("test/gated: gated: accept the licence on the model page (" + s.endpoint() + "/test/gated) and set HF_TOKEN"));
  h.token = "hf_secret_token";
  h.token_from = "HF_TOKEN";
  Hub with_token(h);
  try {
    with_token.small_file(gated, "config.json", 1 << 20, "config.json");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK_THAT(e.what(), Contains("the token from HF_TOKEN has no access to it yet"));
    CHECK_THAT(e.what(), !Contains("hf_secret_token"));
  }
  CHECK_THROWS_WITH(hub.repo("test/private", "main"), Contains("no such model repository on " + s.endpoint() + ", or a private one (set HF_TOKEN"));
  CHECK_THROWS_WITH(hub.repo("nobody/nothing", "main"), Contains("nobody/nothing: no such model repository on"));
  CHECK_THROWS_WITH(hub.repo(test::kAwqRepo, "v9"), Contains("Qwen/Qwen3-32B-AWQ: no revision named in \"v9\""));
  HubRepo awq = hub.repo(test::kAwqRepo, "main");
  CHECK_THROWS_WITH(hub.small_file(awq, "nope.json", 100, "x"), Contains("no file \"nope.json\" in the repository"));
}

TEST_CASE("hub: GGUF tags name files, whole words, split parts together", "[model][hub]") {
  test::HubServer s;
  test::serve_llama_gguf(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo(test::kGgufRepo, "main");
  CHECK(gguf_files_for_tag(r, "q4_k_m") == std::vector<std::string>{"Llama-3.1-8B-Instruct-Q4_K_M.gguf"});
  CHECK(gguf_files_for_tag(r, "Q2_K").size() == 2);
  CHECK(gguf_files_for_tag(r, "Q4_K").empty());  // not a whole word of Q4_K_M
  CHECK(gguf_tags(r) == std::vector<std::string>{"Q2_K", "Q4_K_M", "Q8_0"});
}

TEST_CASE("hub: the one file a listing holds for a type: a split file's first part, every part there, printable names", "[model][hub]") {
  auto repo = [](std::vector<std::pair<std::string, std::uint64_t>> files) {
    HubRepo r;
    r.repo = "o/n";
    for (auto& [p, n] : files) r.files.push_back({p, n});
    std::sort(r.files.begin(), r.files.end(), [](const HubFile& a, const HubFile& b) { return a.path < b.path; });
    return r;
  };
  HubRepo r = repo({{"Q2_K/m-Q2_K-00002-of-00002.gguf", 20}, {"Q2_K/m-Q2_K-00001-of-00002.gguf", 10}, {"m-Q4_K_M.gguf", 5},
                    {"m-UD-Q4_K_M.gguf", 6}, {"m-Q3_K_M-00002-of-00002.gguf", 7}, {"mmproj-Q8_0.gguf", 1},
                    {"bad\x1b[2J-Q6_K.gguf", 3}, {"m-Q5_K_M.gguf", 0}});
  auto q2 = listed_gguf(r, "Q2_K");
  REQUIRE(q2);
  CHECK(q2->path == "Q2_K/m-Q2_K-00001-of-00002.gguf");
  CHECK(q2->bytes == 30);
  CHECK(q2->parts == 2);
  REQUIRE(listed_gguf(r, "q4_k_m"));
  CHECK(listed_gguf(r, "q4_k_m")->path == "m-Q4_K_M.gguf");  // the shorter of two names carrying the type
  CHECK(!listed_gguf(r, "Q3_K_M"));                          // a split file without its first part
  CHECK(!listed_gguf(r, "Q8_0"));                            // a vision projector, not the model
  CHECK(!listed_gguf(r, "Q6_K"));                            // an escape sequence is never printed
  REQUIRE(listed_gguf(r, "Q5_K_M"));
  CHECK(listed_gguf(r, "Q5_K_M")->bytes == 0);  // the listing gave no size
}

TEST_CASE("hub: a GGUF header read by Range grows until the tensor infos are complete", "[model][hub]") {
  test::HubServer s;
  test::serve_llama_gguf(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo(test::kGgufRepo, "main");
  auto f = hub.open(r, *r.find("Llama-3.1-8B-Instruct-Q4_K_M.gguf"));
  GgufFile g = read_gguf(*f);
  CHECK(g.tensors.size() == 32 * 9 + 3);
  CHECK(hub.requests() >= 4);  // 256 KiB, 512 KiB, 1 MiB, 2 MiB: the 1.5 MB token list
  CHECK(hub.requests() <= 6);
}

TEST_CASE("hub: a header length of 2^63 is refused before anything is read", "[model][hub]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo("test/huge-header", "main");
  auto f = hub.open(r, *r.find("model.safetensors"));
  CHECK_THROWS_WITH(read_safetensors(*f), Contains("test/huge-header/model.safetensors: byte 0: header length 9223372036854775808 is over"));
}

// ---- issue 41 ----------------------------------------------------------------------

namespace {

std::string every_cache_file(const std::string& root) {
  std::string all;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec); it != std::filesystem::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) all += test::read_text(it->path()) + "\n" + it->path().string() + "\n";
  return all;
}

}  // namespace

TEST_CASE("hub: a file that changes between Range reads is an error, not parsed as one file", "[model][hub]") {
  test::HubServer s;
  test::serve_heavy(s);
  test::TempDir d;
  Hub hub(hub_settings(s, d));
  HubRepo r = hub.repo("test/changing", "main");
  auto f = hub.open(r, *r.find("model-Q4_K_M.gguf"));
  CHECK_THROWS_WITH(read_gguf(*f), Contains("test/changing/model-Q4_K_M.gguf: the file changed while qsel read it"));
  bool if_range = false;
  for (const auto& h : s.request_headers()) if_range = if_range || h.count("if-range");
  CHECK(if_range);  // the second Range asked for the version the first one read
}

TEST_CASE("hub: 100,000 GGUF names answer in under a second (de-duplicating them was quadratic: 35 s)", "[model][hub][slow]") {
  test::HubServer s;
  test::serve_heavy(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  // The test server builds its 4 MB answer before the first byte: the fixtures' 10 s stall window covers it
  // under ASan on a loaded machine (this test does not measure the window).
  Hub warm(h);
  warm.repo("test/many-ggufs", "main");  // the server builds its 4 MB answer once; qsel's own work is what is timed
  // The bound is on this thread's CPU time: a loaded machine stretches the wall clock, not the work.
  auto cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
  };
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu();
  // The answer: the list read, its GGUF names told apart by stem, their tags listed.
  CHECK_THROWS_WITH(read_model_files("test/many-ggufs", h), Contains("100000 GGUF files; name one as test/many-ggufs:TAG"));
  double seconds = cpu() - c0, wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(seconds << " s of CPU, " << wall << " s of wall clock");
  HubRepo r = Hub(h).repo("test/many-ggufs", "main");
  CHECK(gguf_tags(r).size() == 9);
  CHECK(gguf_files_for_tag(r, "Q3_K").size() == 11111);
  std::vector<std::string> names;
  for (const auto& f : r.files) names.push_back(f.path);
  CHECK(gguf_stems(names).size() == 100000);
#ifdef QSEL_SANITIZED_BUILD
  CHECK(seconds < 20);  // ASan at -O0; the quadratic version took minutes there
#else
  CHECK(seconds < 1);
#endif
  CHECK(wall < 60);
}

TEST_CASE("hub: an index of 3,000 shards is refused before its shards are asked for (it made 3,003 requests)", "[model][hub]") {
  test::HubServer s;
  test::serve_heavy(s);
  test::TempDir d;
  CHECK_THROWS_WITH(read_model_files("test/shards-3000", hub_settings(s, d)),
                    Contains("model.safetensors.index.json: 3000 shard files; qsel reads at most 1024 over the network"));
  CHECK(s.requests() < 10);
}

TEST_CASE("hub: a CR or LF in an ETag, from the server or a poisoned cache, is never sent as a header", "[model][hub]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  Hub(h).repo("test/crlf-etag", "main");
  h.fresh_s = 0;  // asked again, with whatever ETag was kept
  CHECK(Hub(h).repo("test/crlf-etag", "main").sha.size() == 40);
  // A poisoned entry: the list kept with an ETag that would end the header and start another.
  test::serve_qwen3_32b_awq(s);
  Hub(h).repo(test::kAwqRepo, "main");
  for (auto it = std::filesystem::recursive_directory_iterator(h.cache_dir); it != std::filesystem::recursive_directory_iterator(); ++it)
    if (it->path().filename() == "main.json") {
      std::string text = test::read_text(it->path());
      auto at = text.find("\"etag\":");
      REQUIRE(at != std::string::npos);
      text.insert(at + 7, "\"\\\"x\\\"\\r\\nX-Evil: 1\",\"etag_was\":");
      std::ofstream(it->path(), std::ios::trunc) << text;
    }
  CHECK(Hub(h).repo(test::kAwqRepo, "main").sha == test::kAwqSha);
  for (const auto& hd : s.request_headers()) {
    CHECK(!hd.count("x-evil"));
    if (hd.count("if-none-match")) CHECK(hd.at("if-none-match").find_first_of("\r\n") == std::string::npos);
  }
}

TEST_CASE("hub: a user:password@ endpoint authenticates, and the password is in no message, source or cache file (M1)", "[model][hub]") {
  test::HubServer s;
  test::serve_qwen3_32b_awq(s);
  test::serve_misbehaving(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  h.user = "alice";  // from HF_ENDPOINT=http://alice:pa55word@host (hub_settings_test.cc)
  h.password = "pa55word";
  ModelFiles f = read_model_files(std::string(test::kAwqRepo) + "@main", h);
  CHECK(f.source.find("pa55word") == std::string::npos);
  CHECK(f.source.find(s.endpoint()) != std::string::npos);
  auto heads = s.request_headers();
  REQUIRE(!heads.empty());
  CHECK(heads[0].count("authorization"));
  CHECK(every_cache_file(h.cache_dir).find("pa55word") == std::string::npos);
  try {
    read_model_files("test/private", h);
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK_THAT(e.what(), !Contains("pa55word"));
  }
  // A .gguf URL with credentials: they authenticate, and what is shown and kept has none.
  test::serve_llama_gguf(s);
  std::string url = "http://bob:hunter2@" + s.endpoint().substr(7) + "/" + test::kGgufRepo + "/resolve/main/Llama-3.1-8B-Instruct-Q8_0.gguf";
  auto ref = parse_hub_ref(url, "https://huggingface.co");
  REQUIRE(ref);
  CHECK(ref->display().find("hunter2") == std::string::npos);
  // A Hub URL's credentials are for the host it names: with another endpoint, they go nowhere.
  auto elsewhere = parse_hub_ref("https://carol:pw@huggingface.co/org/name", s.endpoint());
  REQUIRE(elsewhere);
  CHECK(elsewhere->user.empty());
  CHECK(elsewhere->password.empty());
  ModelFiles g = read_model_files(url, hub_settings(s, d));
  CHECK(g.source.find("hunter2") == std::string::npos);
  CHECK(g.checkpoint.path.find("hunter2") == std::string::npos);
  CHECK(every_cache_file(h.cache_dir).find("hunter2") == std::string::npos);
}

TEST_CASE("hub: one deadline for the whole command, across requests and retries", "[model][hub][slow]") {
  test::HubServer s;
  test::serve_misbehaving(s);
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  h.deadline_s = 3;
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(Hub(h).repo("test/storm", "main"), Contains("retry after 20 s, past the"));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

namespace {

// A tree that reads as the Hub did before issue 42: one file after another.
class OneAtATime final : public FileTree {
 public:
  explicit OneAtATime(const HubTree& t) : t_(t) {}
  std::string root() const override { return t_.root(); }
  std::string name(const std::string& f) const override { return t_.name(f); }
  bool has(const std::string& f) const override { return t_.has(f); }
  std::vector<std::string> files_with_ext(std::string_view ext) const override { return t_.files_with_ext(ext); }
  std::string read_text(const std::string& f, std::size_t cap, std::string_view what) const override { return t_.read_text(f, cap, what); }
  std::unique_ptr<ByteSource> open(const std::string& f) const override { return t_.open(f); }

 private:
  const HubTree& t_;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("hub: 104 shards at 50 ms a request are read in under 5 s, 8 at a time, the answer the serial read gives (11-14 s)",
          "[model][hub]") {
  test::HubServer s;
  test::serve_sharded(s, "shardco/shards-104", 104);
  s.set_delay_ms(50);  // every request: the file list, config.json, the index, and each shard's resolve and its redirect
  test::TempDir d;
  HubSettings h = hub_settings(s, d);
  auto t0 = std::chrono::steady_clock::now();
  ModelFiles f = read_model_files("shardco/shards-104", h);
  double seconds = seconds_since(t0);
  INFO(seconds << " s, " << s.requests() << " requests, at most " << s.most_concurrent() << " at once");
#ifdef QSEL_SANITIZED_BUILD
  CHECK(seconds < 10.0);  // ASan at -O1: the requests are the same, each costs more CPU
#else
  CHECK(seconds < 5.0);
#endif
  CHECK(s.most_concurrent() <= 8);
  CHECK(s.most_concurrent() >= 2);
  CHECK(s.requests() == 1 + 2 * 2 + 104 * 2);  // the list; config.json, the index and each shard's first Range, a redirect each
  const Checkpoint& c = f.checkpoint;
  CHECK(c.kind == "safetensors");
  REQUIRE(c.read.size() == 2 + 104);
  CHECK(c.read[2] == "shardco/shards-104/model-00001-of-00104.safetensors");
  CHECK(c.read.back() == "shardco/shards-104/model-00104-of-00104.safetensors");
  // The same answer, in the same order, as a read of one file after another (no delay: it is the answer compared, not the time).
  s.set_delay_ms(0);
  test::TempDir d2;
  Hub hub(hub_settings(s, d2));
  HubTree tree(hub, hub.repo("shardco/shards-104", "main"));
  Checkpoint serial = read_checkpoint_tree(OneAtATime(tree), ReadLimits::remote());
  CHECK(serial.read == c.read);
  REQUIRE(serial.tensors.size() == c.tensors.size());
  for (std::size_t i = 0; i < c.tensors.size(); ++i) {
    CHECK(serial.tensors[i].name == c.tensors[i].name);
    CHECK(serial.tensors[i].shape == c.tensors[i].shape);
    CHECK(serial.tensors[i].bytes == c.tensors[i].bytes);
  }
  CHECK(serial.notes == c.notes);
  // A second read: every header from the cache, nothing asked ahead.
  int before = s.requests();
  ModelFiles again = read_model_files("shardco/shards-104", h);
  CHECK(s.requests() == before);
  CHECK(again.checkpoint.tensors.size() == c.tensors.size());
}

TEST_CASE("hub: an error in a shard read ahead is the one the serial read reports: the first file's, in order", "[model][hub]") {
  test::HubServer s;
  test::serve_sharded(s, "shardco/shards-8", 8);
  // Shard 3 and shard 6 claim headers longer than the file: shard 3 is named, as one at a time would.
  s.add_file("shardco/shards-8", "model-00003-of-00008.safetensors", test::le64(1u << 20) + "{}", 4096);
  s.add_file("shardco/shards-8", "model-00006-of-00008.safetensors", test::le64(1u << 20) + "{}", 4096);
  test::TempDir d;
  CHECK_THROWS_WITH(read_model_files("shardco/shards-8", hub_settings(s, d)), Contains("model-00003-of-00008.safetensors"));
}

namespace {

// `command` under sh with a pseudo-terminal as its terminal (stdin, stdout and
// stderr); what the terminal showed. Ends within 20 s.
std::string run_in_pty(const std::string& command, int* code) {
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::string out;
  char buf[4096];
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < until) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO: the terminal's last holder has gone
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::kill(pid, SIGKILL);  // only if it outlived the 20 s
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace

TEST_CASE("hub: one progress line on a terminal for the whole read (files done of 104), none on a pipe or with -q", "[model][hub][cli]") {
  test::HubServer s;
  test::serve_sharded(s, "shardco/shards-104", 104);
  s.set_delay_ms(10);
  auto run = [&](const std::string& flags, const std::string& redirect) {
    test::TempDir cache;  // each run its own: a cached header is not read ahead
    int code = -1;
    std::string shown = run_in_pty(test::hub_env(s, cache) + QSEL_BINARY + " inspect " + flags + "shardco/shards-104" + redirect, &code);
    CHECK(code == 0);
    return shown;
  };
  std::string tty = run("", " >/dev/null");  // only stderr reaches the terminal
  INFO(tty);
  auto first = tty.find("qsel: reading headers: ");
  REQUIRE(first != std::string::npos);
  CHECK(tty.find("/104 files, ") != std::string::npos);
  CHECK(tty.find("104/104 files, ") != std::string::npos);
  // One line, redrawn in place: no line break from its first drawing to its clearing, which ends it.
  auto last = tty.rfind("reading headers: ");
  auto cleared = tty.find("\r\033[K", last);
  REQUIRE(cleared != std::string::npos);
  CHECK(tty.substr(first, cleared - first).find('\n') == std::string::npos);
  CHECK(tty.find("reading headers", cleared) == std::string::npos);
  // stderr a pipe (the terminal sees it through cat): nothing; -q on the terminal: nothing.
  std::string piped = run("", " 2>&1 >/dev/null | cat");
  CHECK(piped.find("reading headers") == std::string::npos);
  CHECK(piped.find("\033[K") == std::string::npos);
  std::string quiet = run("-q ", " >/dev/null");
  CHECK(quiet.find("reading headers") == std::string::npos);
}
