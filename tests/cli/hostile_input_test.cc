// Issue 13's reproducers, each with the exit code and message it must give now:
// no crash, no silent wrong answer, no hang, no unlocated internal error.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "support/browse_corpus.h"
#include "support/fixtures.h"
#include "support/hub_fixtures.h"

using qsel::test::run_cli;

namespace {

bool one_line(const std::string& err) { return std::count(err.begin(), err.end(), '\n') == 1 && err.rfind("qsel: error: ", 0) == 0; }

}  // namespace

TEST_CASE("hostile: numbers from the command line are checked, never wrapped or narrowed", "[e2e][hostile]") {
  auto size = run_cli({"recommend", "--gpu", "h100", "--model-size", std::string(30000, '7') + "b"});
  CHECK(size.code == 2);
  CHECK(one_line(size.err));
  auto digits = run_cli({"recommend", "--gpu", "h100", "--model-size", std::string(400, '1') + "b"});
  CHECK(digits.code == 2);
  auto ctx = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--context", "18014398509481985k"});
  CHECK(ctx.code == 2);
  CHECK(ctx.err == "qsel: error: --context: expected a number of tokens from 1 to 1073741824 (8192, 128k, 1m), got \"18014398509481985k\"\n");
  auto top = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--top", "-1"});
  CHECK(top.code == 2);
  CHECK(top.err == "qsel: error: --top: expected a number of rows from 1 to 1000000 (--all shows every row), got \"-1\"\n");
  auto conv = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--top", "abc"});
  CHECK(conv.err == "qsel: error: --top: expected a number of rows from 1 to 1000000 (--all shows every row), got \"abc\"\n");
  auto count = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--count", "99999"});
  CHECK(count.code == 2);
  auto flag = run_cli({"lint", "--fromat", "json"});
  CHECK(flag.err == "qsel: error: unknown option \"--fromat\"; did you mean \"--format\"?\n");
}

TEST_CASE("hostile: config.json numbers out of range are located errors, not crashes", "[e2e][hostile]") {
  qsel::test::TempDir d;
  auto heads = d.write("c.json", R"({"num_hidden_layers":2,"hidden_size":512,"num_attention_heads":4294967296,"vocab_size":100})");
  auto r = run_cli({"recommend", "--gpu", "h100", "--model-config", heads.string()});
  CHECK(r.code == 2);
  CHECK(r.err == "qsel: error: " + heads.string() + ":1:42: \"num_attention_heads\" must be an integer from 1 to 65536, got \"4294967296\"\n");
  auto types = d.write("t.json", R"({"num_hidden_layers":2,"hidden_size":512,"num_attention_heads":8,"vocab_size":100,"kv_lora_rank":16,"qk_nope_head_dim":"x"})");
  auto t = run_cli({"recommend", "--gpu", "h100", "--model-config", types.string()});
  CHECK(t.code == 2);
  CHECK(t.err.find("internal error") == std::string::npos);
}

TEST_CASE("hostile: files that are not regular files, or too large, are refused without reading them", "[e2e][hostile]") {
  qsel::test::TempDir d;
  mkfifo((d.path() / "fifo").c_str(), 0644);
  auto t0 = std::chrono::steady_clock::now();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"recommend", "--gpu", "h100", "--model-config", "/dev/zero"},
        std::vector<std::string>{"recommend", "--gpu", "h100", "--model-config", (d.path() / "fifo").string()},
        std::vector<std::string>{"lint", "--baseline", "/dev/zero", qsel::test::source_dir() + "/data"},
        std::vector<std::string>{"lint", "--config", (d.path() / "fifo").string(), qsel::test::source_dir() + "/data"}}) {
    auto r = run_cli(args);
    INFO(args[3]);
    CHECK(r.code == 2);
    CHECK(r.err.find("not a regular file") != std::string::npos);
  }
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  auto empty = run_cli({"lint", ""});
  CHECK(empty.code == 2);
  CHECK(empty.err == "qsel: error: an empty path: name a corpus folder or record file\n");
}

