#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "qsel/artifact/checkpoint.h"
#include "qsel/core/errors.h"
#include "support/checkpoints.h"

using namespace qsel;
using nlohmann::json;

namespace {
std::string error_of(const std::string& path) {
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
  CHECK(error_of((d.path() / "evil").string()) ==
        (d.path() / "evil/model.safetensors.index.json").string() +
            ": weight_map names \"../../etc/passwd\", which is not a file name in the checkpoint folder");
  d.write("evil2/model.safetensors.index.json", json{{"weight_map", {{"a", 7}}}}.dump());
  CHECK(error_of((d.path() / "evil2").string()).find("weight_map \"a\" must name a file") != std::string::npos);
  d.write("evil3/model.safetensors.index.json", "[1,2]");
  CHECK(error_of((d.path() / "evil3").string()).find("expected a JSON object (safetensors index)") != std::string::npos);
}

TEST_CASE("checkpoint: bad configs are located, empty folders and FIFOs are refused", "[artifact][checkpoint]") {
  test::TempDir d;
  d.write("bad/config.json", "{\n  \"hidden_size\": 5,,\n}");
  CHECK(error_of((d.path() / "bad").string()).rfind((d.path() / "bad/config.json").string() + ":2:", 0) == 0);
  std::filesystem::create_directories(d.path() / "empty");
  CHECK(error_of((d.path() / "empty").string()) == (d.path() / "empty").string() + ": no config.json, .safetensors or .gguf file in this folder");
  mkfifo((d.path() / "pipe.json").c_str(), 0644);
  CHECK(error_of((d.path() / "pipe.json").string()) == (d.path() / "pipe.json").string() + ": not a regular file");
  d.write("big/config.json", std::string(17 << 20, ' '));
  CHECK(error_of((d.path() / "big").string()).find("a config.json may be at most 16777216 bytes") != std::string::npos);
  CHECK(error_of((d.path() / "missing").string()) == (d.path() / "missing").string() + ": no such file or folder");
  d.write("two/a.gguf", "GGUF");
  d.write("two/b.gguf", "GGUF");
  CHECK(error_of((d.path() / "two").string()) == (d.path() / "two").string() + ": 2 .gguf files; name the one to read");
}
