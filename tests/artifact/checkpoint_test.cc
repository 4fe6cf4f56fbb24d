#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "qsel/artifact/checkpoint.h"
#include "qsel/core/errors.h"
#include "support/checkpoints.h"

using namespace qsel;
using nlohmann::json;

namespace {
std::string checkpoint_error_of(const std::string& path) {
  try {
    read_checkpoint(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("checkpoint: a folder gives config.json, its quantization_config and every tensor header", "[artifact][checkpoint]") {
  test::TempDir d;
  auto path = test::write_checkpoint(d, "awq", test::tiny_config({{"quant_method", "awq"}, {"bits", 4}}), test::awq_tensors());
  Checkpoint c = read_checkpoint(path);
  CHECK(c.kind == "safetensors");
  CHECK(c.read == std::vector<std::string>{path + "/config.json", path + "/model.safetensors"});
  CHECK(c.quantization_config["quant_method"] == "awq");
  CHECK(c.quantization_config_file == path + "/config.json");
  CHECK(c.tensors.size() == 14 * 3 + 7);
  CHECK(looks_like_checkpoint(path));
  CHECK(!looks_like_checkpoint(path + "/nope"));
}

TEST_CASE("checkpoint: shards from the index, quantization configs beside config.json, text_config", "[artifact][checkpoint]") {
  test::TempDir d;
  json half1 = json::array(), half2 = json::array();
  json all = test::awq_tensors();
  for (std::size_t i = 0; i < all.size(); ++i) (i % 2 ? half2 : half1).push_back(all[i]);
  d.write("sharded/model-00001-of-00002.safetensors", test::safetensors_bytes(half1));
  d.write("sharded/model-00002-of-00002.safetensors", test::safetensors_bytes(half2));
  json map = json::object();
  for (std::size_t i = 0; i < all.size(); ++i) map[all[i]["name"].get<std::string>()] = i % 2 ? "model-00002-of-00002.safetensors" : "model-00001-of-00002.safetensors";
  d.write("sharded/model.safetensors.index.json", json{{"metadata", {{"total_size", 1}}}, {"weight_map", map}}.dump());
  d.write("sharded/config.json", test::tiny_config().dump());
  d.write("sharded/quantize_config.json", json{{"quant_method", "gptq"}, {"bits", 4}}.dump());
  Checkpoint c = read_checkpoint((d.path() / "sharded").string());
  CHECK(c.tensors.size() == all.size());
  CHECK(c.read.size() == 5);  // config, quantize_config, index, two shards
  CHECK(c.quantization_config["quant_method"] == "gptq");
  CHECK(c.quantization_config_file == (d.path() / "sharded/quantize_config.json").string());

  json vl = {{"architectures", {"X"}}, {"text_config", test::tiny_config({{"quant_method", "fp8"}})}};
  d.write("vl/config.json", vl.dump());
  Checkpoint v = read_checkpoint((d.path() / "vl").string());
  CHECK(v.kind == "config");
  CHECK(v.quantization_config["quant_method"] == "fp8");
  CHECK(v.quantization_config_file == (d.path() / "vl/config.json").string() + " (text_config)");
}

TEST_CASE("checkpoint: an index never names a file outside the folder", "[artifact][checkpoint]") {
  test::TempDir d;
  d.write("evil/config.json", test::tiny_config().dump());
  d.write("evil/model.safetensors.index.json", json{{"weight_map", {{"a", "../../etc/passwd"}}}}.dump());
  CHECK(checkpoint_error_of((d.path() / "evil").string()) ==
        (d.path() / "evil/model.safetensors.index.json").string() +
            ": weight_map names \"../../etc/passwd\", which is not a file name in the checkpoint folder");
  d.write("evil2/model.safetensors.index.json", json{{"weight_map", {{"a", 7}}}}.dump());
  CHECK(checkpoint_error_of((d.path() / "evil2").string()).find("weight_map \"a\" must name a file") != std::string::npos);
  d.write("evil3/model.safetensors.index.json", "[1,2]");
  CHECK(checkpoint_error_of((d.path() / "evil3").string()).find("expected a JSON object (safetensors index)") != std::string::npos);
}

TEST_CASE("checkpoint: bad configs are located, empty folders and FIFOs are refused", "[artifact][checkpoint]") {
  test::TempDir d;
  d.write("bad/config.json", "{\n  \"hidden_size\": 5,,\n}");
  CHECK(checkpoint_error_of((d.path() / "bad").string()).rfind((d.path() / "bad/config.json").string() + ":2:", 0) == 0);
  std::filesystem::create_directories(d.path() / "empty");
  CHECK(checkpoint_error_of((d.path() / "empty").string()) == (d.path() / "empty").string() + ": no config.json, .safetensors or .gguf file in this folder");
  mkfifo((d.path() / "pipe.json").c_str(), 0644);
  CHECK(checkpoint_error_of((d.path() / "pipe.json").string()) == (d.path() / "pipe.json").string() + ": not a regular file");
  d.write("big/config.json", std::string(17 << 20, ' '));
  CHECK(checkpoint_error_of((d.path() / "big").string()).find("a config.json may be at most 16777216 bytes") != std::string::npos);
  CHECK(checkpoint_error_of((d.path() / "missing").string()).rfind((d.path() / "missing").string() + ": no such file or folder", 0) == 0);
  d.write("two/a.gguf", "GGUF");
  d.write("two/b.gguf", "GGUF");
  CHECK(checkpoint_error_of((d.path() / "two").string()) == (d.path() / "two").string() + ": 2 .gguf files; name the one to read");
}

// Issue 26: a tensor two shards both hold was summed; the index is now checked against
// what the shards hold; and the headers of one model share one byte budget.
TEST_CASE("checkpoint: a tensor in two shards is refused, naming both, and the index is checked against the shards", "[artifact][checkpoint]") {
  test::TempDir d;
  json one = json::array({{{"name", "a"}, {"dtype", "F16"}, {"shape", {4}}, {"bytes", 8}}});
  json two = json::array({{{"name", "a"}, {"dtype", "F16"}, {"shape", {4}}, {"bytes", 8}}, {{"name", "b"}, {"dtype", "F16"}, {"shape", {4}}, {"bytes", 8}}});
  d.write("dup/s1.safetensors", test::safetensors_bytes(one));
  d.write("dup/s2.safetensors", test::safetensors_bytes(two));
  d.write("dup/model.safetensors.index.json", json{{"weight_map", {{"a", "s1.safetensors"}, {"b", "s2.safetensors"}}}}.dump());
  CHECK(checkpoint_error_of((d.path() / "dup").string()) == (d.path() / "dup/s2.safetensors").string() + ": tensor \"a\" is also in " +
                                                     (d.path() / "dup/s1.safetensors").string() + "; a checkpoint holds each tensor once");

  json three = json::array({{{"name", "c"}, {"dtype", "F16"}, {"shape", {4}}, {"bytes", 8}}, {{"name", "d"}, {"dtype", "F16"}, {"shape", {4}}, {"bytes", 8}}});
  d.write("off/s1.safetensors", test::safetensors_bytes(one));
  d.write("off/s2.safetensors", test::safetensors_bytes(three));
  d.write("off/model.safetensors.index.json",
          json{{"weight_map", {{"a", "s2.safetensors"}, {"c", "s2.safetensors"}, {"gone", "s1.safetensors"}}}}.dump());
  Checkpoint c = read_checkpoint((d.path() / "off").string());
  std::string index = (d.path() / "off/model.safetensors.index.json").string();
  CHECK(c.tensors.size() == 3);
  CHECK(c.notes == std::vector<std::string>{index + ": weight_map lists 1 tensor(s) no shard holds (first: \"gone\")",
                                            index + ": 1 tensor(s) sit in another shard than weight_map says (first: \"a\")",
                                            index + ": 1 tensor(s) in the shards are not in weight_map"});
}

TEST_CASE("checkpoint: 4,096 links to one 100 MB-header shard stop at the model's header budget, not after two hours", "[artifact][checkpoint]") {
#ifdef QSEL_SANITIZED_BUILD
  SUCCEED("a time and memory budget: checked in the Release run (300 MB of headers take 25 s under ASan at -O0)");
  return;
#endif
  test::TempDir d;
  std::string header = R"({"__metadata__": {"x": ")" + std::string(99000000, 'a') + R"("}})";
  d.write("links/s0.safetensors", test::le64(header.size()) + header);
  json map = json::object();
  for (int i = 0; i < 4096; ++i) {
    if (i > 0) std::filesystem::create_hard_link(d.path() / "links/s0.safetensors", d.path() / ("links/s" + std::to_string(i) + ".safetensors"));
    map["t" + std::to_string(i)] = "s" + std::to_string(i) + ".safetensors";
  }
  d.write("links/model.safetensors.index.json", json{{"weight_map", map}}.dump());
  // Shards are read in name order (s0, s1, s10, …): the third 99 MB header passes 256 MiB.
  CHECK(checkpoint_error_of((d.path() / "links").string()) ==
        (d.path() / "links/s10.safetensors").string() +
            ": the headers of this model's files pass 256 MiB together; qsel reads at most that much of one model (the largest real checkpoints "
            "hold about 25 MB)");
}

TEST_CASE("checkpoint: a path longer than PATH_MAX says so, not \"no such file\"", "[artifact][checkpoint]") {
  std::string path;
  while (path.size() < 5000) path += "abcdefgh/";
  path += "config.json";
  CHECK(looks_like_checkpoint(path));  // read, so the reason is told, not taken for a record id
  CHECK(checkpoint_error_of(path) == path + ": cannot read: File name too long");
}

TEST_CASE("checkpoint: a file that is plainly not a model says what is read, not \"invalid JSON: '#'\"", "[artifact][checkpoint]") {
  test::TempDir d;
  auto readme = d.write("README.md", "# A model\n");
  CHECK(checkpoint_error_of(readme.string()) ==
        readme.string() + ": not a model file: qsel reads a checkpoint folder, a config.json, a .safetensors or a .gguf file");
  auto odd = d.write("params", test::tiny_config().dump());  // a config under another name is still read
  CHECK(read_checkpoint(odd.string()).kind == "config");
}

TEST_CASE("checkpoint: what reads as a local path, existing or not (local first)", "[artifact][checkpoint][local-first]") {
  for (const char* p : {"./model", "../x", "/opt/m", "~/models/q.gguf", "model.gguf", "org/name/config.json", "w.safetensors", "."})
    CHECK(names_local_path(p));
  // Hub ids, tags and URLs stay Hub names; a repo name with a version dot is no file extension.
  for (const char* p : {"Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct", "unsloth/Llama-3.1-8B-Instruct-GGUF:Q4_K_M",
                        "org/name@v1.0", "https://huggingface.co/org/name", "hf://org/name", "deepseek-ai/DeepSeek-V2.5", ""})
    CHECK_FALSE(names_local_path(p));
  // A first component that exists here makes it a path: `tests/no-such-folder` (run from the source folder).
  CHECK(names_local_path(std::string(QSEL_SOURCE_DIR) + "/tests/no-such-folder"));
}

TEST_CASE("checkpoint: a missing path names the nearest existing sibling, and how to ask the Hub", "[artifact][checkpoint][local-first]") {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "models" / "qwen3-32b-awq");
  std::string missing = (dir.path() / "models" / "qwen3-32b-awk").string();
  std::string msg = missing_path_error(missing, false);
  CHECK(msg.find("no such file or folder") != std::string::npos);
  CHECK(msg.find("did you mean") != std::string::npos);
  CHECK(msg.find("qwen3-32b-awq") != std::string::npos);
  CHECK(msg.find("hf://") == std::string::npos);
  std::string far = missing_path_error((dir.path() / "models" / "zzzzzzzzzzzz").string(), false);
  CHECK(far.find("did you mean") == std::string::npos);
  CHECK(far.find("/\" holds \"qwen3-32b-awq\"") != std::string::npos);  // nothing near: what the folder holds
  CHECK(missing_path_error("~/m.gguf", false).find("a quoted ~ is not expanded") != std::string::npos);
  CHECK(missing_path_error("examples/no-such", true).find("for the Hugging Face repo write hf://examples/no-such") != std::string::npos);
  CHECK_THROWS_WITH(read_checkpoint(missing), Catch::Contains("did you mean"));
}
