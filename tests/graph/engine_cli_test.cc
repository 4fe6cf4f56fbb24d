#include "qsel/graph/engine_cli.h"

#include <catch2/catch.hpp>

using namespace qsel;

namespace {

Record engine_with(const nlohmann::json& data) {
  Record r;
  r.id = "eng";
  r.kind = Kind::Engine;
  r.data = data;
  return r;
}

const nlohmann::json kEngine = {
    {"cli",
     {{{"program", "srv"}, {"flags", {"-m", "-c", "--fit", "-ngl"}}},
      {{"program", "srv quantize"}, {"flags", {"--imatrix"}}}}},
    {"launch",
     {{"program", "srv"},
      {"model", "-m {file}"},
      {"context", "-c {context}"},
      {"fit", "--fit on --fit-target {mib}"},
      {"kv_cache", {{{"format", "kv8"}, {"flags", "-ctk q8_0"}}}},
      {"note", "words -not flags"}}}};

}  // namespace

TEST_CASE("engine cli: flags are the words that start with a dash and are not numbers", "[graph]") {
  CHECK(command_flags("llama-server -m a.gguf -ngl 99 --n-cpu-moe 3 -c 8192") ==
        std::vector<std::string>{"-m", "-ngl", "--n-cpu-moe", "-c"});
  CHECK(command_flags("x --split=1,2 -ts -1 -0.5 -") == std::vector<std::string>{"--split", "-ts"});
  CHECK(command_flags("").empty());
}

TEST_CASE("engine cli: the longest program name a command starts with, and the flags its release lacks", "[graph]") {
  Record e = engine_with(kEngine);
  REQUIRE(cli_program(e, "srv -m x") != nullptr);
  CHECK(cli_program(e, "srv quantize --imatrix f")->value("program", "") == "srv quantize");
  CHECK(cli_program(e, "srvx -m x") == nullptr);  // a name is whole words
  bool known = false;
  CHECK(unknown_flags(e, "srv -m x -c 4 -ngl 10", &known).empty());
  CHECK(known);
  CHECK(unknown_flags(e, "srv -m x --target-bpw 4.5 --target-bpw 3") == std::vector<std::string>{"--target-bpw"});
  CHECK(unknown_flags(e, "srv quantize -m x") == std::vector<std::string>{"-m"});  // its own table, not the server's
  CHECK(unknown_flags(e, "other -m x", &known) == std::vector<std::string>{"-m"});
  CHECK_FALSE(known);
  CHECK(unknown_flags(engine_with({}), "srv -m x") == std::vector<std::string>{"-m"});
}

TEST_CASE("engine cli: every launch template with its program and where it sits", "[graph]") {
  auto t = launch_templates(engine_with(kEngine));
  std::vector<std::string> pointers;
  for (const auto& x : t) pointers.push_back(x.pointer);
  CHECK(pointers == std::vector<std::string>{"/launch/context", "/launch/fit", "/launch/model", "/launch/kv_cache/0/flags"});
  CHECK(t.back().command == "srv -ctk q8_0");
  CHECK(launch_templates(engine_with({})).empty());
}