TEST_CASE("hostile: symlink loops, dangling links, links out of the tree, FIFOs: one finding each, the rest linted", "[e2e][hostile]") {
  qsel::test::TempDir d, outside;
  qsel::test::write_browse_corpus(d);
  auto target = outside.write("formats/fmt-out.yaml", qsel::test::browse_record("format", "fmt-out", "scheme: awq\nregime: w4a16\n"));
  std::filesystem::create_symlink("loop.yaml", d.path() / "formats/loop.yaml");
  std::filesystem::create_symlink("nothere.yaml", d.path() / "formats/dangling.yaml");
  std::filesystem::create_symlink(target, d.path() / "formats/fmt-out.yaml");
  std::filesystem::create_directories(d.path() / "formats/dir.yaml");
  mkfifo((d.path() / "formats/fifo.yaml").c_str(), 0644);
  auto r = run_cli({"lint", d.path().string(), "--select", "QS014", "--no-color"});
  CHECK(r.code == 1);
  for (const char* m : {"formats/loop.yaml: error: a symlink loop", "formats/dangling.yaml: error: a dangling symlink",
                        "formats/fmt-out.yaml: error: a symlink to", "formats/dir.yaml: error: a directory named like a record file",
                        "formats/fifo.yaml: error: not a regular file"}) {
    INFO(m);
    CHECK(r.out.find(m) != std::string::npos);
  }
  auto list = run_cli({"--data", d.path().string(), "list", "formats", "--format", "json"});
  CHECK(list.code == 2);  // the corpus has problems: browse commands refuse it, naming them
  CHECK(list.err.find("fmt-out.yaml: a symlink to") != std::string::npos);
}

TEST_CASE("hostile: record text cannot drive the terminal or a CI log", "[e2e][hostile]") {
  qsel::test::TempDir d;
  qsel::test::write_browse_corpus(d);
  d.write("formats/fmt-evil.yaml",
          qsel::test::browse_record("format", "fmt-evil", "scheme: awq\nregime: w4a16\n", "evil \\e[2J\\a name\\n::error::pwned"));
  // YAML double-quoted escapes are not applied to plain scalars: write the raw bytes instead.
  std::string raw = qsel::test::read_text(d.path() / "formats/fmt-evil.yaml");
  raw = qsel::test::replace_once(raw, "evil \\e[2J\\a name\\n::error::pwned", "\"evil \\e[2J\\a name\\n::error::pwned\"");
  d.write("formats/fmt-evil.yaml", raw);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"list", "formats"}, std::vector<std::string>{"show", "fmt-evil"},
                                               std::vector<std::string>{"list", "formats", "--format", "markdown"}}) {
    std::vector<std::string> full = {"--data", d.path().string(), "--no-color"};
    full.insert(full.end(), args.begin(), args.end());
    auto r = run_cli(full);
    INFO(args[0] << " " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find('\a') == std::string::npos);
    CHECK(r.out.find("\n::error::") == std::string::npos);
  }
}

TEST_CASE("hostile: a non-finite number and a megabyte-long line are located and fast", "[e2e][hostile]") {
  qsel::test::TempDir d;
  d.write("formats/a.yaml", "id: a\nkind: format\nname: a\nbpw:\n  nominal: 1e999\nstatus: draft\nconfidence: 0.5\nsources: []\n");
  std::string big = "id: b\nkind: format\nname: b\naliases: [";
  for (int i = 0; i < 90000; ++i) big += (i ? ", x" : "x") + std::to_string(i);  // far past the list limit
  d.write("formats/b.yaml", big + "]\n");
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_cli({"lint", d.path().string(), "--no-color"});
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK(r.out.find("formats/a.yaml:5:12: error: \"1e999\" is not a finite number") != std::string::npos);
  CHECK(r.out.find("internal error") == std::string::npos);
}

