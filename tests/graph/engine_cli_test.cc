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

TEST_CASE("engine cli: leading NAME=value words are the environment, checked against the server's env", "[graph]") {
  CHECK(env_assignment("OLLAMA_CONTEXT_LENGTH=8192"));
  CHECK(env_assignment("_X="));
  CHECK_FALSE(env_assignment("=1"));
  CHECK_FALSE(env_assignment("1X=2"));
  CHECK_FALSE(env_assignment("--split=1,2"));
  CHECK_FALSE(env_assignment("hf.co/a/b:Q4_K_M"));
  CHECK(command_env("A=1 B_2=x srv serve C=3") == std::vector<std::string>{"A", "B_2"});  // C=3 is an argument
  Record e = engine_with({{"cli",
                           {{{"program", "srv serve"}, {"flags", nlohmann::json::array()}, {"env", {"A", "B"}}},
                            {{"program", "srv run"}, {"flags", {"--verbose"}}}}},
                          {"launch",
                           {{"program", "srv run"},
                            {"server", "srv serve"},
                            {"model", "{name}"},
                            {"model_import", "srv create {name} -f Modelfile"},
                            {"model_import_note", "FROM ./{file}"},
                            {"context", "A={context}"},
                            {"kv_cache", {{{"format", "kv8"}, {"flags", "B=q8_0 --verbose"}}}}}}});
  bool known = false;
  CHECK(unknown_flags(e, "A=1 B=2 srv serve", &known).empty());
  CHECK(known);
  CHECK(unknown_env(e, "A=1 C=2 srv serve", &known) == std::vector<std::string>{"C"});
  CHECK(unknown_env(e, "A=1 srv run x") == std::vector<std::string>{"A"});  // the run program reads none
  auto t = launch_templates(e);
  std::vector<std::string> commands;
  for (const auto& x : t) commands.push_back(x.pointer + " " + x.command);
  CHECK(commands == std::vector<std::string>{"/launch/context A={context} srv serve", "/launch/model srv run {name}",
                                             "/launch/model_import srv create {name} -f Modelfile",
                                             "/launch/kv_cache/0/flags B=q8_0 srv serve", "/launch/kv_cache/0/flags srv run --verbose"});
}