TEST_CASE("hostile: a write error on stdout is exit 2, not a silent success (lint --format sarif > /dev/full)", "[e2e][hostile]") {
  if (!std::filesystem::exists("/dev/full")) return;
  qsel::test::TempDir t;
  auto err = t.path() / "err";
  int status = std::system((std::string(QSEL_BINARY) + " lint --format sarif " + qsel::test::source_dir() + "/tests/fixtures/seed-state >/dev/full 2>" +
                            err.string()).c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(qsel::test::read_text(err).rfind("qsel: error: cannot write to standard output", 0) == 0);
  status = std::system((std::string(QSEL_BINARY) + " --version >/dev/null").c_str());
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("hostile: a 120,000-character --gpu gets its usage error at once, with no suggestion scan", "[e2e][hostile]") {
  auto start = std::chrono::steady_clock::now();
  auto r = qsel::test::run_cli({"recommend", "--gpu", std::string(120000, 'h'), "--model-size", "8b"});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.code == 2);
  CHECK(r.err.find("did you mean") == std::string::npos);
  CHECK(seconds < 10);  // it took 60 s when every spelling was compared by edit distance
}

TEST_CASE("hostile: --memory-fraction nan, 0 or empty is a usage error, not silently ignored", "[e2e][hostile]") {
  for (const char* v : {"nan", "0", "", "inf", "1.5", "-0.5"}) {
    INFO(v);
    auto r = qsel::test::run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--memory-fraction", v});
    CHECK(r.code == 2);
    CHECK(r.err == std::string("qsel: error: --memory-fraction must be a number in (0, 1], got \"") + v + "\"\n");
  }
  CHECK(qsel::test::run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--memory-fraction", "0.85"}).code == 0);
}

// ---- issue 41: flag values, long echoes, and the Hub from the command line ------------

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST_CASE("hostile: an empty, zero or negative-zero number is a usage error naming the flag and the value", "[e2e][hostile]") {
  struct Case {
    std::vector<std::string> args;
    std::string flag, value;
  };
  const std::vector<std::string> rec = {"recommend", "--gpu", "h100", "--model-size", "8b"};
  std::vector<Case> cases;
  for (const char* v : {"", "0", "-0", "0.5", "nan"}) cases.push_back({{"--ram", v}, "--ram", v});
  for (const char* v : {"", "0", "-0"}) cases.push_back({{"--ram-bandwidth", v}, "--ram-bandwidth", v});
  for (const char* v : {"", "-0", "-1"}) cases.push_back({{"--min-tok-s", v}, "--min-tok-s", v});
  for (const char* v : {"", "-0"}) cases.push_back({{"--headroom", v}, "--headroom", v});
  for (const char* flag : {"--count", "--batch", "--top", "--vram", "--bandwidth"})
    for (const char* v : {"", "0", "-0"}) cases.push_back({{flag, v}, flag, v});
  for (const auto& c : cases) {
    std::vector<std::string> args = rec;
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = run_cli(args);
    INFO(c.flag << " \"" << c.value << "\": " << r.err);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK(r.err.rfind("qsel: error: " + c.flag + ": expected ", 0) == 0);
    CHECK(r.err.find("got \"" + c.value + "\"\n") != std::string::npos);
  }
  for (const std::vector<std::string>& args : {std::vector<std::string>{"lint", "--stale-after", "", "data"},
                                               std::vector<std::string>{"graph", "--around", "h100", "--depth", ""},
                                               std::vector<std::string>{"graph", "--around", "h100", "--depth", "-0"}}) {
    auto r = run_cli(args);
    INFO(args[1] << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("qsel: error: " + args[args.size() - 2 - (args[0] == "lint")] + ": expected ", 0) == 0);
  }
  // what stays valid: zero where the help says it means something
  CHECK(run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--min-tok-s", "0", "--headroom", "0"}).code == 0);
  CHECK(run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--ram", "1", "--ram-bandwidth", "51.2"}).code == 0);
}

TEST_CASE("hostile: a 100 KB value is never echoed whole: every error line stays short", "[e2e][hostile]") {
  const std::string big(100000, 'x');
  std::vector<std::vector<std::string>> runs = {
      {"recommend", "--gpu", big, "--model-size", "8b"},     {"recommend", "--gpu", "h100", "--model", big},
      {"recommend", "--gpu", "h100", "--model", "org/" + big}, {"recommend", "--gpu", "h100", "--model-config", big},
      {"recommend", "--gpu", "custom", "--model-size", "8b", "--target", big, "--vram", "24"},
      {"recommend", "--gpu", "h100", "--model-size", "8b", "--kv-cache", big},
      {"recommend", "--gpu", "h100", "--model-size", "8b", "--ram", big},
      {"explain", big}, {"explain", "nvfp4", "--on", big}, {"show", big}, {"list", big}, {"list", "formats", "--regime", big},
      {"list", "formats", "--native-on", big}, {"matrix", "--engine", big}, {"matrix", "--gpu", big}, {"matrix", "--vendor", big, "--derived"},
      {"graph", "--around", big}, {"graph", "--edges", big}, {"inspect", big}, {"verify", "--log", big},
      {"verify", "--log", "/dev/null", "--gpu", big}, {"verify", "--log", "/dev/null", "--quant", big}, {"lint", "--select", big, "data"},
      {"lint", "--stale-after", big, "data"}, {"lint", "--config", big, "data"}, {"lint", big}, {"--format", big, "list"},
      {"--color", big, "list"}, {"completion", big}};
  for (const auto& args : runs) {
    auto r = run_cli(args);
    std::string shown = args[0] + " " + args[1];
    INFO(shown << ": " << r.err.substr(0, 300));
    CHECK(r.code == 2);
    CHECK(r.err.size() < 2100);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("hostile: HF_ENDPOINT's user:password@ authenticates and is printed nowhere, nor cached (M1)", "[e2e][hostile][hub]") {
  qsel::test::HubServer s;
  qsel::test::serve_qwen3_32b_awq(s);
  qsel::test::serve_misbehaving(s);
  qsel::test::TempDir cache;
  std::string env = qsel::test::hub_env(s, cache) + "HF_ENDPOINT=http://alice:pa55word@" + s.endpoint().substr(7) + " ";
  for (const std::string& args : {std::string("-v recommend --gpu rtx-4090 --model Qwen/Qwen3-32B-AWQ@main --format json"),
                                  std::string("-vv inspect Qwen/Qwen3-32B-AWQ@main"), std::string("-v inspect test/private"),
                                  std::string("-v verify --log /dev/null --model test/gated"),
                                  std::string("inspect http://bob:pa55word@") + s.endpoint().substr(7) + "/x/y/resolve/main/m.gguf"}) {
    auto r = qsel::test::run_binary_env(env, args);
    INFO(args << "\n" << r.err);
    CHECK(r.out.find("pa55word") == std::string::npos);
    CHECK(r.err.find("pa55word") == std::string::npos);
  }
  CHECK(s.request_headers().front().count("authorization"));
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(cache.path(), ec); it != std::filesystem::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) CHECK(qsel::test::read_text(it->path()).find("pa55word") == std::string::npos);
}

TEST_CASE("hostile: a server trickling a byte every 0.6 s ends at the stall window, not after minutes (M2)", "[e2e][hostile][hub][slow]") {
  qsel::test::HubServer s;
  qsel::test::serve_misbehaving(s);
  qsel::test::TempDir cache;
  auto t0 = std::chrono::steady_clock::now();
  auto r = qsel::test::run_binary_env(qsel::test::hub_env(s, cache) + "HF_HUB_DOWNLOAD_TIMEOUT=2 ",
                                      "recommend --gpu h100 --model test/trickle@main");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK(r.err.find("less than 1024 bytes a second for 2 s (HF_HUB_DOWNLOAD_TIMEOUT)") != std::string::npos);
  CHECK(seconds < 30);  // 120 s a request, ~300 s a command before
}

TEST_CASE("hostile: a poisoned cache (links, wrong types, an open folder) and the command still answers (C1, M4)", "[e2e][hostile][hub]") {
  qsel::test::HubServer s;
  qsel::test::serve_qwen3_32b_awq(s);
  qsel::test::TempDir cache, outside;
  std::string env = qsel::test::hub_env(s, cache);
  const std::string cmd = "inspect Qwen/Qwen3-32B-AWQ@main --format json";
  REQUIRE(qsel::test::run_binary_env(env, cmd).code == 0);
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(cache.path() / "cache"); it != std::filesystem::recursive_directory_iterator(); ++it)
    if (it->is_regular_file()) files.push_back(it->path());
  auto secret = outside.write("shadow", "SECRET\n");
  for (const auto& f : files) {
    std::string name = f.filename().string();
    if (name == "main.json") std::ofstream(f, std::ios::trunc) << R"({"fetched": "x", "etag": "", "listing": {}})";
    else if (name.ends_with("meta.json")) std::ofstream(f, std::ios::trunc) << R"({"size": "abc", "complete": true})";
    else if (name == "config.json") {
      std::filesystem::remove(f);
      std::filesystem::create_symlink(secret, f);
    }
  }
  auto offline = qsel::test::run_binary_env(env, "--offline " + cmd);
  CHECK(offline.code == 2);
  CHECK(offline.err.find("internal error") == std::string::npos);
  CHECK(offline.err.find("SECRET") == std::string::npos);
  CHECK(offline.out.find("SECRET") == std::string::npos);
  auto online = qsel::test::run_binary_env(env, "-v " + cmd);
  INFO(online.err);
  CHECK(online.code == 0);
  CHECK(online.err.find("internal error") == std::string::npos);
  CHECK(online.err.find("not an entry qsel wrote") != std::string::npos);
  CHECK(qsel::test::read_text(secret) == "SECRET\n");
  // A cache folder others may write to is not used, and the command still answers.
  std::filesystem::permissions(cache.path() / "cache" / "qsel", std::filesystem::perms::all);
  auto open = qsel::test::run_binary_env(env, cmd);
  CHECK(open.code == 0);
  CHECK(open.err.find("others may write to it (mode 0777); not using it") != std::string::npos);
}

TEST_CASE("hostile: an unreadable HF_TOKEN_PATH does not break a command that needs no network", "[e2e][hostile][hub]") {
  qsel::test::TempDir d;
  auto big = d.write("token", std::string(10000, 'x'));
  auto r = qsel::test::run_binary_env("HF_TOKEN= HF_TOKEN_PATH=" + shell_quote(big.string()) + " ",
                                      "recommend --gpu h100 --model-size 8b --format json");
  INFO(r.err);
  CHECK(r.code == 0);
}
